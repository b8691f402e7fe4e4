"""One message to the broker per committed change, whatever it owes (``games.services.scheduling``): a publish
costs a request about as much as a query, so the worker that takes the one message sends the rest."""

from __future__ import annotations

from unittest import mock

import pytest

from games.services.scheduling import APPLY_TIMEOUT, BOT_MOVE, CHANGED, GAME_CHANGED, changed_relay
from players.services import news_wanted_set
from tests.games.api.table import create_table

SEND = "outbox.broker.current_app.send_task"
OPTIONS = {"max_hands": 1, "first_dealer": 1}


def sent(send: mock.Mock) -> list[tuple[str, list, float | None]]:
    return [(call.args[0], call.kwargs["args"], call.kwargs.get("countdown")) for call in send.call_args_list]


@pytest.mark.django_db
@pytest.mark.parametrize("news", [True, False])
def test_a_human_decision_with_a_deadline_publishes_one_message(
    news, make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    """Given a heads-up match with a 60 s turn timeout, when a human decides and the other human is due, then
    one message is published after the commit, not two: ``CHANGED`` carrying the countdown when a seated player
    wants the game's news (``Player.news_wanted``), else the ``APPLY_TIMEOUT`` countdown itself."""
    players = [make_player() for _ in range(2)]
    clients = [auth_client(token) for _, token in players]
    table = create_table(clients[0], clients, options={**OPTIONS, "turn_timeout": 60})
    news_wanted_set(user=players[0][0], wanted=news)
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    expected = (
        (CHANGED, [table.game_id, table.version, 61], None)
        if news
        else (APPLY_TIMEOUT, [table.game_id, table.version], 61)
    )
    assert sent(send) == [expected]


@pytest.mark.django_db
@pytest.mark.parametrize("listener", [0, 1])
def test_a_human_decision_without_a_deadline_publishes_game_changed_alone(
    listener, make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    """Given a seated player who wants the game's news (he has a webhook endpoint: ``Player.news_wanted``), the
    one who decides or the other, when a human decides with no deadline, then ``GAME_CHANGED`` alone."""
    players = [make_player() for _ in range(2)]
    clients = [auth_client(token) for _, token in players]
    table = create_table(clients[0], clients, options=OPTIONS)
    news_wanted_set(user=players[listener][0], wanted=True)
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    assert sent(send) == [(GAME_CHANGED, [table.game_id, table.version], None)]


@pytest.mark.django_db
def test_a_human_decision_nobody_listens_to_publishes_nothing(
    make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    """Given two seated players without webhook endpoints, when a human decides with no deadline and no bot is
    due, then nothing is published: the webhooks app would find no listener, and the request pays no publish."""
    clients = [auth_client(make_player()[1]) for _ in range(2)]
    table = create_table(clients[0], clients, options=OPTIONS)
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    assert sent(send) == []


@pytest.mark.django_db
@pytest.mark.parametrize("news", [True, False])
def test_a_change_that_hands_the_turn_to_a_bot_publishes_the_bot_move_alone(
    news, make_player, auth_client, django_capture_on_commit_callbacks
) -> None:
    """Given a human against a bot (seat 0, the first to decide with ``first_dealer`` 1), when the seat taken last
    starts the match and the bot is due, then one message: ``BOT_MOVE``, with ``announce`` set when the human
    wants the game's news (its task then sends ``GAME_CHANGED`` before it moves)."""
    user, token = make_player()
    news_wanted_set(user=user, wanted=news)
    client = auth_client(token)
    game = client.post("/api/v1/games/", {"kind": "palace-poker", "seats": 2, "options": OPTIONS}, format="json")
    game_id = game.json()["id"]
    assert client.post(f"/api/v1/games/{game_id}/seats/", {"seat": 1}, format="json").status_code == 201
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        taken = client.post(f"/api/v1/games/{game_id}/seats/", {"seat": 0, "bot": "random"}, format="json")
        assert taken.status_code == 201, taken.content
    version = client.get(f"/api/v1/games/{game_id}/").json()["version"]
    assert sent(send) == [(BOT_MOVE, [game_id, version, news], None)]


def test_the_worker_relays_game_changed_and_the_countdown() -> None:
    """What ``CHANGED`` folded in is sent by the worker that takes it: ``GAME_CHANGED`` now, the timeout later."""
    with mock.patch(SEND) as send:
        changed_relay(game_id=7, version=12, countdown=61)
    assert sent(send) == [(GAME_CHANGED, [7, 12], None), (APPLY_TIMEOUT, [7, 12], 61)]
