"""Where one action's time goes, in-process on PostgreSQL: the game loop of ``bench_http`` through Django's test
client, timed, then under cProfile, with the share of each part of the path.

Run from the repository root, with PostgreSQL and Redis on loopback (``DATABASE_URL``, CI's by default;
``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/9``, a database this script empties: the broker, as in
docker-compose.yml, so a publish costs what it costs there)::

    .venv/bin/python -m benchmarks.profile_http [--actions 300] [--top 25]

One bounded run: a fresh database (dropped at the end), migrated; one heads-up Palace Poker match with a turn
timeout (as people's games have: each human decision then schedules one), played by one client loop (a GET as
the seat expected to act, then the POST, as ``bench_http``'s clients do) for ``--actions`` actions timed, then
as many under the profiler. It prints the GET's and POST's median milliseconds, the SQL queries of each, the
median of the ceiling's request (``bench_http``'s ``POST /bare/``, served by the same settings in the same
process: what Django, DRF and the token check cost before any server), the
share of the profiled time spent in each part of the path (token check, ORM query building, the database
driver, publishing to Celery, the live streams' announce, the rules engine, rendering), and the functions with
the most time of their own. Exit 0, or 2 if the run could not be set up.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import (
    DEFAULT_DATABASE_URL,
    ROOT,
    BenchError,
    choose_action,
    fresh_database,
    guarded,
    load_average,
    loopback_url,
    machine,
    migrate,
    redis_url,
    server_environment,
    with_database,
)

SEED = 20261125
OPTIONS = {
    "starting_stack": 10**9,
    "first_dealer": 0,
    "max_hands": 10**6,
    "small_bet": 5,
    "big_bet": 10,
}
TURN_TIMEOUT = 60
"""``--turn-timeout``'s default: a minute a decision, so each human decision schedules a countdown (none fires: no
worker runs); ``0`` plays without one, as ``bench_http``'s matches do."""

PARTS: dict[str, tuple[str, str]] = {
    "token check (players.auth)": ("players/auth.py", "authenticate"),
    "publish to Celery (outbox.broker.publish)": ("outbox/broker.py", "publish"),
    "ORM query building (SQLCompiler.as_sql)": ("django/db/models/sql/compiler.py", "as_sql"),
    "database driver (psycopg execute)": ("psycopg/cursor.py", "execute"),
    "rules engine (games.engine, own time)": ("games/engine/", ""),
    "rendering (DRF's JSON renderer)": ("rest_framework/renderers.py", "render"),
    "view versions read (the cache)": ("games/selectors/versions.py", "_token"),
    "view versions renewed, streams told (one trip)": ("games/services/versions.py", "changed"),
}
"""A part of the path: the cumulative time of the function ``name`` of a file whose path contains the first
string; with no name, the own time of every function in those files. Parts overlap (the driver's time is in the
token check's too), so the shares do not add up to 100%."""


def make_client(token: str) -> Any:
    from django.test import Client

    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def new_match(clients: list[Any], turn_timeout: int = TURN_TIMEOUT) -> int:
    options = {**OPTIONS, "turn_timeout": turn_timeout} if turn_timeout else OPTIONS
    body = {"kind": "palace-poker", "seats": 2, "options": options}
    created = clients[0].post("/api/v1/games/", body, "application/json")
    if created.status_code != 201:
        raise BenchError(f"create a game: {created.status_code} {created.content[:300]!r}")
    game_id = created.json()["id"]
    for seat, client in enumerate(clients):
        client.post(f"/api/v1/games/{game_id}/seats/", {"seat": seat}, "application/json")
    return game_id


def play(clients: list[Any], game_id: int, actions: int, rng: random.Random) -> dict[str, list[float]]:
    """``actions`` actions: for each, a GET as the seat to act, then the POST; the seconds of each request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times: dict[str, list[float]] = {"GET": [], "POST": [], "GET queries": [], "POST queries": []}
    seat = 0
    for _ in range(actions):
        with CaptureQueriesContext(connection) as got:
            start = time.perf_counter()
            view = clients[seat].get(f"/api/v1/games/{game_id}/").json()
            times["GET"].append(time.perf_counter() - start)
        times["GET queries"].append(len(got.captured_queries))
        if view["to_act"] != [seat]:
            seat = view["to_act"][0]
            view = clients[seat].get(f"/api/v1/games/{game_id}/").json()
        body = {**choose_action(view, rng), "expected_version": view["version"]}
        with CaptureQueriesContext(connection) as posted:
            start = time.perf_counter()
            answer = clients[seat].post(f"/api/v1/games/{game_id}/actions/", body, "application/json")
            times["POST"].append(time.perf_counter() - start)
        times["POST queries"].append(len(posted.captured_queries))
        if answer.status_code != 201:
            raise BenchError(f"POST {body}: {answer.status_code} {answer.content[:300]!r}")
    return times


def bare(client: Any, requests: int) -> list[float]:
    """``requests`` of the ceiling's ``POST /bare/`` (token check, JSON body, one row inserted); their seconds."""
    seconds = []
    for number in range(requests):
        start = time.perf_counter()
        answer = client.post("/bare/", {"number": number}, "application/json")
        seconds.append(time.perf_counter() - start)
        if answer.status_code != 201:
            raise BenchError(f"POST /bare/: {answer.status_code} {answer.content[:300]!r}")
    return seconds


