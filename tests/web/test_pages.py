"""The pages through Django's test client, CSRF checks on: sign-up, tokens, a new table from the generated
options form, errors in words, spectating with the public view only."""

from __future__ import annotations

import re

from games.selectors.read_models import game_get
from games.services import game_create, seat_take
from tests.web.conftest import csrf


def _post(client, url, data=None):
    return client.post(url, {**(data or {}), "csrfmiddlewaretoken": csrf(client)})


def test_a_post_without_the_csrf_token_is_refused(web_client):
    alice = web_client("alice")
    assert alice.post("/new/palace-poker/", {"seats": 2}).status_code == 403


def test_signup_refuses_a_weak_password_in_words(db, isolated_cache):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.get("/signup/")
    response = _post(client, "/signup/", {"name": "dave", "password": "123", "password_again": "123"})
    assert response.status_code == 400
    assert b"too short" in response.content


def test_tokens_are_made_shown_once_and_revoked(web_client, api_client):
    alice = web_client("alice")
    page = _post(alice, "/tokens/", {"create": ""}).content.decode()
    token = re.search(r'id="new-token">([^<]+)<', page).group(1)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/me/").json()["name"] == "alice"
    listing = alice.get("/tokens/").content.decode()
    assert token not in listing and token[:8] in listing
    _post(alice, "/tokens/", {"revoke": token[:15]})
    assert api_client.get("/api/v1/me/").status_code == 401


def test_the_options_form_makes_the_table_the_engine_validates(web_client):
    """Every option is a field; the chosen ones reach the engine; an unticked flag that is on by default is off."""
    alice = web_client("alice")
    form = alice.get("/new/palace/").content.decode()
    for name in ("decks", "first_player", "setup_deal", "must_play_if_able", "finish", "max_turns"):
        assert f'name="option_{name}"' in form
    response = _post(
        alice, "/new/palace/", {"seats": 3, "sit": "on", "option_finish": "first_out_wins", "option_max_turns": 50}
    )
    assert response.status_code == 302
    game = game_get(int(response["Location"].strip("/").split("/")[-1]))
    assert game.options["finish"] == "first_out_wins" and game.options["max_turns"] == 50
    assert game.options["must_play_if_able"] is False and game.options["redraw"] is False
    assert game.seat_count == 3 and game.seats.all()[0].player.username == "alice"


def test_an_option_the_engine_refuses_is_shown_in_words(web_client):
    alice = web_client("alice")
    response = _post(alice, "/new/palace-poker/", {"seats": 2, "option_small_bet": 10, "option_big_bet": 5})
    assert response.status_code == 400
    assert b"the big bet cannot be smaller than the small bet" in response.content


def test_an_option_left_at_the_default_shown_follows_the_seats(web_client):
    """The form shows a two-seat table's defaults (one deck); left at it, a six-seat table gets the engine's
    default for six (two decks) instead of a refusal."""
    alice = web_client("alice")
    response = _post(alice, "/new/palace/", {"seats": 6, "option_decks": 1})
    assert response.status_code == 302
    assert game_get(int(response["Location"].strip("/").split("/")[-1])).options["decks"] == 2


def test_an_illegal_action_is_answered_in_words(web_client):
    alice, bob = web_client("alice"), web_client("bob")
    response = _post(alice, "/new/palace-poker/", {"seats": 2, "sit": "on", "option_max_hands": 1})
    url = response["Location"]
    game_id = int(url.strip("/").split("/")[-1])
    _post(bob, f"{url}join/")
    game = game_get(game_id)
    acting = alice if game.seats.all()[0].to_act else bob
    waiting = bob if acting is alice else alice
    page = _post(waiting, f"{url}act/", {"act": "stay", "version": game.version})
    assert page.status_code == 400 and "the decision is not yours now" in page.content.decode()
    page = _post(acting, f"{url}act/", {"act": "discard", "cards": ["As"], "version": game.version})
    assert page.status_code == 400 and 'role="alert"' in page.content.decode()


