"""The table's live hook and its turn signals as the server renders them, and refusals in a player's words
(web/errors.py): a click that lost a race gets the new table and a sentence, never a version number."""

from __future__ import annotations

import re

import pytest
from django.core.handlers.asgi import ASGIRequest
from django.test import RequestFactory

from games.engine.errors import EngineCode, EngineError
from games.selectors.read_models import game_get
from palace_api.errors import ConflictError, ErrorCode
from tests.web.conftest import csrf
from web.errors import RACE_WORDS, error_words
from web.views.table import _table


def _post(client, url, data=None, **headers):
    return client.post(url, {**(data or {}), "csrfmiddlewaretoken": csrf(client)}, **headers)


@pytest.fixture
def poker_pair(web_client):
    """alice and bob at a started Palace Poker table: (alice, bob, game id, the client whose decision is due)."""
    alice, bob = web_client("alice"), web_client("bob")
    url = _post(alice, "/new/palace-poker/", {"seats": 2, "sit": "on"})["Location"]
    _post(bob, f"{url}join/")
    game_id = int(url.strip("/").split("/")[-1])
    acting = alice if game_get(game_id).seats.get(number=0).to_act else bob
    return alice, bob, game_id, acting


def test_a_click_on_a_table_that_moved_shows_the_new_table_and_a_sentence(poker_pair):
    """Given the page showed version v - 1 while the game is at v, when the player clicks, then the answer is the
    table at v with RACE_WORDS, for htmx (200) as for a plain form (400), and no version number in words."""
    _, _, game_id, acting = poker_pair
    version = game_get(game_id).version
    for headers, status in (({"HTTP_HX_REQUEST": "true"}, 200), ({}, 400)):
        page = _post(acting, f"/games/{game_id}/act/", {"act": "stay", "version": version - 1}, **headers)
        html = page.content.decode()
        assert page.status_code == status
        assert RACE_WORDS in html and f'data-version="{version}"' in html
        sentence = re.search(r'id="error">([^<]*)<', html)[1]
        assert not re.search(r"\d", sentence) and "version" not in sentence


def test_error_words_map_codes_to_sentences_and_keep_the_others_own():
    assert error_words(ConflictError(ErrorCode.VERSION_CONFLICT, "the game is at version 22, not 21")) == RACE_WORDS
    assert "Idempotency" not in error_words(ConflictError(ErrorCode.IDEMPOTENCY_KEY_REUSED, "this Idempotency-Key"))
    assert error_words(ConflictError(ErrorCode.GAME_FINISHED, "the game is over")) == "the game is over"
    assert error_words(EngineError(EngineCode.DOES_NOT_BEAT, "a 5 does not beat a 9")) == "a 5 does not beat a 9"


def test_the_table_says_whose_turn_it_is_and_the_deadline(poker_pair):
    """data-turn="mine" on the table of the player whose decision is due (the tab's title and icon follow it), not
    on the other's; the deadline is a <time class="countdown"> the script words; the turn-signal buttons are there."""
    alice, bob, game_id, acting = poker_pair
    waiting = bob if acting is alice else alice
    mine = acting.get(f"/games/{game_id}/").content.decode()
    theirs = waiting.get(f"/games/{game_id}/").content.decode()
    assert 'data-turn="mine"' in mine and 'data-turn="mine"' not in theirs
    for html in (mine, theirs):
        assert 'id="turn-sound"' in html and 'id="turn-notify"' in html
        assert 'id="favicon"' in html and "favicon-turn.svg" in html


def test_the_page_polls_under_a_wsgi_server_and_follows_the_stream_under_asgi(poker_pair, settings):
    """A WSGI server buffers a stream whole (runserver hung on it): the table it renders names no stream, and the
    page polls every WEB_POLL_SECONDS; an ASGI request's table names it."""
    alice, _, game_id, _ = poker_pair
    settings.WEB_LIVE_STREAM = True
    html = alice.get(f"/games/{game_id}/").content.decode()
    assert "data-stream=" not in html and 'data-poll-ms="2000"' in html
    request = RequestFactory().get(f"/games/{game_id}/")
    request.user = game_get(game_id).creator
    assert _table(request, game_get(game_id))["live_stream"] is False
    scope = {"type": "http", "method": "GET", "path": f"/games/{game_id}/", "query_string": b"", "headers": []}
    asgi = ASGIRequest(scope, None)
    asgi.user = request.user
    assert _table(asgi, game_get(game_id))["live_stream"] is True


def test_favicon_ico_is_served(client):
    """/favicon.ico (browsers ask for it on pages naming no icon: the API's, the admin's) leads to the icon."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    icon = client.get(answer["Location"])
    assert icon.status_code == 200 and b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"
