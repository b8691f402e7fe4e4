"""A player's games as NDJSON (``GET me/games/export/``): memory and games/s while 1,000 finished games stream.

    .venv/bin/python benchmarks/bench_export.py [--games 1000]

Plays one finished game of each kind through the services, copies them until the player has ``--games``
finished games (log rows and all), then streams the export as the view does (its async body, one game a line)
and prints the peak memory traced while streaming 1/10 of the games and all of them (constant memory: a ratio
near 1), against the baseline of one JSON document holding every game (what a non-streamed export would hold).
Runs on a throwaway SQLite database it migrates itself. Figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    home = tempfile.mkdtemp(prefix="palace-export-")
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{home}/db.sqlite3",
            "CELERY_BROKER_URL": "memory://",
            "SECRET_KEY": os.environ.get("SECRET_KEY", "export-bench-only"),
            "DJANGO_SETTINGS_MODULE": "palace_api.settings",
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fill(games: int) -> Any:
    """The player, with ``games`` finished games: two played, the rest copies of them."""
    from games.models import Event, Game, Seat
    from tests.games.selectors.test_export import play

    played = [
        play("palace-poker", {"max_hands": 3}, 3, "benchpoker")[0],
        play("palace", {"max_turns": 200}, 3, "benchshed")[0],
    ]
    user = played[0].seats.get(number=0).player
    for n in range(games - 1):  # the poker game is the player's; the shedding one is another player's
        source = played[n % 2]
        copy = Game.objects.create(
            kind=source.kind,
            seat_count=source.seat_count,
            options=source.options,
            status=source.status,
            version=source.version,
            creator=user,
        )
        # Every copy is the player's: he sits at seat 0 of each.
        Seat.objects.bulk_create(
            Seat(game=copy, number=seat.number, player=user if seat.number == 0 else None, bot=seat.bot)
            for seat in source.seats.all()
        )
        Event.objects.bulk_create(
            Event(game=copy, seq=row.seq, kind=row.kind, actor=row.actor, payload=row.payload)
            for row in Event.objects.filter(game=source)
        )
    return user


async def stream(user: Any, limit: int, *, window: int = 100) -> tuple[int, int, float, list[int]]:
    """Stream ``limit`` games as the view does, tracing memory; (games, bytes, seconds, the peak traced memory of
    each ``window`` games in turn: flat when the stream holds one game at a time)."""
    from games.api.export import _lines
    from games.selectors.export import player_games

    tracemalloc.start()
    started = time.perf_counter()
    games = size = 0
    peaks = []
    async for line in _lines(player_games(user, limit=limit), user):
        games += 1
        size += len(line)
        if games % window == 0:
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.reset_peak()
    took = time.perf_counter() - started
    tracemalloc.stop()
    return games, size, took, peaks


async def pace(user: Any, limit: int) -> float:
    """Games per second streamed without tracing."""
    from games.api.export import _lines
    from games.selectors.export import player_games

    started = time.perf_counter()
    games = 0
    async for _ in _lines(player_games(user, limit=limit), user):
        games += 1
    return games / (time.perf_counter() - started)


def baseline(user: Any, limit: int) -> int:
    """The traced peak of one JSON document of every game (not streamed)."""
    from games.selectors.export import game_export, player_games

    tracemalloc.start()
    json.dumps([game_export(game, user) for game in player_games(user, limit=limit)])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    setup()
    user = fill(args.games)
    games, size, took, peaks = asyncio.run(stream(user, args.games))
    rate = asyncio.run(pace(user, args.games))
    whole = baseline(user, args.games)
    mib = 1024 * 1024
    print(f"streamed {games} games, {size / mib:.1f} MiB of NDJSON: {rate:.0f} games/s ({games / took:.0f} traced)")
    print("peak traced memory per 100 games: " + ", ".join(f"{peak / mib:.2f}" for peak in peaks) + " MiB")
    print(f"last 100 games vs first 100: x{peaks[-1] / peaks[0]:.2f} (constant memory: about 1)")
    print(f"baseline, one JSON document of {games} games: peak {whole / mib:.1f} MiB (x{whole / max(peaks):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