def test_a_spectator_sees_the_public_view_only(web_client, make_staff):
    """Palace cards are private to their owner: a spectator's page draws them as backs, staff's too."""
    alice, bob, carol = web_client("alice"), web_client("bob"), web_client("carol")
    response = _post(alice, "/new/palace-poker/", {"seats": 2, "sit": "on"})
    url = response["Location"]
    _post(bob, f"{url}join/")
    page = carol.get(url).content.decode()
    assert "spectating" in page and 'name="act"' not in page
    assert page.count("data-card-back") >= 6  # two palaces of three, face down
    own = alice.get(url).content.decode()
    palace = re.search(r'data-seat="0">.*?Palace</span>(.*?)</div>', own, re.S)
    assert palace and palace.group(1).count("data-card=") == 3


def test_live_fragment_answers_204_until_the_game_moves(web_client, make_player):
    alice = web_client("alice")
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="alice")
    game = game_create(creator=user, kind="palace-poker", seats=2, options={})
    seat_take(game_id=game.pk, player=user)
    version = game_get(game.pk).version
    assert alice.get(f"/games/{game.pk}/live/?v={version}").status_code == 204
    bob, _ = make_player("bob")
    seat_take(game_id=game.pk, player=bob)
    moved = alice.get(f"/games/{game.pk}/live/?v={version}")
    assert moved.status_code == 200 and b'data-status="active"' in moved.content


def test_a_seated_person_leaves_a_waiting_table_and_its_creator_cancels_it(web_client):
    """Issue 12: leave and cancel from the table page, through the lifecycle services."""
    alice, bob = web_client("alice"), web_client("bob")
    created = _post(alice, "/new/palace-poker/", {"seats": 3, "sit": "on"})
    game_id = int(created["Location"].strip("/").split("/")[-1])
    _post(bob, f"/games/{game_id}/join/")
    assert 'id="leave"' in bob.get(f"/games/{game_id}/").content.decode()
    assert 'id="cancel"' not in bob.get(f"/games/{game_id}/").content.decode()
    _post(bob, f"/games/{game_id}/leave/")
    assert [seat.player.username for seat in game_get(game_id).seats.all()] == ["alice"]
    refused = _post(bob, f"/games/{game_id}/cancel/")
    assert refused.status_code == 302 and game_get(game_id).status == "waiting"
    assert "creator" in bob.get(f"/games/{game_id}/").content.decode()  # the refusal, in words
    _post(alice, f"/games/{game_id}/cancel/")
    assert game_get(game_id).status == "cancelled"
    assert "This table was cancelled." in alice.get(f"/games/{game_id}/").content.decode()


def test_a_person_resigns_from_the_table_page(web_client, make_player):
    """Issue 12: the Resign control ends the match for him (heads-up, the other wins); it is gone afterwards."""
    alice, bob = web_client("alice"), web_client("bob")
    created = _post(alice, "/new/palace/", {"seats": 2, "sit": "on"})
    game_id = int(created["Location"].strip("/").split("/")[-1])
    _post(bob, f"/games/{game_id}/join/")
    assert 'id="resign"' in alice.get(f"/games/{game_id}/").content.decode()
    page = _post(alice, f"/games/{game_id}/resign/")
    assert page.status_code == 200
    assert game_get(game_id).status == "finished"
    assert 'id="resign"' not in alice.get(f"/games/{game_id}/").content.decode()
    assert "The game is over." in bob.get(f"/games/{game_id}/").content.decode()


def test_the_email_page_sets_the_address_the_mails_and_removes_it(web_client):
    """Issue 17: the address is set and changed on the web page (unconfirmed until its link is opened), the
    kinds of mail chosen there, and the address removed."""
    from notifications.selectors import address_of
    from players.models import Player

    alice = web_client("alice")
    user = Player.objects.get(name="alice").user
    page = _post(alice, "/email/", {"address": "alice@example.com"}).content.decode()
    assert "confirmation link is on its way to alice@example.com" in page
    assert 'id="address-state">waiting for confirmation' in page
    assert address_of(user).address == "alice@example.com" and address_of(user).confirmed_at is None
    refused = _post(alice, "/email/", {"address": "not an address"}).content.decode()
    assert 'id="error"' in refused and address_of(user).address == "alice@example.com"
    _post(alice, "/email/", {"preferences": "", "finished": "on"})
    assert (address_of(user).turn, address_of(user).finished) == (False, True)
    _post(alice, "/email/", {"remove": ""})
    assert address_of(user) is None
