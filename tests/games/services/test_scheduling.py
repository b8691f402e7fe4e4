"""One message to the broker per committed change, whatever it owes (``games.services.scheduling``): a publish
costs a request about as much as a query, so the worker that takes the one message sends the rest."""

from __future__ import annotations

from unittest import mock

import pytest

from games.services.scheduling import APPLY_TIMEOUT, BOT_MOVE, CHANGED, GAME_CHANGED, changed_relay
from tests.games.api.table import create_table

SEND = "outbox.broker.current_app.send_task"
OPTIONS = {"max_hands": 1, "first_dealer": 1}


def sent(send: mock.Mock) -> list[tuple[str, list, float | None]]:
    return [(call.args[0], call.kwargs["args"], call.kwargs.get("countdown")) for call in send.call_args_list]


@pytest.mark.django_db
def test_a_human_decision_with_a_deadline_publishes_one_message(
    make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    """Given a heads-up match with a 60 s turn timeout, when a human decides and the other human is due, then
    one message is published after the commit (``CHANGED``, carrying the countdown), not two."""
    clients = [auth_client(make_player()[1]) for _ in range(2)]
    table = create_table(clients[0], clients, options={**OPTIONS, "turn_timeout": 60})
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    assert sent(send) == [(CHANGED, [table.game_id, table.version, 61], None)]


@pytest.mark.django_db
def test_a_human_decision_without_a_deadline_publishes_game_changed_alone(
    make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    clients = [auth_client(make_player()[1]) for _ in range(2)]
    table = create_table(clients[0], clients, options=OPTIONS)
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    assert sent(send) == [(GAME_CHANGED, [table.game_id, table.version], None)]


@pytest.mark.django_db
def test_a_change_that_hands_the_turn_to_a_bot_publishes_the_bot_move_alone(
    make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    """Given a human against a bot (seat 0, the first to decide with ``first_dealer`` 1), when the seat taken last
    starts the match and the bot is due, then one message: ``BOT_MOVE`` with ``announce`` set (its task sends
    ``GAME_CHANGED`` before it moves)."""
    client = auth_client(make_player()[1])
    game = client.post("/api/v1/games/", {"kind": "palace-poker", "seats": 2, "options": OPTIONS}, format="json")
    game_id = game.json()["id"]
    assert client.post(f"/api/v1/games/{game_id}/seats/", {"seat": 1}, format="json").status_code == 201
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        taken = client.post(f"/api/v1/games/{game_id}/seats/", {"seat": 0, "bot": "random"}, format="json")
        assert taken.status_code == 201, taken.content
    version = client.get(f"/api/v1/games/{game_id}/").json()["version"]
    assert sent(send) == [(BOT_MOVE, [game_id, version, True], None)]


def test_the_worker_relays_game_changed_and_the_countdown() -> None:
    """What ``CHANGED`` folded in is sent by the worker that takes it: ``GAME_CHANGED`` now, the timeout later."""
    with mock.patch(SEND) as send:
        changed_relay(game_id=7, version=12, countdown=61)
    assert sent(send) == [(GAME_CHANGED, [7, 12], None), (APPLY_TIMEOUT, [7, 12], 61)]
