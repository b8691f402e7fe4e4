"""Idempotency-Key against PostgreSQL: duplicates sent at once, and a claim that lives only in its action's
transaction (README, "Playing over HTTP", Idempotency-Key; "Failure modes")."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.models import Event, Game, IdempotencyKey
from games.services import actions
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db(transaction=True)

DUPLICATES = 8


@pytest.fixture
def table(make_player, auth_client):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; .ci/run runs this test against PostgreSQL")
    tokens = [make_player(name)[1] for name in ("alice", "bob")]
    created = create_table(auth_client(tokens[0]), [auth_client(t) for t in tokens], options={"first_dealer": 1})
    created.tokens = tokens
    return created


def send_at_once(table, auth_client, bodies: list[dict]) -> list[tuple[dict, int, dict, bool]]:
    """Each body POSTed by alice under the key ``same`` from a thread of its own, all released together;
    returns (body, status, answer, replayed) in the order of ``bodies``."""
    barrier = threading.Barrier(len(bodies))

    def submit(body: dict) -> tuple[dict, int, dict, bool]:
        client = auth_client(table.tokens[0])
        try:
            barrier.wait(timeout=30)
            answer = client.post(table.url("actions/"), body, format="json", HTTP_IDEMPOTENCY_KEY="same")
            return body, answer.status_code, answer.json(), answer.headers.get("Idempotent-Replayed") == "true"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        return list(pool.map(submit, bodies))


def test_duplicates_sent_at_once_apply_once_and_the_others_replay_its_answer(table, auth_client):
    """Given eight requests with the same key and body released together, then one is applied (201) and each
    other one waits for it and gets its answer again (201, ``Idempotent-Replayed``), never 409: one log entry."""
    version = table.version
    body = {"type": "buy", "expected_version": version}
    answers = send_at_once(table, auth_client, [body] * DUPLICATES)
    assert [status for _, status, _, _ in answers] == [201] * DUPLICATES, answers
    assert sorted(replayed for _, _, _, replayed in answers) == [False] + [True] * (DUPLICATES - 1)
    first = answers[0][2]
    assert all(answer == first for _, _, answer, _ in answers), "every duplicate got the same answer"
    kinds = list(Event.objects.filter(game_id=table.game_id, seq__gt=version).values_list("kind", flat=True))
    assert kinds[:1] == ["buy"] and kinds.count("buy") == 1


def test_the_same_key_with_two_bodies_at_once_applies_one_and_refuses_the_other_422(table, auth_client):
    """Given requests under one key, half with one body and half with another, released together, then one
    body is applied once, its duplicates replay it, and every request with the other body is 422."""
    version = table.version
    bodies = [{"type": "buy", "expected_version": version}, {"type": "stay", "expected_version": version}]
    answers = send_at_once(table, auth_client, bodies * (DUPLICATES // 2))
    applied = [body for body, status, _, replayed in answers if status == 201 and not replayed]
    assert len(applied) == 1, answers
    for body, status, answer, _ in answers:
        if body == applied[0]:
            assert status == 201, answer
        else:
            assert (status, answer["code"]) == (422, "idempotency_key_reused")
    assert Game.objects.get(pk=table.game_id).version > version
    logged = Event.objects.filter(game_id=table.game_id, seq=version + 1).values_list("kind", flat=True).get()
    assert logged == applied[0]["type"]


def test_the_key_is_stored_only_with_its_action(table, auth_client, monkeypatch):
    """Given a request whose action fails after its key was taken (a lost connection, here an error), then no
    other session ever saw the key and none is left: the claim was never committed apart from the action."""
    seen_outside: list[int] = []
    real = actions.action_submit

    def look_from_outside() -> None:
        try:
            seen_outside.append(IdempotencyKey.objects.filter(key="cut").count())
        finally:
            connection.close()

    def failing(**kwargs):
        outside = threading.Thread(target=look_from_outside)
        outside.start()
        outside.join(timeout=30)
        real(**kwargs)
        raise ConnectionAbortedError("the request died before its commit")

    monkeypatch.setattr(actions, "action_submit", failing)
    client = auth_client(table.tokens[0])
    body = {"type": "buy", "expected_version": table.version}
    client.raise_request_exception = False
    assert client.post(table.url("actions/"), body, format="json", HTTP_IDEMPOTENCY_KEY="cut").status_code == 500
    assert seen_outside == [0], "the key was visible outside its request's transaction"
    assert not IdempotencyKey.objects.filter(key="cut").exists()
    assert Game.objects.get(pk=table.game_id).version == table.version, "the action was applied"
    monkeypatch.setattr(actions, "action_submit", real)
    retry = client.post(table.url("actions/"), body, format="json", HTTP_IDEMPOTENCY_KEY="cut")
    assert retry.status_code == 201 and "Idempotent-Replayed" not in retry.headers
