"""The rematch control at the end of a game (issue 26, README "Rematch"): one click each (offer, accept) takes
both players to the new game; a spectator gets no button; a decline is shown."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.services import game_create, seat_take
from games.services.lifecycle import game_resign
from tests.web.conftest import csrf


def _finished(web_client):
    alice, bob, carol = web_client("alice"), web_client("bob"), web_client("carol")
    users = {name: get_user_model().objects.get(username=name) for name in ("alice", "bob", "carol")}
    game = game_create(creator=users["alice"], kind="palace", seats=2)
    seat_take(game_id=game.pk, player=users["alice"])
    seat_take(game_id=game.pk, player=users["bob"])
    game_resign(user=users["bob"], game_id=game.pk)
    return game, {"alice": alice, "bob": bob, "carol": carol}


def test_offer_then_accept_one_click_each_leads_both_to_the_new_game(web_client):
    game, clients = _finished(web_client)
    alice, bob = clients["alice"], clients["bob"]
    assert 'id="rematch-offer"' in alice.get(f"/games/{game.pk}/").content.decode()
    assert 'id="rematch-offer"' not in clients["carol"].get(f"/games/{game.pk}/").content.decode()
    offered = alice.post(f"/games/{game.pk}/rematch/offer/", {"csrfmiddlewaretoken": csrf(alice)})
    assert offered.status_code == 302 and offered["Location"] == f"/games/{game.pk}/"
    page = bob.get(f"/games/{game.pk}/").content.decode()
    assert 'id="rematch-accept"' in page and 'id="rematch-decline"' in page
    accepted = bob.post(f"/games/{game.pk}/rematch/accept/", {"csrfmiddlewaretoken": csrf(bob)}, HTTP_HX_REQUEST="true")
    new_url = accepted["HX-Redirect"]
    assert new_url != f"/games/{game.pk}/" and bob.get(new_url).status_code == 200
    panel = alice.get(f"/games/{game.pk}/rematch/").content.decode()
    assert f'href="{new_url}"' in panel and 'id="rematch-link"' in panel


def test_a_decline_is_shown_and_offers_no_more_buttons(web_client):
    game, clients = _finished(web_client)
    alice, bob = clients["alice"], clients["bob"]
    alice.post(f"/games/{game.pk}/rematch/offer/", {"csrfmiddlewaretoken": csrf(alice)})
    bob.post(f"/games/{game.pk}/rematch/decline/", {"csrfmiddlewaretoken": csrf(bob)})
    page = alice.get(f"/games/{game.pk}/").content.decode()
    assert "The rematch was declined." in page and 'id="rematch-offer"' not in page
    again = alice.post(f"/games/{game.pk}/rematch/offer/", {"csrfmiddlewaretoken": csrf(alice)}, HTTP_HX_REQUEST="true")
    assert "already had its rematch offer" in again.content.decode()
