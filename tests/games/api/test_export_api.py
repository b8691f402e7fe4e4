"""The export operations over HTTP (README, "Provably fair shuffles and exports"): ``GET games/{id}/export/`` and
``GET me/games/export/`` (NDJSON), their filters, errors and throttle scope."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync

from games.engine.verify import verify
from games.selectors.export import EXPORT_MAX_GAMES
from players.services import token_create
from tests.games.api.helpers import assert_error
from tests.games.selectors.test_export import play


def body(answer) -> bytes:
    """A streamed answer's body: its async iterator read as an ASGI server would, the reads in this thread."""

    async def read() -> bytes:
        return b"".join([chunk async for chunk in answer.streaming_content])

    return async_to_sync(read)()


@pytest.mark.django_db
def test_a_games_export_is_json_that_verifies(db, auth_client, make_player):
    game, user = play("palace-poker", {"max_hands": 1}, 2, "apiexp2")
    _, token = make_player()
    client = auth_client(token)
    answer = client.get(f"/api/v1/games/{game.pk}/export/")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    export = answer.json()
    assert export["format"] == "palace-export/1" and export["viewer"] == "spectator" and export["complete"]
    assert verify(export).complete
    assert_error(client.get("/api/v1/games/999999/export/"), 404, "game_not_found")
    assert_error(client.get(f"/api/v1/games/{game.pk}/export/?colour=red"), 400, "invalid")


@pytest.mark.django_db
def test_my_games_stream_as_ndjson_with_filters_and_bounds(db, auth_client):
    game, user = play("palace", {"max_turns": 60}, 2, "apiexp3")
    client = auth_client(token_create(user=user)[1])
    answer = client.get("/api/v1/me/games/export/", HTTP_ACCEPT="application/x-ndjson")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/x-ndjson"
    lines = body(answer).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [game.pk]
    answer = client.get("/api/v1/me/games/export/?kind=palace-poker")
    assert body(answer) == b""
    for bad in ("max=0", f"max={EXPORT_MAX_GAMES + 1}", "since=yesterday", "kind=chess", "colour=red"):
        answer = client.get(f"/api/v1/me/games/export/?{bad}")
        assert answer.status_code == 400, bad
        assert json.loads(answer.content)["code"] == "invalid", (bad, answer.content)


@pytest.mark.django_db
def test_exports_have_their_own_throttle_scope(db, auth_client, make_player, throttle_rates):
    throttle_rates(export="2/min")
    _, token = make_player()
    client = auth_client(token)
    assert client.get("/api/v1/me/games/export/").status_code == 200
    assert client.get("/api/v1/me/games/export/").status_code == 200
    answer = client.get("/api/v1/me/games/export/")
    assert answer.status_code == 429 and json.loads(answer.content)["code"] == "throttled"
