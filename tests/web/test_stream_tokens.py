"""Stream tokens die with what asked for them (issue 27, item 5): the logged-in session of the pages or of the
API, or the API token. Each stream is asked for by a client with no credential of its own but the ``?token=``,
as whoever got hold of the stream's URL would ask."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.services import game_create, seat_take
from players.models import StreamGrant
from tests.web.conftest import csrf

# The stream views read the database in threads of their own, which see only what is committed.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(make_player) -> int:
    bob, _ = make_player("bob")
    game = game_create(creator=bob, kind="palace-poker", seats=2, options={})
    seat_take(game_id=game.pk, player=bob)
    return game.pk


def _opens(url: str, client: Client | None = None) -> Any:
    """GET a stream URL with nothing but its query (by a new client unless ``client``) and a bad ``follow``: the
    view refuses that (400 naming it) only once the token let the request in, so nothing is ever streamed here.
    Django's test client runs an async view on an event loop of its own, which a stream's hub would outlive."""
    client = client or Client(raise_request_exception=False)
    return client.get(f"{url}{'&' if '?' in url else '?'}{urlencode({'follow': 'maybe'})}")


def _let_in(response: Any) -> bool:
    return response.status_code == 400 and set(response.json()["errors"]) == {"follow"}


def _refused(response: Any, words: str) -> bool:
    body = response.json() if response.status_code == 401 else {}
    return body.get("code") == "authentication_failed" and words in body.get("detail", "")


def _page_stream(client: Client, game: int) -> str:
    """The stream URL (with its token) the table page's script asks for."""
    answer = client.get(f"/games/{game}/stream/")
    assert answer.status_code == 200, answer.content
    return answer.json()["url"]


def test_logging_out_of_the_pages_ends_that_sessions_stream_tokens_only(web_client, game) -> None:
    """alice has two browsers; she logs out of one: its stream token no longer opens a stream, the other's does."""
    alice = web_client("alice")
    elsewhere = Client()
    elsewhere.force_login(get_user_model().objects.get(username="alice"))
    url, other = _page_stream(alice, game), _page_stream(elsewhere, game)
    assert _let_in(_opens(url))
    assert alice.post("/logout/", {"csrfmiddlewaretoken": csrf(alice)}).status_code == 302
    assert _refused(_opens(url), "logged out")
    # With the logged-out session's cookie as well: nothing brings it back.
    assert _refused(_opens(url, alice), "logged out")
    assert _let_in(_opens(other))


def test_a_stream_token_asked_for_through_the_api_with_a_session_dies_with_that_session(game, isolated_cache) -> None:
    """The browsable API and the admin log in with a session: a stream token they ask for is that session's."""
    staff = get_user_model().objects.create_user(username="boss", password="pw-boss-1", is_staff=True)  # noqa: S106
    client = APIClient()
    client.force_login(staff)
    asked = client.post("/api/v1/me/stream-token/")
    assert asked.status_code == 201, asked.content
    url = f"/api/v1/games/{game}/stream/?{urlencode({'token': asked.json()['token']})}"
    assert _let_in(_opens(url))
    assert client.post("/admin/logout/").status_code == 302
    assert _refused(_opens(url), "logged out")


def test_a_stream_token_dies_with_the_api_token_that_asked_for_it(make_player, auth_client, game) -> None:
    _, token = make_player("carol")
    carol = auth_client(token)
    stream_token = carol.post("/api/v1/me/stream-token/").json()["token"]
    url = f"/api/v1/games/{game}/stream/?{urlencode({'token': stream_token})}"
    assert _let_in(_opens(url))
    assert carol.post("/api/v1/auth/logout/").status_code == 204
    assert _refused(_opens(url), "revoked")


def test_a_session_a_password_change_ended_opens_no_stream(web_client, game) -> None:
    """Django ends a user's other sessions when the password changes: their stream tokens end with them."""
    alice = web_client("alice")
    url = _page_stream(alice, game)
    user = get_user_model().objects.get(username="alice")
    user.set_password("another long password 43")
    user.save()
    assert _refused(_opens(url), "logged out")


def test_the_record_of_a_sessions_stream_token_goes_once_the_token_is_dead(web_client, game) -> None:
    alice = web_client("alice")
    _page_stream(alice, game)
    StreamGrant.objects.update(created=timezone.now() - timedelta(seconds=61))
    _page_stream(alice, game)
    assert StreamGrant.objects.count() == 1