def shares(profile: cProfile.Profile, top: int) -> tuple[float, dict[str, float], str]:
    """The profiled seconds, each part's seconds, and the ``top`` functions by own time (text)."""
    stats = pstats.Stats(profile)
    parts = dict.fromkeys(PARTS, 0.0)
    for (filename, _line, function), (_cc, _nc, own, cumulative, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        for part, (path, name) in PARTS.items():
            if path in filename and (not name or name == function):
                parts[part] += cumulative if name else own
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(top)
    text.write("\nThe project's functions by cumulative time:\n")
    project = f"{ROOT}/(games|players|outbox|palace_api|webhooks|notifications)/"
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(project, top)
    return stats.total_tt, parts, text.getvalue()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300, help="actions timed, then as many profiled")
    parser.add_argument("--top", type=int, default=25, help="functions to list by own time")
    parser.add_argument("--dump", type=Path, help="also write the profile there (pstats' format)")
    parser.add_argument(
        "--turn-timeout",
        type=int,
        default=TURN_TIMEOUT,
        help="seconds a decision (default %(default)s); 0: none, as bench_http's matches",
    )
    parser.add_argument(
        "--cache",
        choices=("redis", "local"),
        default="redis",
        help="the view versions' cache: on the broker's Redis as docker-compose.yml ships it (default), or per process",
    )
    args = parser.parse_args(argv)
    if not 10 <= args.actions <= 5000:
        parser.error("--actions: 10 to 5,000")
    return guarded("profile_http", lambda: run(args))


def run(args: argparse.Namespace) -> int:
    import redis

    admin_url = loopback_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    broker_url = redis_url("redis://127.0.0.1:6379/9")
    print(f"Machine: {machine()}")
    name = f"palace_bench_profile_{os.getpid()}"
    broker = redis.Redis.from_url(broker_url)
    with tempfile.TemporaryDirectory() as tmp, fresh_database(admin_url, name):
        # The product's settings plus the ceiling's ``POST /bare/`` (benchmarks.bare), as bench_http serves it.
        settings = "benchmarks.bare.settings"
        env = server_environment(with_database(admin_url, name, "conn_max_age=600"), settings, Path(tmp))
        env.update({"CELERY_BROKER_URL": broker_url, "STREAMS_REDIS_URL": broker_url})
        if args.cache == "redis":
            env["CACHE_URL"] = broker_url
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        import logging

        logging.getLogger("palace.requests").setLevel(logging.WARNING)
        from django.db import connection
        from django.test import Client

        try:
            anonymous = Client()
            tokens = [
                anonymous.post("/api/v1/players/", {"name": f"p{n}"}, "application/json").json()["token"]
                for n in range(2)
            ]
            clients = [make_client(token) for token in tokens]
            rng = random.Random(SEED)
            timeout = args.turn_timeout
            play(clients, new_match(clients, timeout), 20, rng)  # warm-up: imports, connections, caches
            bare(clients[0], 20)
            timed = play(clients, new_match(clients, timeout), args.actions, rng)
            timed["bare"] = bare(clients[0], args.actions)
            profile = cProfile.Profile()
            game_id = new_match(clients, timeout)
            profile.enable()
            play(clients, game_id, args.actions, rng)
            profile.disable()
            if args.dump is not None:
                profile.dump_stats(args.dump)
        finally:
            connection.close()
            broker.flushdb()
    report(timed, profile, args.actions, args.top)
    return 0


def report(timed: dict[str, list[float]], profile: cProfile.Profile, actions: int, top: int) -> None:
    print(
        f"\n{actions} actions, without the profiler: GET median {statistics.median(timed['GET']) * 1000:.2f} ms "
        f"({statistics.mean(timed['GET queries']):.1f} queries), POST median "
        f"{statistics.median(timed['POST']) * 1000:.2f} ms ({statistics.mean(timed['POST queries']):.1f} queries); "
        f"load average {load_average()}"
    )
    get, post, ceiling = (statistics.median(timed[key]) * 1000 for key in ("GET", "POST", "bare"))
    print(
        f"The ceiling's request (POST /bare/) in the same process: median {ceiling:.2f} ms. An action's GET and POST "
        f"together: {get + post:.2f} ms, {(get + post) / ceiling:.1f}x it; the POST alone {post / ceiling:.1f}x."
    )
    total, parts, listing = shares(profile, top)
    print(f"\nUnder the profiler ({total:.2f} s for {actions} actions, {total / actions * 1000:.2f} ms each):")
    for part, seconds in parts.items():
        print(f"  {part:45} {seconds / total * 100:5.1f}%  {seconds / actions * 1000:6.2f} ms an action")
    print("\nFunctions by own time:")
    print(listing)


if __name__ == "__main__":
    sys.exit(main())
