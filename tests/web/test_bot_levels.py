"""Bot levels for people (issue 23): the table page offers each bot of the game with a sentence about it, seats
the one chosen, and the API's schema describes the same levels (``games.bot_levels``)."""

from __future__ import annotations

import re

import pytest

from games.bot_levels import BOT_LEVELS, SEARCH_MS
from games.selectors.read_models import game_get
from tests.web.conftest import csrf


def _post(client, url, data=None):
    return client.post(url, {**(data or {}), "csrfmiddlewaretoken": csrf(client)})


@pytest.mark.parametrize("kind", ["palace", "palace-poker"])
def test_the_table_page_offers_each_level_with_its_sentence_and_seats_a_search_bot(web_client, kind):
    alice = web_client("alice")
    created = _post(alice, f"/new/{kind}/", {"seats": 2, "sit": "on"})
    game_id = int(created["Location"].strip("/").split("/")[-1])
    page = alice.get(f"/games/{game_id}/").content.decode()
    offered = re.findall(r'<option value="(\w+)"', page)
    assert offered == ["random", "basic", "search"], "weakest first"
    assert re.search(r'<option value="basic" selected>', page), "basic is the default"
    for text in BOT_LEVELS.values():
        assert text in page
    assert f"about {SEARCH_MS} ms" in page
    _post(alice, f"/games/{game_id}/bot/", {"bot": "search"})
    assert [seat.bot for seat in game_get(game_id).seats.order_by("number")] == ["", "search"]


def test_the_schema_describes_the_bot_levels_and_their_time_per_move(openapi):
    bot = openapi["components"]["schemas"]["SeatInput"]["properties"]["bot"]
    assert set(bot["enum"]) >= {"random", "basic", "search"}
    for name, text in BOT_LEVELS.items():
        assert f"`{name}`: {text}" in bot["description"]
    assert f"{SEARCH_MS} ms" in bot["description"]
