"""Fault tests: PostgreSQL restarted under the web server as the Dockerfile runs it (gunicorn with two uvicorn
workers), first while it is idle, then under load; and a decision refused by an outage, retried with its key.

What is checked is what README, "Failure modes", promises: requests succeed again as soon as the database is
back (the first request after its return is answered 2xx: a connection the restart broke is never handed to a
request), nothing a client was told is lost or applied twice, and a retry with the same Idempotency-Key says
whether its decision was applied (201, replayed or not), never ``idempotency_key_in_flight`` for a dead request.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.system.faults.servers import Palace, PrivatePostgres, wait_until
from tests.system.faults.tables import NO_ANSWER, Table

POOL = {"DATABASE_POOL_MAX_SIZE": "20"}
"""docker-compose.yml's web service: a pool of at most 20 connections in each worker process."""
TABLES = 6
"""Games played at once under load, one client thread each."""
BURST = 40
"""Requests sent at once to make each worker's pool hold many connections before the restart."""
FIRST_REQUESTS = 60
"""Reads and decisions sent one after another once the database is back (90 requests): more than the pools of
both workers hold."""
AWAY = 2.0
"""Seconds the database stays stopped under load: requests meet it away, and wait for it or answer 503."""


@pytest.fixture
def pooled(postgres: PrivatePostgres, database: str, tmp_path: Path) -> Iterator[Palace]:
    """The web server as the Dockerfile and docker-compose.yml run it: gunicorn with two uvicorn workers, each
    with a pool (no Celery worker: the games are between human players)."""
    server = Palace(database_url=postgres.url(database), broker_url="memory://", home=tmp_path, env=POOL)
    server.start_web(workers=2)
    yield server
    server.close()
    print(f"the logs of this test's processes are in {tmp_path}")


def restart(postgres: PrivatePostgres, *, away: float = 0.0) -> float:
    """Stop PostgreSQL (fast: every session ends) and start it again ``away`` seconds later; returns
    ``time.monotonic()`` once it accepts connections."""
    try:
        postgres.stop()
        time.sleep(away)
    finally:
        postgres.start()
    return time.monotonic()


def burst(tables: list[Table]) -> None:
    """``BURST`` reads at once, spread over the tables, so each worker process opens many connections."""
    with ThreadPoolExecutor(BURST) as pool:
        answers = list(pool.map(lambda n: tables[n % len(tables)].view(0), range(BURST)))
    assert None not in answers


def first_requests(tables: list[Table], *, deadline: float) -> list[tuple[str, int]]:
    """``FIRST_REQUESTS`` requests one after another, of every kind a client sends: a game's view, its catch-up
    stream (read in the streams' own database threads), the caller's turns, and a decision."""
    done: list[tuple[str, int]] = []
    for number in range(FIRST_REQUESTS):
        table = tables[number % len(tables)]
        kind = ("view", "stream", "turns", "decision")[number % 4]
        if kind == "decision":
            before = len(table.sent)
            table.step(deadline=deadline)
            done += [(f"{sent.method} {sent.path}", sent.status) for sent in table.sent[before:]]
            continue
        path = {
            "view": f"/api/v1/games/{table.game}/",
            "stream": f"/api/v1/games/{table.game}/stream/?follow=false",
            "turns": "/api/v1/me/turns/",
        }[kind]
        answer = table.request("GET", path, headers=table.seats[0])
        done.append((f"GET {path}", NO_ANSWER if answer is None else answer.status_code))
    return done


def play(tables: list[Table], stop: threading.Event, *, deadline: float) -> tuple[list[threading.Thread], list[str]]:
    """One thread per table making decisions until ``stop`` is set (or ``deadline`` passes); returns the threads
    and the list where each puts the error that ended it."""
    errors: list[str] = []

    def loop(table: Table) -> None:
        try:
            while not stop.is_set() and time.monotonic() < deadline:
                if not table.step(deadline=deadline):
                    time.sleep(0.05)
        except Exception as error:  # the test fails on it below, with its message
            errors.append(f"game {table.game}: {error!r}")

    threads = [threading.Thread(target=loop, args=(table,), daemon=True) for table in tables]
    for thread in threads:
        thread.start()
    return threads, errors


