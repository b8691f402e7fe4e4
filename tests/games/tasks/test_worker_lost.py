"""A bot task whose pool process is killed with SIGKILL in the middle of its move, on a real prefork Celery worker
(a subprocess) against PostgreSQL and the configured broker: acks_late with task_reject_on_worker_lost requeue the
task, it runs again, and the bot's decision is in the log exactly once. PostgreSQL only.

The test stops the task at a chosen point with a lock it holds, checks in pg_stat_activity that the task waits
there, and kills the pool process:

- before the commit: the test holds games_game in SHARE mode, so the task locks the game row, reads the game, lets
  the bot decide and inserts the decision into the log, then waits on the version update (UPDATE games_game; on
  PostgreSQL in the same statement as the insert) in its open transaction. The killed transaction must leave
  nothing; the task run again makes the move.
- after the commit: the test holds an advisory lock that the worker's task_postrun hook (installed by this test's
  worker script; the task itself is unchanged) waits for. The move is committed but the task has not returned, so
  its message is not acknowledged. The task run again must find the game moved on and add nothing.

A killed process's PostgreSQL backend goes on waiting for its lock (a waiting backend does not notice that its
client is gone), so the task run again may wait behind it; once the test lets go, that backend finds its client
gone and ends, rolling back whatever it had not committed.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import psycopg
import pytest
from django.db import connection
from kombu import Exchange, Queue

from games.models import Event, Game, Seat
from games.services import game_create, seat_take
from palace_api.celery import app

ROOT = Path(__file__).resolve().parents[3]
BOT_SEAT = 1
# Seconds for each step. The longest is the worker noticing the lost process: its pool is maintained every 5 s.
WAIT = 30.0

# `celery -A palace_api worker ARGS...` with two changes for the test: tasks the worker sends itself (the bot's
# next decision, if the bot acts again) go to a queue nobody consumes, not to the real "palace" queue, so the game
# stops after the decision under test; and, given an advisory lock key, each task waits after it ran (after its
# commit, before its result reaches the main process, which acknowledges the message) while the test holds the lock.
WORKER = """\
import sys

from celery.signals import task_postrun

from palace_api.celery import app

app.conf.task_default_queue = sys.argv[1]
KEY = int(sys.argv[2])


@task_postrun.connect
def wait_for_the_test(**kwargs):
    if KEY:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock_shared(%s)", [KEY])
            cursor.execute("SELECT pg_advisory_unlock_shared(%s)", [KEY])


app.worker_main(sys.argv[3:])
"""

LOST = "WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL)"
RECEIVED = re.compile(r"Task games\.tasks\.bot_move\[([^\]]+)\] received")
SUCCEEDED = re.compile(r"Task games\.tasks\.bot_move\[([^\]]+)\] succeeded in [0-9.e-]+s: (\w+)")

T = TypeVar("T")


def database_url(settings: dict[str, Any]) -> str:
    """The test database (test_palace, test_palace_gw0 ... under xdist) as a DATABASE_URL."""
    user, password = quote(settings["USER"], safe=""), quote(settings["PASSWORD"], safe="")
    host = quote(settings["HOST"] or "", safe="")
    port = f":{settings['PORT']}" if settings["PORT"] else ""
    return f"postgres://{user}:{password}@{host}{port}/{quote(settings['NAME'], safe='')}"


def connect(settings: dict[str, Any], *, application_name: str, autocommit: bool) -> psycopg.Connection:
    return psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        application_name=application_name,
        autocommit=autocommit,
    )


def pool_processes(main_pid: int) -> list[int]:
    """The worker's pool processes: the children of its main process."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == main_pid:
            children.append(int(stat.parent.name))
    return sorted(children)


def log_tail(log: Path, chars: int = 4000) -> str:
    return log.read_text(errors="replace")[-chars:] if log.exists() else "(no worker log yet)"


