"""Each version of a game rendered once per viewer (``games/api/rendered.py``): a second GET of the same version
by the same viewer reuses the body; another viewer, or a new version, gets its own, so no viewer ever gets a body
made for another (the redaction tests check what each body holds)."""

from __future__ import annotations

from unittest import mock

import pytest

from games.api import rendered
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
