"""The cost of loading a game's state as its log grows: snapshots against a full replay.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_state_load [--reps 7] [--sqlite]

By default it works in a throwaway PostgreSQL database (``palace_bench_state_<pid>`` on the server of
``DATABASE_URL``, which must be on loopback; CI's server if unset), created, migrated and dropped by the
run; ``--sqlite`` uses a SQLite file in a temporary folder instead.

It builds two heads-up Palace Poker matches (``first_dealer`` 0, large stacks, ``max_hands`` large) by
playing decisions chosen from the engine's legal actions with a seeded generator, each appended with
``games.services.log.append_action`` (the product's writer: events, projections, a snapshot every
``SNAPSHOT_EVERY`` events; batches of decisions share a transaction, with the game row locked, as the
server's own bot and timeout decisions do), until the logs hold at least 100 and 10,000 events (seat
joins and shuffles count; the shuffles' orders come from the system's generator, as in play). It checks
that a load with snapshots equals a full replay, then times ``games.selectors.state.game_state(game,
use_memory=False)``, with snapshots (the default) and with ``use_snapshots=False``:

- **at the end**: the game at its last version, ``--reps`` times, median;
- **over the last snapshot period**: the game read as it stood at each of its last ``SNAPSHOT_EVERY``
  versions (``state_at(game, version, use_memory=False)``: the log and snapshots up to ``version``),
  median of 3 per version, mean over the versions: the expected cost of a load at a
  random moment, replaying 0 to ``SNAPSHOT_EVERY - 1`` events. With snapshots only.

The target is the period mean: load(10,000) / load(100) <= 2 with snapshots. Exit 1 if it is missed,
2 if a load with snapshots differs from a full replay or the run could not be set up.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from benchmarks.harness import (
    DEFAULT_DATABASE_URL,
    BenchError,
    choose_action,
    fresh_database,
    loopback_url,
    machine,
    with_database,
)

SEED = 20261122
TARGET_RATIO = 2.0
BATCH = 200
"""Decisions appended per transaction while building."""
MAX_BUILD_SECONDS = 900.0
GAME_OPTIONS = {
    "betting": "limit",
    "small_bet": 5,
    "big_bet": 10,
    "ante": 2,
    "starting_stack": 10**9,
    "first_dealer": 0,
    "max_hands": 10**6,
}


@contextmanager
def database(use_sqlite: bool) -> Iterator[str]:
    """The throwaway database's URL, for the duration of the block."""
    if use_sqlite:
        with tempfile.TemporaryDirectory(prefix="palace-bench-state-") as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    admin_url = loopback_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    name = f"palace_bench_state_{os.getpid()}"
    with fresh_database(admin_url, name):
        yield with_database(admin_url, name)


def setup_django(database_url: str, workdir: Path) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "palace_api.settings",
            "DATABASE_URL": database_url,
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "false",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{workdir / 'broker.sqlite3'}",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build_game(events: int, seed: int, deadline: float) -> tuple[int, Any]:
    """A match played until its log holds at least ``events`` events; its id and final engine state."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games.engine.cards import parse_cards
    from games.engine.protocol import Action
    from games.models import Game
    from games.selectors.state import engine_of, game_state
    from games.services import game_create, seat_take
    from games.services.log import append_action

    users = [get_user_model().objects.create_user(username=f"g{seed}s{seat}") for seat in range(2)]
    game = game_create(creator=users[0], kind="palace-poker", seats=2, options=GAME_OPTIONS)
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)
    rng = random.Random(seed)
    state = None
    for _ in range(3 * events):  # each decision adds at least one event: a bound, never reached
        if time.monotonic() > deadline:
            raise BenchError(f"building a game of {events} events took longer than {MAX_BUILD_SECONDS:.0f} s")
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game.pk)
            if state is None:
                state = game_state(game, use_memory=False)
            engine = engine_of(game)
            for _ in range(BATCH):
                if game.version >= events or engine.is_over(state):
                    break
                (seat,) = engine.to_act(state)
                legal = [action.to_json() for action in engine.legal_actions(state, seat)]
                body = choose_action({"legal_actions": legal}, rng)
                action = Action(
                    type=body["type"], seat=seat, cards=parse_cards(body.get("cards", [])), target=body.get("target")
                )
                state, _ = append_action(game, state, action)
        if game.version >= events:
            return game.pk, state
        if engine.is_over(state):
            raise BenchError(f"the match ended at {game.version} events, before {events}")
    raise BenchError(f"no {events} events after {3 * events} decisions")


def timed(load: Callable[[], Any], reps: int) -> float:
    """Median seconds of ``reps`` calls of ``load``."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        load()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def game_at(game_id: int) -> Any:
    from games.models import Game

    return Game.objects.get(pk=game_id)


