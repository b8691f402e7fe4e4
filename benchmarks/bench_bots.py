"""Bot answer latency through Celery and Redis, and the bot moves one worker sustains under web load.

Run from the repository root with PostgreSQL and Redis up on loopback (``DATABASE_URL``, default CI's;
``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/7``, a database this script empties)::

    .venv/bin/python -m benchmarks.bench_bots [--samples 200] [--duration 10]

One bounded run on 127.0.0.1 only: a fresh PostgreSQL database, one Celery worker (``-P solo``: one
task at a time) on Redis, and in this process the services of ``games`` on the same database.

1. Baseline: a bare Celery round trip, a task that only pushes to a Redis list the script waits on.
2. Latency: a human plays heads-up against the ``basic`` bot through ``games.services`` (no HTTP, no
   thinking delay); for each human action after which the bot must decide, the time from the human's
   action row to the bot's (each row's ``created``, stamped as it is written just before its commit: the
   human's commit, the broker, the worker and the bot's decision). Targets: p50 <= 15 ms, p99 <= 50 ms.
3. Throughput: eight bot-against-bot matches run at once for ``--duration`` seconds while two threads
   load gunicorn (2 sync workers) with game views; bot moves per second of the one worker.
Exit 0 if the latency targets are met, 1 if not, 2 if the run failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx
import redis

from benchmarks.harness import (
    DEFAULT_DATABASE_URL,
    BenchError,
    CeleryWorker,
    Server,
    fresh_database,
    guarded,
    loopback_url,
    machine,
    migrate,
    percentile,
    redis_url,
    server_environment,
    with_database,
)

ROOT = Path(__file__).resolve().parent.parent
TARGET_P50_MS = 15.0
TARGET_P99_MS = 50.0
OPTIONS = {"first_dealer": 1, "starting_stack": 10**7, "small_bet": 1, "big_bet": 2, "max_hands": 10**6}


def start_worker(env: dict[str, str], workdir: Path) -> CeleryWorker:
    level = os.environ.get("BENCH_WORKER_LOGLEVEL", "WARNING")  # INFO logs each task's run time
    worker = CeleryWorker(
        env=env, home=workdir, name="worker", pool="solo", loglevel=level, extra=["-I", "benchmarks.bench_tasks"]
    )
    worker.start()
    return worker


def round_trips(app, client: redis.Redis, samples: int) -> list[float]:
    """Seconds from sending the echo task to receiving its answer."""
    out = []
    for index in range(samples):
        key = f"bench-echo-{index}"
        sent = time.perf_counter()
        app.send_task("benchmarks.bench_tasks.echo", args=[key, sent])
        if client.blpop([key], timeout=30) is None:
            raise BenchError("the worker did not answer the echo task within 30 s")
        out.append(time.perf_counter() - sent)
    return out


def bot_latencies(samples: int, timeout: float = 120.0) -> list[float]:
    """Seconds from a human's action row to the bot's action row (both ``created``, stamped as each is written,
    just before its commit), over ``samples`` bot answers."""
    from games.models import Event, Seat
    from games.selectors.state import engine_of, game_state
    from games.services import action_submit, game_create, seat_take
    from players.services import player_register

    human, _ = player_register(name=f"bench-{uuid.uuid4().hex[:8]}")
    game = game_create(creator=human, kind="palace-poker", seats=2, options=OPTIONS)
    seat_take(game_id=game.pk, player=human, seat=0)
    seat_take(game_id=game.pk, player=human, bot="basic")
    out: list[float] = []
    deadline = time.monotonic() + timeout
    while len(out) < samples:
        if time.monotonic() > deadline:
            raise BenchError(f"only {len(out)} bot answers in {timeout:.0f} s")
        if not Seat.objects.filter(game=game, number=0, to_act=True).exists():
            time.sleep(0.001)
            continue
        game.refresh_from_db()
        view = engine_of(game).view(game_state(game), 0)
        legal = {action["type"]: action for action in view["legal_actions"]}
        if "stay" in legal:
            body: dict = {"type": "stay"}
        elif "call" in legal:
            body = {"type": "call"}
        else:
            body = {"type": "discard", "cards": legal["discard"]["cards"][: legal["discard"]["min_cards"]]}
        result = action_submit(user=human, game_id=game.pk, **body)
        # Both ends are rows' stamps, taken the same way just before each commit: a clock read here, after
        # action_submit returns (its publish done), came after a fast bot's answer and gave negative latencies.
        committed = Event.objects.values_list("created", flat=True).get(game=game, seq=result.version)
        if not Seat.objects.filter(game=game, number=1, to_act=True).exists():
            continue  # the hand ended and the human acts first again: nothing to time
        while True:
            row = Event.objects.filter(game=game, seq__gt=result.version, actor=1).values_list("created").first()
            if row is not None:
                out.append((row[0] - committed).total_seconds())
                break
            if time.monotonic() > deadline:
                raise BenchError("the bot did not answer")
            time.sleep(0.0005)
    return out


def bot_throughput(server: Server, duration: float, matches: int = 8) -> tuple[float, float]:
    """Bot moves per second and web views per second while ``matches`` bot-only matches run."""
    from django.utils import timezone

    from games.models import Event
    from games.services import game_create, seat_take
    from players.services import player_register

    owner, token = player_register(name=f"owner-{uuid.uuid4().hex[:8]}")
    games = []
    started = timezone.now()
    for _ in range(matches):
        game = game_create(creator=owner, kind="palace-poker", seats=2, options=OPTIONS)
        seat_take(game_id=game.pk, player=owner, bot="basic")
        seat_take(game_id=game.pk, player=owner, bot="basic")
        games.append(game.pk)
    views = [0, 0]
    stop = threading.Event()

    def load(index: int) -> None:
        with httpx.Client(base_url=server.base_url, headers={"Authorization": f"Token {token}"}, timeout=10) as web:
            while not stop.is_set() and views[index] < 1_000_000:
                web.get(f"/api/v1/games/{games[views[index] % matches]}/").raise_for_status()
                views[index] += 1

    threads = [threading.Thread(target=load, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(duration)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    moves = Event.objects.filter(game_id__in=games, actor__isnull=False, created__gt=started).exclude(kind="seat_taken")
    return moves.count() / duration, sum(views) / duration


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--duration", type=float, default=10.0)
    args = parser.parse_args(argv)
    return guarded("bench_bots", lambda: run(args))


def run(args: argparse.Namespace) -> int:
    admin_url = loopback_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    broker_url = redis_url("redis://127.0.0.1:6379/7")
    name = f"palace_bench_bots_{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp, fresh_database(admin_url, name):
        workdir = Path(tmp)
        env = server_environment(with_database(admin_url, name, "conn_max_age=600"), "palace_api.settings", workdir)
        env.update({"CELERY_BROKER_URL": broker_url, "BENCH_REDIS_URL": broker_url})
        client = redis.Redis.from_url(broker_url)
        client.flushdb()
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        from palace_api.celery import app

        worker = start_worker(env, workdir)
        server = Server("product", env, workdir)
        try:
            round_trips(app, client, 20)  # the worker is up once it answers
            baseline = round_trips(app, client, args.samples)
            bot_latencies(20)  # warm-up: imports, connections, the bot's first decisions
            latencies = bot_latencies(args.samples)
            server.start()
            moves, views = bot_throughput(server, args.duration)
        finally:
            server.stop()
            worker.stop(grace=30)
            if os.environ.get("BENCH_WORKER_LOG"):
                Path(os.environ["BENCH_WORKER_LOG"]).write_bytes((workdir / "worker.log").read_bytes())
            client.flushdb()
    p50, p99 = percentile(latencies, 0.50) * 1000, percentile(latencies, 0.99) * 1000
    base50, base99 = percentile(baseline, 0.50) * 1000, percentile(baseline, 0.99) * 1000
    print(f"machine: {machine()}")
    print(f"bare Celery round trip (Redis, solo worker): p50 {base50:.2f} ms, p99 {base99:.2f} ms")
    print(f"bot answer after the human's action:        p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(latencies)} answers)")
    print(f"  ratio to the bare round trip:             p50 {p50 / base50:.1f}x, p99 {p99 / base99:.1f}x")
    print(f"one worker, 8 bot matches, web under load:  {moves:.0f} bot moves/s, {views:.0f} web views/s")
    ok = p50 <= TARGET_P50_MS and p99 <= TARGET_P99_MS
    print(f"targets p50 <= {TARGET_P50_MS:.0f} ms, p99 <= {TARGET_P99_MS:.0f} ms: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