@pytest.fixture
def postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks and pg_stat_activity are PostgreSQL's; .ci/run runs this test against PostgreSQL")


@pytest.fixture
def queues() -> Iterator[tuple[str, str]]:
    """(the queue the worker consumes, the queue the worker's own tasks go to), this test's alone. The test process
    sends to the first while the test lasts (the session's queue is put back after); both are deleted after."""
    tag = uuid.uuid4().hex[:12]
    consumed, follow_ups = f"palace-test-lost-{tag}", f"palace-test-lost-{tag}-next"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = consumed
    try:
        yield consumed, follow_ups
    finally:
        app.conf.task_default_queue = previous
        with app.connection_for_write() as broker:
            for name in (consumed, follow_ups):
                queue = Queue(name, Exchange(name), routing_key=name)(broker.default_channel)
                queue.declare()  # known to this channel, which may then delete its bindings too
                queue.delete()


def bot_to_decide(make_player) -> tuple[Game, int]:
    """A heads-up Palace Poker match against the basic bot, whose decision it is: the bot's task is queued when
    the bot's seat is taken (on commit). Returns the game and the version the task was queued for."""
    alice, _ = make_player("alice")
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={"first_dealer": 0, "max_hands": 3})
    seat_take(game_id=game.pk, player=alice, seat=0)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    game.refresh_from_db()
    to_act = set(Seat.objects.filter(game=game, to_act=True).values_list("number", flat=True))
    assert to_act == {BOT_SEAT}, f"the bot must be the one to decide, not seats {to_act}"
    return game, game.version


