"""``manage.py ensure_staff``: make a staff user when there is none, and print its credentials once."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.management.base import BaseCommand

from players.services import staff_ensure


class Command(BaseCommand):
    help = "Create a staff user (superuser) if none exists, and print its name and password."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        password = secrets.token_urlsafe(12)
        created = staff_ensure(username=username, password=password)
        if created is None:
            self.stdout.write(
                "A staff user exists already (python3 palace.py manage changepassword <name> resets a password)."
            )
            return
        self.stdout.write(f"Staff user created: username {created.get_username()!r}, password {password!r}")
