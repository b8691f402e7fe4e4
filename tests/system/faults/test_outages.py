"""Fault tests: a worker killed holding a bot's turn, Redis stopped and PostgreSQL stopped under play.

Each test runs Palace API (gunicorn, a real Celery worker with its beat) on a private PostgreSQL cluster and a
private Redis that it starts itself on free loopback ports (``tests/system/faults/servers.py``), stops and starts them
as the fault needs, and plays over HTTP. What is checked is what README, "Failure modes", promises:

- a due decision is recovered from the database, never only from the broker: a bot turn whose message was lost
  (the worker that held it was killed; Redis lost it) is made by the sweeper, once;
- publishing after a commit never fails the request: with Redis down an action still answers 201;
- a database outage answers 503 ``service_unavailable`` with ``Retry-After``, and nothing a client was told
  failed is applied.
"""

from __future__ import annotations

import json
import os
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.faults.servers import Palace, PrivatePostgres, PrivateRedis, children_of, wait_until

RECOVERY = 30.0
"""Seconds within which a lost bot turn is made once the broken part is back (issue: within 30 s)."""
HUMAN, BOT = 0, 1


@pytest.fixture
def redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    yield server
    server.stop()


@pytest.fixture
def palace(postgres: PrivatePostgres, database: str, redis: PrivateRedis, tmp_path: Path) -> Iterator[Palace]:
    # Persistent connections, as docker-compose.yml runs: each must notice the outage and the return.
    app = Palace(database_url=postgres.url(database) + "?conn_max_age=600", broker_url=redis.url, home=tmp_path)
    app.start_web()
    yield app
    app.close()
    print(f"the logs of this test's processes are in {tmp_path}")


def bot_game(app: Palace) -> tuple[int, dict[str, str]]:
    """A heads-up Palace Poker match: a human at seat 0, the basic bot at seat 1; returns its id and the
    human's headers once the decision is the human's (the bot may act first)."""
    human = app.player(f"human-{uuid.uuid4().hex[:8]}")
    created = app.http.post(
        "/api/v1/games/",
        headers=human,
        json={"kind": "palace-poker", "seats": 2, "options": {"max_hands": 3, "first_dealer": BOT}},
    )
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    assert app.http.post(f"/api/v1/games/{game}/seats/", headers=human, json={"seat": HUMAN}).status_code == 201
    assert app.http.post(f"/api/v1/games/{game}/seats/", headers=human, json={"bot": "basic"}).status_code == 201
    return game, human


