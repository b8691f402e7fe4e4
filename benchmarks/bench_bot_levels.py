"""Bot moves per second per worker core, for each bot level a person may seat: the worker's own code path.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_bot_levels [--sqlite] [--basic-moves 300] [--search-moves 24]

In one process (one core, as one Celery worker process is), bot-against-bot heads-up matches of each game are
moved by ``games.services.turns.bot_move``, the service the ``bot_move`` / ``slow_bot_move`` tasks call: the game
row locked, the state loaded, the bot's choice from its seat's view, the append and its commit (which publishes
the next move to a throwaway embedded broker, as in production it goes to Redis). A finished match is replaced by
a new one. It prints, per game and bot, the moves made, their wall time and the process's CPU time, and moves per
second of each; then per game the ratio of ``basic``'s moves per CPU second (what one core sustains; its wall
time is mostly waiting when the machine is busy) to ``search``'s moves per wall second: its budget (250 ms a
decision) is wall time, so a process makes at most 4 a second, fewer CPU seconds each when it shares its core; a
forced decision (one legal action) is answered at once.

By default it works in a throwaway PostgreSQL database (``palace_bench_state_<pid>`` on the server of
``DATABASE_URL``, made and dropped by ``bench_state_load``'s helper); ``--sqlite`` uses a SQLite file instead.
Exit 0, or 2 if the run could not be set up.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from benchmarks.bench_state_load import database, setup_django
from benchmarks.harness import BenchError, machine

KINDS = {"palace": {"max_turns": 200}, "palace-poker": {"max_hands": 20}}
"""Each game's options: matches long enough that starting a new one is a small part of the run."""
MAX_SECONDS = 60.0
"""Per game and bot: the run stops there whatever the move count."""


def new_match(kind: str, bot: str, creator: object) -> int:
    """A heads-up match of ``kind`` between two ``bot`` seats, started; its id."""
    from games.services import game_create, seat_take

    game = game_create(creator=creator, kind=kind, seats=2, options=KINDS[kind])
    for seat in range(2):
        seat_take(game_id=game.pk, player=creator, seat=seat, bot=bot)
    return game.pk


def measure(kind: str, bot: str, moves: int, creator: object) -> tuple[int, float, float]:
    """``(moves made, wall seconds, CPU seconds)`` of ``moves`` bot moves of ``bot`` in matches of ``kind``."""
    from games.models import Game, GameStatus
    from games.services.turns import bot_move

    game_id = new_match(kind, bot, creator)
    made, wall, cpu = 0, 0.0, 0.0
    stop = time.monotonic() + MAX_SECONDS
    while made < moves and time.monotonic() < stop:
        game = Game.objects.get(pk=game_id)
        if game.status == GameStatus.FINISHED:
            game_id = new_match(kind, bot, creator)
            continue
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        moved = bot_move(game_id=game_id, version=game.version)
        wall += time.perf_counter() - wall_start
        cpu += time.process_time() - cpu_start
        if not moved:
            raise BenchError(f"{kind} {bot}: game {game_id} at version {game.version} had no bot move to make")
        made += 1
    return made, wall, cpu


def run(basic_moves: int, search_moves: int) -> None:
    from players.services import player_register

    creator, _ = player_register(name="bench-bot-levels")
    print(f"\n{'game':<13} {'bot':<7} {'moves':>6} {'wall s':>8} {'CPU s':>7} {'moves/s':>8} {'moves/CPU s':>12}")
    rates: dict[tuple[str, str], float] = {}
    for kind in KINDS:
        for bot, moves in (("basic", basic_moves), ("search", search_moves)):
            made, wall, cpu = measure(kind, bot, moves, creator)
            # basic: its CPU time is what a core gives it (wall time is mostly waiting on a busy machine);
            # search: its budget is wall time, so a process makes at most 1 / budget moves a second.
            rates[kind, bot] = made / cpu if bot == "basic" else made / wall
            print(f"{kind:<13} {bot:<7} {made:>6} {wall:>8.2f} {cpu:>7.2f} {made / wall:>8.1f} {made / cpu:>12.1f}")
    print()
    for kind in KINDS:
        ratio = rates[kind, "basic"] / rates[kind, "search"]
        print(
            f"{kind}: a core makes {rates[kind, 'basic']:.0f} basic moves per CPU second; a search process "
            f"{rates[kind, 'search']:.1f} moves per second: {ratio:.0f}x"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file in a temporary folder, not PostgreSQL")
    parser.add_argument("--basic-moves", type=int, default=300, help="basic bot moves per game (default 300)")
    parser.add_argument("--search-moves", type=int, default=24, help="search bot moves per game (default 24)")
    args = parser.parse_args(argv)
    if not 1 <= args.basic_moves <= 10_000 or not 1 <= args.search_moves <= 1_000:
        parser.error("--basic-moves: 1 to 10000; --search-moves: 1 to 1000")
    print(f"Machine: {machine()}")
    try:
        with ExitStack() as stack:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="palace-bench-levels-")))
            url = stack.enter_context(database(args.sqlite))
            print("Database: " + ("SQLite (temporary file)" if args.sqlite else f"PostgreSQL {url.rsplit('/', 1)[1]}"))
            setup_django(url, workdir)
            try:
                run(args.basic_moves, args.search_moves)
            finally:
                from django.db import connections

                connections.close_all()
    except BenchError as error:
        print(f"\nbench_bot_levels: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