def bot_decisions(game: Game, after: int) -> list[Event]:
    return [
        event
        for event in Event.objects.filter(game=game, seq__gt=after, actor=BOT_SEAT).order_by("seq")
        if "action" in event.payload
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kill_point", ["before the commit", "after the commit"])
def test_a_bot_task_killed_mid_move_is_redelivered_and_its_move_is_logged_once(
    postgresql, queues, make_player, tmp_path, kill_point
):
    consumed, follow_ups = queues
    game, version = bot_to_decide(make_player)
    settings = connection.settings_dict
    key = secrets.randbelow(2**62) + 1 if kill_point == "after the commit" else 0
    backends = f"palace-test-worker-{uuid.uuid4().hex[:12]}"  # the worker's application_name in pg_stat_activity
    env = {**os.environ, "DATABASE_URL": database_url(settings), "PGAPPNAME": backends}
    argv = [sys.executable, "-c", WORKER, follow_ups, str(key), "worker", "-P", "prefork", "-c", "1", "-Q", consumed]
    argv += ["-n", f"{consumed}@%h", "-l", "INFO", "--without-mingle", "--without-gossip", "--without-heartbeat"]
    worker_log = tmp_path / "worker.log"
    observer = connect(settings, application_name="palace-test-observer", autocommit=True)
    locker = connect(settings, application_name="palace-test-locker", autocommit=False)
    worker: subprocess.Popen[bytes] | None = None

    def wait_until(what: str, condition: Callable[[], T]) -> T:
        deadline = time.monotonic() + WAIT
        while not (value := condition()):
            assert worker is None or worker.poll() is None, (
                f"{what}: the worker exited ({worker.returncode if worker else None}); its log:\n{log_tail(worker_log)}"
            )
            assert time.monotonic() < deadline, (
                f"{what}: not within {WAIT} s; the worker's log:\n{log_tail(worker_log)}"
            )
            time.sleep(0.05)
        return value

    def waiting_on_a_lock() -> list[tuple[int, str]]:
        """The worker's PostgreSQL backends that wait for a lock: (backend pid, query)."""
        query = "SELECT pid, query FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'"
        return observer.execute(query, [backends]).fetchall()

    def backend_alive(pid: int) -> bool:
        return observer.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() is not None

    try:
        if key:
            locker.execute("SELECT pg_advisory_xact_lock(%s)", [key])
        else:
            # Only UPDATE games_game (the version) needs a lock that SHARE mode refuses.
            locker.execute("LOCK TABLE games_game IN SHARE MODE")
        with worker_log.open("wb") as log:
            worker = subprocess.Popen(  # noqa: S603 - our own command
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

        # 1. The task waits at the kill point.
        ((stuck, query),) = wait_until("the bot task stopped at the kill point", waiting_on_a_lock)
        if key:
            assert "pg_advisory_lock_shared" in query, query
            assert len(bot_decisions(game, version)) == 1, "the move is committed before the kill"
        else:
            # On PostgreSQL the one statement that updates the game and inserts the log entries
            # (games/services/statements.py), sent inside the transaction that locked the game's row.
            assert query.startswith("WITH moved AS ("), query
            holds_the_game = observer.execute(
                "SELECT 1 FROM pg_locks WHERE pid = %s AND relation = 'games_game'::regclass"
                " AND mode = 'RowShareLock' AND granted",
                [stuck],
            ).fetchone()
            assert holds_the_game, "the task locked the game's row and sent its write, uncommitted, before the kill"
            assert Game.objects.get(pk=game.pk).version == version

        # 2. SIGKILL the pool process that runs it.
        (killed,) = pool_processes(worker.pid)
        os.kill(killed, signal.SIGKILL)

        # 3. The worker finds the process lost and requeues the task; a new pool process receives it again and
        # waits for a lock: the game row the killed task's backend still holds (before the commit), or the test's
        # advisory lock after its run (after the commit).
        wait_until("the worker reported the lost process", lambda: LOST in log_tail(worker_log, chars=100_000))
        ((_, query),) = wait_until(
            "the task delivered again waited for a lock",
            lambda: [row for row in waiting_on_a_lock() if row[0] != stuck],
        )
        assert ("pg_advisory_lock_shared" if key else "FOR UPDATE") in query, query
        assert killed not in pool_processes(worker.pid)

        # 4. Let go: the killed task's backend finds its client gone and ends; the task delivered again finishes.
        locker.rollback()
        wait_until("the killed task's backend ended", lambda: not backend_alive(stuck))
        wait_until(
            "the task delivered again returned",
            lambda: len(SUCCEEDED.findall(worker_log.read_text())) == (2 if key else 1),
        )
    finally:
        locker.rollback()
        if worker is not None:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)  # a warm shutdown: acknowledges what it ran
                try:
                    worker.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(worker.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            worker.wait()
        # No backend of a killed process may outlive the test: the test database is flushed, and dropped at the end.
        left = "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s"
        deadline = time.monotonic() + 10
        while observer.execute(left, [backends]).fetchone() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        locker.close()
        observer.close()

    text = worker_log.read_text(errors="replace")
    received = RECEIVED.findall(text)
    assert len(received) == 2 and len(set(received)) == 1, f"one task, delivered twice: {received}\n{text[-4000:]}"
    assert LOST in text, text[-4000:]
    (task_id,) = set(received)
    # Before the commit the killed run never returned; after it, it had returned True (moved) and was killed before
    # its result reached the main process. The run delivered again moves only if no move was committed.
    expected = [(task_id, "True"), (task_id, "False")] if key else [(task_id, "True")]
    assert SUCCEEDED.findall(text) == expected, text[-4000:]

    game.refresh_from_db()
    log = list(Event.objects.filter(game=game).order_by("seq"))
    assert [event.seq for event in log] == list(range(1, game.version + 1)), "the log's seq has no gap"
    after = log[version:]
    decisions = bot_decisions(game, version)
    assert len(decisions) == 1, (
        f"the bot's decision is in the log exactly once: {[(e.seq, e.actor, e.kind) for e in after]}"
    )
    assert after[0] == decisions[0], "it is the decision at the version the task was queued for"
    assert all(event.actor is None for event in after[1:]), "only chance follows it: nobody else acted"