def view(app: Palace, game: int, headers: dict[str, str]) -> dict:
    answer = app.http.get(f"/api/v1/games/{game}/", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def humans_turn(app: Palace, game: int, headers: dict[str, str]) -> dict | None:
    current = view(app, game, headers)
    return current if current["to_act"] == [HUMAN] or current["status"] != "active" else None


PASSES_THE_TURN = ("stay", "discard", "call", "fold", "buy")
"""The human's choice, first found first: a stay (or a discard step keeping every soldier) gives the bot its turn."""


def act(app: Palace, game: int, headers: dict[str, str], current: dict) -> tuple[int, dict]:
    """One decision of the human at the version he saw; returns the status and the body."""
    legal = {action["type"]: action for action in current["legal_actions"]}
    kind = next(kind for kind in PASSES_THE_TURN if kind in legal)
    body: dict = {"type": kind, "expected_version": current["version"]}
    if kind == "discard":
        body["cards"] = []
    answer = app.http.post(f"/api/v1/games/{game}/actions/", headers=headers, json=body)
    return answer.status_code, answer.json()


def act_until_the_bot_is_due(app: Palace, game: int, headers: dict[str, str], current: dict) -> dict:
    """The human decides until his decision leaves the bot to act; returns that action's answer (201)."""
    for _ in range(10):
        status, answer = act(app, game, headers, current)
        assert status == 201, answer
        if answer["to_act"] == [BOT]:
            return answer
        current = {**current, "version": answer["version"], "legal_actions": answer["legal_actions"]}
    raise AssertionError("the human kept the decision for ten actions")


def log_of(app: Palace, game: int, headers: dict[str, str]) -> list[dict]:
    answer = app.http.get(f"/api/v1/games/{game}/events/?limit=500", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["results"]


BOT_MOVE = "games.tasks.bot_move"


def held_tasks(broker) -> list[str]:
    """The names of the tasks Redis holds as delivered but unacknowledged (kombu's ``unacked`` hash)."""
    return [json.loads(raw)[0]["headers"]["task"] for raw in broker.hvals("unacked")]


def assert_bot_moved_once_after(app: Palace, game: int, headers: dict[str, str], version: int) -> None:
    """The log after ``version`` goes on without a gap, and its first decision is the bot's, logged once: the
    entries before the human's next decision are the bot's own or chance's, and nothing repeats a seq."""
    log = log_of(app, game, headers)
    seqs = [entry["seq"] for entry in log]
    assert seqs == list(range(1, len(log) + 1)), "the log has a gap or a repeated seq"
    after = [entry for entry in log if entry["seq"] > version]
    decisions = [entry for entry in after if entry["actor"] is not None]
    assert decisions and decisions[0]["actor"] == BOT, f"the bot did not move after version {version}: {after}"


def test_a_bot_turn_held_by_a_killed_worker_is_made_once_after_a_new_worker_starts(
    palace: Palace, redis: PrivateRedis
) -> None:
    """Given a worker that has taken the bot's turn from Redis (its pool process stopped, so the message waits
    unacknowledged), when it is killed with SIGKILL, then a new worker's sweeper makes the bot's move, once, within
    30 s, long before Redis's one-hour visibility timeout would hand the message out again."""
    first = palace.start_worker("first", beat=False)
    game, human = bot_game(palace)
    current = wait_until("the human's turn", lambda: humans_turn(palace, game, human))
    broker = redis.client()
    pool = children_of(first.pid)
    for _ in range(10):
        # Every message of the human's earlier decisions done; then the pool process stopped, so the main
        # process takes the next message from the queue and holds it unacknowledged.
        wait_until("the worker is idle", lambda: not broker.llen("palace") and not broker.hlen("unacked"))
        for child in pool:
            os.kill(child, signal.SIGSTOP)
        status, answer = act(palace, game, human, current)
        assert status == 201, answer
        if answer["to_act"] == [BOT]:
            break
        for child in pool:
            os.kill(child, signal.SIGCONT)
        current = {**current, "version": answer["version"], "legal_actions": answer["legal_actions"]}
    else:
        raise AssertionError("the human kept the decision for ten actions")
    version = answer["version"]
    wait_until("the worker takes the bot's turn from the queue", lambda: held_tasks(broker) == [BOT_MOVE])
    palace.kill("first")
    assert held_tasks(broker) == [BOT_MOVE], "the killed worker's message is no longer held"
    assert view(palace, game, human)["version"] == version, "the bot moved before the worker was killed"

    palace.start_worker("second", beat=True)
    started = time.monotonic()
    wait_until("the bot's move", lambda: view(palace, game, human)["version"] > version, timeout=RECOVERY)
    print(f"the bot moved {time.monotonic() - started:.1f} s after the new worker started")
    assert_bot_moved_once_after(palace, game, human, version)


def test_an_action_with_redis_down_answers_201_and_the_bot_moves_once_redis_returns(
    palace: Palace, redis: PrivateRedis
) -> None:
    """Given a bot game with Redis stopped, when the human acts, then the answer is 201 (the action is applied;
    the bot's turn could not be published) and, Redis back, the bot moves once within 30 s."""
    palace.start_worker("worker", beat=True)
    game, human = bot_game(palace)
    current = wait_until("the human's turn", lambda: humans_turn(palace, game, human))
    redis.stop()
    started = time.monotonic()
    version = act_until_the_bot_is_due(palace, game, human, current)["version"]
    took = time.monotonic() - started
    assert took < 10, f"the actions took {took:.1f} s with Redis down"
    assert view(palace, game, human)["version"] == version, "the action was not applied"
    time.sleep(1)
    redis.start()  # on the same port, empty: whatever it held is lost
    back = time.monotonic()
    wait_until("the bot's move", lambda: view(palace, game, human)["version"] > version, timeout=RECOVERY)
    print(f"the bot moved {time.monotonic() - back:.1f} s after Redis returned")
    assert_bot_moved_once_after(palace, game, human, version)


def test_postgres_down_answers_503_with_retry_after_and_applies_nothing_it_refused(
    palace: Palace, postgres: PrivatePostgres
) -> None:
    """Given a game in play, when PostgreSQL stops, then reads and actions answer 503 JSON with Retry-After and
    none of the refused actions is applied; when it returns, the same action answers 201 at once and is logged
    once."""
    palace.start_worker("worker", beat=True)
    game, human = bot_game(palace)
    current = wait_until("the human's turn", lambda: humans_turn(palace, game, human))
    postgres.stop()
    try:
        for request in (
            lambda: palace.http.get(f"/api/v1/games/{game}/", headers=human),
            lambda: palace.http.get("/api/v1/me/turns/", headers=human),
            lambda: palace.http.post(
                f"/api/v1/games/{game}/actions/",
                headers=human,
                json={"type": "stay", "expected_version": current["version"]},
            ),
        ):
            answer = request()
            assert answer.status_code == 503, answer.text
            assert answer.headers["content-type"] == "application/json"
            assert answer.json()["code"] == "service_unavailable"
            assert int(answer.headers["Retry-After"]) == answer.json()["retry_after"] > 0
    finally:
        postgres.start()
    # The first action once it is back succeeds: no connection the restart broke is used (README, "Failure modes").
    status, answer = act(palace, game, human, current)
    assert status == 201, answer
    # Had any refused attempt been applied, this one (at the same expected version) would be a version conflict.
    assert answer["version"] > current["version"]
    log = log_of(palace, game, human)
    mine = [entry for entry in log if entry["actor"] == HUMAN and entry["seq"] > current["version"]]
    assert [entry["seq"] for entry in mine][:1] == [current["version"] + 1]