def replayed_after_snapshot(game: Any) -> int:
    from games.models import Snapshot

    latest = Snapshot.objects.filter(game=game, version__lte=game.version).order_by("-version").first()
    return game.version - (latest.version if latest else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--reps", type=int, default=7, help="timed loads per figure at the end (default 7)")
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file in a temporary folder, not PostgreSQL")
    parser.add_argument("--sizes", default="100,10000", help="log sizes: small,large (default 100,10000)")
    args = parser.parse_args(argv)
    small, large = (int(part) for part in args.sizes.split(","))
    if not 10 <= small < large <= 100_000 or not 1 <= args.reps <= 100:
        parser.error("--sizes: 10 <= small < large <= 100000; --reps: 1 to 100")
    print(f"Machine: {machine()}")
    try:
        with ExitStack() as stack:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="palace-bench-state-")))
            url = stack.enter_context(database(args.sqlite))
            kind = "SQLite (temporary file)" if args.sqlite else f"PostgreSQL, database {url.rsplit('/', 1)[1]}"
            print(f"Database: {kind}; removed at the end")
            setup_django(url, workdir)
            try:
                return measure(small, large, args.reps)
            finally:
                from django.db import connections

                connections.close_all()
    except BenchError as error:
        print(f"\nbench_state_load: {error}", file=sys.stderr)
        return 2


def measure(small: int, large: int, reps: int) -> int:
    from games.selectors.state import SNAPSHOT_EVERY, forget_states, game_state, state_at

    deadline = time.monotonic() + MAX_BUILD_SECONDS
    games: dict[int, tuple[int, Any]] = {}
    for size in (small, large):
        start = time.perf_counter()
        games[size] = build_game(size, SEED + size, deadline)
        version = game_at(games[size][0]).version
        print(f"Built a match of {version} events (target {size}) in {time.perf_counter() - start:.1f} s")
    forget_states()

    for size, (game_id, final_state) in games.items():
        game = game_at(game_id)
        with_snapshots = game_state(game, use_memory=False)
        replayed = game_state(game, use_memory=False, use_snapshots=False)
        if not (with_snapshots == replayed == final_state):
            print(f"FAIL: the {size}-event game loads differently with and without snapshots", file=sys.stderr)
            return 2

    rows = []
    for size, (game_id, _) in games.items():
        game = game_at(game_id)
        snap = timed(lambda game=game: game_state(game, use_memory=False), reps)
        full = timed(lambda game=game: game_state(game, use_memory=False, use_snapshots=False), reps)
        last = game.version
        first = max(1, last - SNAPSHOT_EVERY + 1)
        period = []
        for version in range(first, last + 1):
            period.append(timed(lambda g=game, v=version: state_at(g, v, use_memory=False), 3))
        rows.append(
            (size, last, replayed_after_snapshot(game), snap, full, first, statistics.mean(period), max(period))
        )

    print()
    print(
        f"{'log':>7} {'events':>7} | {'at the end: snapshots':>22} {'replayed':>8} {'no snapshots':>13} | "
        f"{'last period: versions':>21} {'mean':>9} {'worst':>9}"
    )
    for size, last, replayed, snap, full, first, mean, worst in rows:
        print(
            f"{size:7} {last:7} | {snap * 1000:20.2f}ms {replayed:8} {full * 1000:11.2f}ms | "
            f"{f'{first}..{last}':>21} {mean * 1000:7.2f}ms {worst * 1000:7.2f}ms"
        )
    (_, _, _, snap_s, full_s, _, mean_s, worst_s), (_, _, _, snap_l, full_l, _, mean_l, worst_l) = rows
    ratio = mean_l / mean_s
    print()
    print(
        f"load({large})/load({small}), with snapshots, mean over the last period: {ratio:.2f}x "
        f"(target <= {TARGET_RATIO:g})"
    )
    print(
        f"  at the end (both right after a snapshot): {snap_l / snap_s:.2f}x; "
        f"worst of the period: {worst_l / worst_s:.2f}x"
    )
    print(
        f"  without snapshots, at the end: {full_l / full_s:.1f}x "
        f"({full_l * 1000:.1f} ms against {full_s * 1000:.2f} ms)"
    )
    print(f"  at {large} events, no snapshots / snapshots (period mean): {full_l / mean_l:.0f}x")
    print(f"  a full replay costs {full_l / rows[1][1] * 1000:.3f} ms per logged event")
    if ratio <= TARGET_RATIO:
        print(f"\nPASS: load({large})/load({small}) <= {TARGET_RATIO:g} with snapshots")
        return 0
    print(f"\nFAIL: load({large})/load({small}) > {TARGET_RATIO:g} with snapshots")
    return 1


if __name__ == "__main__":
    sys.exit(main())
