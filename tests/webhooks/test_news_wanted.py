"""Who wants a game's news (``Player.news_wanted``): set by a player's first webhook endpoint, cleared with his
last, read by the games app to publish ``webhooks.tasks.game_changed`` only where someone may listen."""

from __future__ import annotations

from unittest import mock

import pytest

from players.models import Player
from tests.games.api.table import create_table
from webhooks.services.dispatch import GAME_CHANGED

pytestmark = pytest.mark.django_db

WEBHOOKS = "/api/v1/me/webhooks/"
SEND = "outbox.broker.current_app.send_task"
OPTIONS = {"max_hands": 1, "first_dealer": 1}


def wanted(user) -> bool:
    return Player.objects.get(user=user).news_wanted


def register(client):
    response = client.post(WEBHOOKS, {"url": "http://93.184.216.34/hook", "events": ["turn.due"]}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def sent(send: mock.Mock) -> list[tuple[str, list]]:
    return sorted((call.args[0], call.kwargs["args"]) for call in send.call_args_list)


def test_the_first_endpoint_marks_the_player_and_announces_each_game_he_sits_at_that_is_not_over(
    make_player, auth_client, django_capture_on_commit_callbacks
):
    """Given alice seated at an active match and a waiting table, and bob and carol at a match without her, when
    alice registers her first endpoint, then she wants news and, once it commits, her two games are announced at
    their versions (a decision made while the endpoint's transaction ran published nothing); a second endpoint
    announces nothing more."""
    (alice, alice_token), (bob, bob_token), (_, carol_token) = make_player(), make_player(), make_player()
    alice_client, bob_client, carol_client = (auth_client(t) for t in (alice_token, bob_token, carol_token))
    active = create_table(alice_client, [alice_client, bob_client], options=OPTIONS)
    create_table(bob_client, [bob_client, carol_client], options=OPTIONS)
    waiting = alice_client.post("/api/v1/games/", {"kind": "palace", "seats": 2}, format="json").json()["id"]
    assert alice_client.post(f"/api/v1/games/{waiting}/seats/", {"seat": 0}, format="json").status_code == 201
    waiting_version = alice_client.get(f"/api/v1/games/{waiting}/").json()["version"]
    assert not wanted(alice)

    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        register(alice_client)
    assert wanted(alice) and not wanted(bob)
    assert sent(send) == sorted(
        [(GAME_CHANGED, [active.game_id, active.version]), (GAME_CHANGED, [waiting, waiting_version])]
    )

    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        register(alice_client)
    assert wanted(alice) and sent(send) == []


def test_removing_the_last_endpoint_clears_the_mark(make_player, auth_client):
    user, token = make_player()
    client = auth_client(token)
    first, second = register(client), register(client)
    assert client.delete(f"{WEBHOOKS}{first}/").status_code == 204
    assert wanted(user)
    assert client.delete(f"{WEBHOOKS}{second}/").status_code == 204
    assert not wanted(user)


def test_a_decision_where_a_seated_player_has_an_endpoint_is_announced_and_one_without_is_not(
    make_player, auth_client, django_capture_on_commit_callbacks
):
    """The games app's side, through the API: once bob registers an endpoint (alice has none), alice's
    decision is published for the webhooks app; after he removes it, the next decision is not."""
    clients = [auth_client(make_player()[1]) for _ in range(2)]
    table = create_table(clients[0], clients, options=OPTIONS)
    endpoint = register(clients[1])
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    assert sent(send) == [(GAME_CHANGED, [table.game_id, table.version])]
    assert clients[1].delete(f"{WEBHOOKS}{endpoint}/").status_code == 204
    seat = table.view(0)["to_act"][0]
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    assert sent(send) == []
