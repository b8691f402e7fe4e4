"""The redaction property at length: 1,000 random games of each kind (``--games``), every view and every log
entry of each checked for every seat, a spectator and an anonymous caller (tests/games/selectors/test_redaction.py).

    .venv/bin/python benchmarks/redaction_soak.py [--games 1000] [--seed 10000]

Runs on a throwaway SQLite database it migrates itself; prints games, decisions' log entries and payloads
checked, leaks (must be 0) and the time taken. Figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of each kind")
    parser.add_argument("--seed", type=int, default=10_000, help="first seed: the suite uses 0..99")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="palace-redaction-")
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{home}/db.sqlite3",
            "CELERY_BROKER_URL": "memory://",
            "SECRET_KEY": os.environ.get("SECRET_KEY", "redaction-soak-only"),
            "DJANGO_SETTINGS_MODULE": "palace_api.settings",
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.games.selectors.test_redaction import play_audited

    leaks = 0
    for kind in ("palace-poker", "palace"):
        started = time.monotonic()
        entries = views = 0
        for seed in range(args.seed, args.seed + args.games):
            try:
                audit = play_audited(kind, seed)
            except AssertionError as error:
                leaks += 1
                print(f"LEAK {kind} seed {seed}: {error}", flush=True)
                continue
            entries += audit.entries
            views += audit.views
        took = time.monotonic() - started
        print(
            f"{kind}: {args.games} games, {entries} log entries, {views} payloads checked "
            f"(views, entries per viewer, answers), {took:.0f} s",
            flush=True,
        )
    print(f"leaks: {leaks}")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
