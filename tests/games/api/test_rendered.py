"""Each version of a game rendered once per viewer (``games/api/rendered.py``): a second GET of the same version
by the same viewer reuses the body; another viewer, or a new version, gets its own, so no viewer ever gets a body
made for another (the redaction tests check what each body holds)."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from rest_framework.renderers import JSONRenderer

from games.api import rendered
from games.api.serializers import GameDetailOutput, render
from games.selectors import read_models as selectors
from tests.games.api.table import create_table


@pytest.mark.django_db
def test_a_version_is_rendered_once_per_viewer(make_player, auth_client) -> None:
    clients = [auth_client(make_player()[1]) for _ in range(2)]
    spectator = auth_client(make_player()[1])
    table = create_table(clients[0], clients, options={"max_hands": 1, "first_dealer": 1})
    with mock.patch.object(rendered.selectors, "game_detail", wraps=rendered.selectors.game_detail) as made:
        bodies = [client.get(table.url()).json() for client in (clients[0], clients[0], clients[1], spectator)]
        assert made.call_count == 2, "seat 0's body was made by create_table's GET; seat 1's, a spectator's"
        assert bodies[0] == bodies[1]
        assert [body["viewer"] for body in bodies] == [0, 0, 1, "spectator"]
        assert bodies[0]["state"] != bodies[2]["state"], "each seat sees its own cards"
        seat = bodies[0]["to_act"][0]
        table.act(seat, "stay")
        after = clients[0].get(table.url()).json()
    assert made.call_count == 3, "a new version is rendered again"
    assert after["version"] == table.version > bodies[0]["version"]


@pytest.mark.django_db
def test_the_kept_body_is_the_json_drf_renders_of_the_view_and_other_renderings_still_work(
    make_player, auth_client
) -> None:
    users = [make_player() for _ in range(2)]
    clients = [auth_client(token) for _, token in users]
    table = create_table(clients[0], clients, options={"max_hands": 1, "first_dealer": 1})
    game = selectors.game_get(table.game_id)
    # What the view answered before its body was kept encoded: DRF's JSON renderer over the rendered view.
    expected = JSONRenderer().render(render(GameDetailOutput, selectors.game_detail(game, users[1][0])))
    for _ in range(2):  # made, then taken from the memory
        answer = clients[1].get(table.url())
        assert answer.status_code == 200
        assert answer["Content-Type"] == "application/json"
        assert answer.content == expected
        assert answer.data == json.loads(expected)
    assert expected in rendered._bodies.values(), "kept as bytes, not as Python data"

    indented = clients[1].get(table.url(), HTTP_ACCEPT="application/json; indent=2")
    assert indented.status_code == 200
    assert indented.content.startswith(b'{\n  "id"')
    assert json.loads(indented.content) == json.loads(expected)

    page = clients[1].get(table.url(), HTTP_ACCEPT="text/html")
    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    assert f"&quot;version&quot;: {table.version}" in page.content.decode()

    refused = clients[1].get(table.url(), HTTP_ACCEPT="application/xml")
    assert refused.status_code == 406
    assert refused.json()["code"] == "not_acceptable"
