"""``manage.py rotate_webhook_secrets``: encrypt every webhook signing secret again with the first of
``WEBHOOK_SECRET_KEYS`` (README, "Webhooks": rotating the key)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from palace_api.errors import ApplicationError
from webhooks.services.secret_box import secrets_rotate


class Command(BaseCommand):
    help = "Encrypt every webhook signing secret again with the first of WEBHOOK_SECRET_KEYS."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rotated = secrets_rotate()
        except ApplicationError as error:
            raise CommandError(f"{error.code}: {error.detail}; nothing was changed") from error
        self.stdout.write(f"{rotated} webhook secrets encrypted with the first key")
