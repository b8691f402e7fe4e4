"""Webhook deliveries: how many a second, and whether games feel them.

Run from the repository root with PostgreSQL and Redis up on loopback (``DATABASE_URL``, default CI's;
``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/8``, a database this script empties)::

    .venv/bin/python -m benchmarks.bench_webhooks [--messages 10000] [--samples 1000]

One bounded run on 127.0.0.1 only: a fresh PostgreSQL database; the game worker (``-P solo``, the default queue)
and the delivery worker (``-Q webhooks -P threads -c 32``, at a low CPU priority by
``palace.lower_priority``) on Redis, as ``palace.py run`` and docker-compose.yml run them; a local receiver (a
threaded HTTP server on a free loopback port, in a process of its own) behind 100 endpoints, of which 80 answer 200
at once, 10 answer 500 and 10 hang for 5 s. Attempts time out after ``WEBHOOK_TIMEOUT`` = 1 s here (5 s
in production: the figure only sets how long a hanging receiver holds a thread) and no retry falls due within the
run, so each message is attempted once.

1. Games alone: a human plays heads-up against the ``basic`` bot through ``games.services``; per decision, the
   time ``action_submit`` takes, and the time from the human's commit to the bot's answer row.
2. The same, while ``--messages`` deliveries (20 % of them failing or hanging) are queued at once and sent.
   Deliveries per second = messages / time until the last attempt is recorded.

Prints both phases' p50/p99 and their ratios (with / without webhooks). Exit 0 if every message was attempted and
the games' p99 ratios stay within ``MAX_RATIO`` (1.5: a game does not wait for receivers), 1 if not, 2 if the run
failed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import redis

from benchmarks.harness import (
    DEFAULT_DATABASE_URL,
    HOST,
    BenchError,
    CeleryWorker,
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
from palace import lower_priority

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = {"first_dealer": 1, "starting_stack": 10**7, "small_bet": 1, "big_bet": 2, "max_hands": 10**6}
ENDPOINTS = {"ok": 80, "fail": 10, "hang": 10}
HANG_SECONDS = 5.0
MAX_RATIO = 1.5
"""The games' p99 with deliveries over without, at most: "unchanged" on 2 shared cores, where the same phase run
twice without deliveries differs by up to about 1.2x."""
DELIVERY_TIMEOUT = 900.0
POLL_FALLBACK = 0.05
"""Seconds the driver waits for an announcement before it looks at the database anyway."""


KINDS = ("ok", "fail", "hang")


class Receiver(BaseHTTPRequestHandler):
    """``/ok/N`` answers 200, ``/fail/N`` 500, ``/hang/N`` after ``HANG_SECONDS``; counts what it got in ``hits``
    (shared with the benchmark's process, one slot per kind)."""

    hits: Any = None

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        kind = self.path.strip("/").split("/")[0]
        if kind in KINDS:
            with self.hits.get_lock():
                self.hits[KINDS.index(kind)] += 1
        if kind == "hang":
            time.sleep(HANG_SECONDS)
        self.send_response(500 if kind == "fail" else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def serve_receiver(hits: Any, ports: Any) -> None:
    """The receiver's process: receivers are other people's machines, so their threads must not share the
    measured process's interpreter lock."""
    Receiver.hits = hits
    server = ThreadingHTTPServer((HOST, 0), Receiver)
    server.daemon_threads = True
    ports.send(server.server_port)
    server.serve_forever()


def start_receiver() -> tuple[multiprocessing.Process, int, Any]:
    """The receiver in a process of its own, on a free loopback port: (process, port, hits by kind)."""
    context = multiprocessing.get_context("spawn")
    hits = context.Array("q", len(KINDS))
    ours, theirs = context.Pipe()
    process = context.Process(target=serve_receiver, args=(hits, theirs), daemon=True)
    process.start()
    if not ours.poll(30):
        raise BenchError("the receiver did not start")
    return process, int(ours.recv()), hits


def start_workers(env: dict[str, str], workdir: Path) -> list[CeleryWorker]:
    level = os.environ.get("BENCH_WORKER_LOGLEVEL", "WARNING")
    workers = [
        CeleryWorker(env=env, home=workdir, name="worker-games", pool="solo", loglevel=level),
        # As palace.py run and docker-compose.yml: deliveries run at a lower CPU priority than the games.
        CeleryWorker(
            env=env,
            home=workdir,
            name="worker-hooks",
            queues="webhooks",
            pool="threads",
            concurrency=32,
            loglevel=level,
            preexec_fn=lower_priority,
        ),
    ]
    for worker in workers:
        worker.start()
    return workers


class Announcements:
    """The games' pub/sub announcements (``games.services.fanout``), which the driver waits on as a client
    following a stream would: polling the database every millisecond took a core from the processes measured."""

    def __init__(self, redis_url: str) -> None:
        self.pubsub = redis.Redis.from_url(redis_url).pubsub(ignore_subscribe_messages=True)
        from games.services.fanout import CHANNEL

        self.pubsub.subscribe(CHANNEL)

    def wait(self, game_id: int, after: int, seconds: float = POLL_FALLBACK) -> None:
        """Return once ``game_id`` is announced past version ``after``, or after ``seconds`` (a lost message
        costs that much, never the run)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = self.pubsub.get_message(timeout=left)
            if message is None:
                continue
            data = json.loads(message["data"])
            if data["game"] == game_id and data["version"] > after:
                return

    def close(self) -> None:
        self.pubsub.close()


def game_latencies(
    samples: int, announcements: Announcements, timeout: float = 300.0
) -> tuple[list[float], list[float]]:
    """Seconds of ``action_submit`` and from its commit to the bot's answer row, over ``samples`` decisions."""
    from django.utils import timezone as django_timezone

    from games.models import Event, Game, Seat
    from games.selectors.state import engine_of, game_state
    from games.services import action_submit, game_create, seat_take
    from players.services import player_register

    human, _ = player_register(name=f"bench-{uuid.uuid4().hex[:8]}")
    game = game_create(creator=human, kind="palace-poker", seats=2, options=OPTIONS)
    seat_take(game_id=game.pk, player=human, seat=0)
    seat_take(game_id=game.pk, player=human, bot="basic")
    actions: list[float] = []
    bots: list[float] = []
    deadline = time.monotonic() + timeout
    while len(bots) < samples:
        if time.monotonic() > deadline:
            raise BenchError(f"only {len(bots)} bot answers in {timeout:.0f} s")
        # The version first: a move committed after it is announced past it, so the wait cannot miss it.
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        if not Seat.objects.filter(game=game, number=0, to_act=True).exists():
            announcements.wait(game.pk, version)
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
        started = time.perf_counter()
        result = action_submit(user=human, game_id=game.pk, **body)
        actions.append(time.perf_counter() - started)
        committed = django_timezone.now()
        if not Seat.objects.filter(game=game, number=1, to_act=True).exists():
            continue
        while True:
            row = Event.objects.filter(game=game, seq__gt=result.version, actor=1).values_list("created").first()
            if row is not None:
                bots.append((row[0] - committed).total_seconds())
                break
            if time.monotonic() > deadline:
                raise BenchError("the bot did not answer")
            announcements.wait(game.pk, result.version)
    return actions, bots


def queue_messages(port: int, count: int) -> None:
    """``count`` messages spread over the 100 endpoints, made and queued as the dispatcher does."""
    from outbox.services import deliveries_queue, queued_now
    from players.services import player_register
    from webhooks.models import Endpoint, Message
    from webhooks.services.delivery import WEBHOOKS
    from webhooks.services.endpoints import endpoint_create
    from webhooks.services.messages import message_body, new_msg_id

    endpoints: list[Endpoint] = []
    for kind, number in ENDPOINTS.items():
        for index in range(number):
            user, _ = player_register(name=f"hook-{kind}-{index}-{uuid.uuid4().hex[:6]}")
            url = f"http://{HOST}:{port}/{kind}/{index}"
            endpoints.append(endpoint_create(user=user, url=url, events=["turn.due"])[0])
    now = datetime.now(UTC)
    messages = [
        Message(
            endpoint=endpoints[index % len(endpoints)],
            msg_id=new_msg_id(),
            event_type="turn.due",
            body=message_body(event_type="turn.due", at=now, data={"game": 0, "seat": 0, "version": index}),
            **queued_now(now),
        )
        for index in range(count)
    ]
    Message.objects.bulk_create(messages, batch_size=1000)
    from django.db import transaction

    with transaction.atomic():
        deliveries_queue(WEBHOOKS, [message.pk for message in messages])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args(argv)
    return guarded("bench_webhooks", lambda: run(args))


def run(args: argparse.Namespace) -> int:
    admin_url = loopback_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    broker_url = redis_url("redis://127.0.0.1:6379/8")
    receiver, receiver_port, hits = start_receiver()
    name = f"palace_bench_webhooks_{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp, fresh_database(admin_url, name):
        workdir = Path(tmp)
        env = server_environment(with_database(admin_url, name, "conn_max_age=600"), "palace_api.settings", workdir)
        env.update(
            {
                "CELERY_BROKER_URL": broker_url,
                "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
                "WEBHOOK_TIMEOUT": "1",
                "WEBHOOK_RETRY_DELAYS": "3600",
                "WEBHOOK_SWEEP_SECONDS": "3600",
            }
        )
        client = redis.Redis.from_url(broker_url)
        client.flushdb()
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        from webhooks.models import Attempt

        workers = start_workers(env, workdir)
        announcements: Announcements | None = None
        try:
            announcements = Announcements(broker_url)
            game_latencies(20, announcements)  # warm-up, and the game worker is up once the bot answers
            alone = game_latencies(args.samples, announcements)
            queue_messages(receiver_port, args.messages)
            started = time.monotonic()
            loaded: tuple[list[float], list[float]] = ([], [])
            # Games go on for as long as deliveries do (at least --samples decisions), in batches of 50.
            while len(loaded[1]) < args.samples or Attempt.objects.count() < args.messages:
                if time.monotonic() - started > DELIVERY_TIMEOUT:
                    break
                actions, bots = game_latencies(50, announcements)
                loaded[0].extend(actions)
                loaded[1].extend(bots)
            attempted = Attempt.objects.count()
            took = time.monotonic() - started
        finally:
            if announcements is not None:
                announcements.close()
            for worker in workers:
                worker.stop(grace=30)
            client.flushdb()
            receiver.terminate()
    print(f"machine: {machine()}")
    print(f"deliveries: {attempted} of {args.messages} attempted in {took:.1f} s = {attempted / took:.0f}/s")
    got = dict(zip(KINDS, hits[:], strict=True))
    print(f"  receiver got {got} (20 % of the endpoints fail or hang)")
    ok = attempted == args.messages
    for label, index in (("human action (action_submit)", 0), ("bot answer after the action", 1)):
        base50, base99 = (percentile(alone[index], q) * 1000 for q in (0.5, 0.99))
        with50, with99 = (percentile(loaded[index], q) * 1000 for q in (0.5, 0.99))
        print(
            f"{label:<30} without webhooks p50 {base50:.2f} ms p99 {base99:.2f} ms; "
            f"with p50 {with50:.2f} ms p99 {with99:.2f} ms; ratio p50 {with50 / base50:.2f}x p99 {with99 / base99:.2f}x"
        )
        ok = ok and with99 / base99 <= MAX_RATIO
    print(f"every message attempted, games' p99 ratios <= {MAX_RATIO}: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
