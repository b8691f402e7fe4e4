"""``manage.py ratings_recompute [--check]``: every rating again from the games' logs, in the order they were
rated (``ratings.services.recompute``); prints what differed. ``--check`` writes nothing and exits 1 on any
difference."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services.recompute import ratings_recompute


class Command(BaseCommand):
    help = "Recompute every rating from the games' logs (by finish time, then id); --check only compares."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Compare only; exit 1 if anything differs.")

    def handle(self, *args: Any, **options: Any) -> None:
        report = ratings_recompute(write=not options["check"])
        for line in report.differences[:50]:
            self.stdout.write(line)
        self.stdout.write(
            f"{report.games} games replayed, {report.ratings} ratings; {len(report.differences)} differences"
            + ("" if options["check"] or not report.differences else " (stored the logs' numbers)")
        )
        if options["check"] and report.differences:
            raise CommandError("the stored ratings differ from the logs'")