def test_the_first_requests_after_a_database_restart_succeed_idle_and_under_load(
    pooled: Palace, postgres: PrivatePostgres, database: str
) -> None:
    """Given the web server holding many connections, when PostgreSQL restarts while it is idle, then every one
    of the first 90 requests after its return is answered 2xx; and when it stops for 2 s under the load of six
    games, then every request sent after its return is answered 2xx, and every decision answered 201 (some after
    retries with their key while the database was away) is logged once."""
    tables = [Table(pooled) for _ in range(TABLES)]
    deadline = time.monotonic() + 120
    try:
        burst(tables)
        held = postgres.connections_to(database)
        assert held >= 4, f"the premise: the server holds connections that the restart will break ({held})"
        back = restart(postgres)
        idle = first_requests(tables, deadline=deadline)
        failed = [(request, status) for request, status in idle if status >= 300 or status == NO_ANSWER]
        print(f"idle: {held} connections before the restart; {len(failed)} of the first {len(idle)} failed")
        assert not failed, f"after the restart while idle: {failed}"
        assert idle and time.monotonic() - back < 60

        stop = threading.Event()
        threads, errors = play(tables, stop, deadline=deadline)
        time.sleep(2)
        down = time.monotonic()
        back = restart(postgres, away=AWAY)
        time.sleep(3)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors
        sent = [request for table in tables for request in table.sent]
        after = [request for request in sent if request.at >= back]
        failed_after = [request for request in after if not 200 <= request.status < 300]
        during = [request for request in sent if down <= request.at < back]
        print(
            f"under load: {len(during)} requests sent while it restarted ({back - down:.1f} s), "
            f"{len([r for r in during if r.status == 503])} answered 503; {len(after)} sent after its return, "
            f"{len(failed_after)} failed; the slowest answered in {max(r.took for r in after):.2f} s"
        )
        assert after and not failed_after, f"after the restart under load: {failed_after[:10]}"
        decisions = sum(table.assert_nothing_lost_or_doubled() for table in tables)
        retried = [decision for table in tables for decision in table.decisions if decision.tries > 1]
        print(f"{decisions} decisions logged once each; {len(retried)} retried with their key")
    finally:
        for table in tables:
            table.close()


FAULTS = ("database stopped", "server killed")


def waiting_for_a_lock(postgres: PrivatePostgres, database: str) -> bool:
    sql = f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{database}' AND wait_event_type = 'Lock'"  # noqa: S608
    return postgres.query(sql)[0][0] > 0


@pytest.mark.parametrize("fault", FAULTS)
def test_a_decision_cut_off_by_a_fault_is_applied_once_when_retried_with_its_key(
    pooled: Palace, postgres: PrivatePostgres, database: str, fault: str
) -> None:
    """Given a decision sent with an Idempotency-Key that waits inside the server for the game's row (the test
    holds its lock), when the database stops (the answer is 503) or the server is killed (no answer), then its
    retry with the same key once everything is back is answered 201, not replayed (nothing was applied), and the
    decision is logged once: a request that died before its commit leaves nothing that blocks its retry. (Should
    its commit beat the shutdown, the answer is 201 and the retry is its replay.)"""
    import psycopg

    table = Table(pooled)
    deadline = time.monotonic() + 60
    try:
        seat = table.view(0)["to_act"][0]
        current = table.view(seat)
        body = {"type": "stay", "expected_version": current["version"]}
        key = uuid.uuid4().hex
        holder = psycopg.connect(postgres.url(database))
        holder.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [table.game])
        with ThreadPoolExecutor(1) as pool:
            path = f"/api/v1/games/{table.game}/actions/"
            headers = {**table.seats[seat], "Idempotency-Key": key}
            cut = pool.submit(table.request, "POST", path, headers=headers, json=body)
            wait_until("the decision waits for the game's row", lambda: waiting_for_a_lock(postgres, database))
            applied = False
            if fault == "database stopped":
                restart(postgres)
                answer = cut.result(timeout=30)
                assert answer is not None and answer.status_code in (201, 503), answer and answer.text
                # PostgreSQL's fast shutdown signals its sessions one after another: on a loaded machine the
                # holder's session can end, and the decision take the row and commit, before its own session is
                # signalled. Then it was applied before the stop, and its retry must say so.
                applied = answer.status_code == 201
            else:
                pooled.kill("web")
                assert cut.result(timeout=30) is None
                holder.commit()  # the killed request's session goes on, finds its client gone and rolls back
                pooled.start_web(workers=2)
        with contextlib.suppress(psycopg.Error):
            holder.close()
        retry = table.decide(seat, body, deadline=deadline, key=key)
        assert retry is not None
        print(f"{fault}: the retry was answered 201 on try {retry.tries}, replayed: {retry.replayed}")
        assert (retry.tries, retry.replayed) == (1, applied)
        assert retry.answer["events"][0]["seq"] == current["version"] + 1
        assert table.assert_nothing_lost_or_doubled() == 1
    finally:
        table.close()
