"""The table's chat panel (issue 26, README "Chat"): players talk through the page's form, a spectator sees his
own room only during play, a message made of HTML renders as text on every page that shows it, and muting from
the page hides a player's messages for oneself."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from chat.services import message_post
from games.services import game_create, seat_take
from games.services.lifecycle import game_resign
from tests.web.conftest import csrf

XSS = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def _table(web_client):
    alice, bob, carol = web_client("alice"), web_client("bob"), web_client("carol")
    users = {name: get_user_model().objects.get(username=name) for name in ("alice", "bob", "carol")}
    game = game_create(creator=users["alice"], kind="palace-poker", seats=2)
    seat_take(game_id=game.pk, player=users["alice"])
    seat_take(game_id=game.pk, player=users["bob"])
    return game, {"alice": alice, "bob": bob, "carol": carol}, users


def test_a_player_says_something_through_the_form_and_both_players_see_it_as_text(web_client):
    game, clients, _ = _table(web_client)
    alice = clients["alice"]
    page = alice.get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat-players"' in page and 'id="chat-spectators"' not in page
    response = alice.post(
        f"/games/{game.pk}/chat/players/say/", {"text": XSS, "csrfmiddlewaretoken": csrf(alice)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and ESCAPED in response.content.decode() and XSS not in response.content.decode()
    for name in ("alice", "bob"):
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/chat/players/"):
            body = clients[name].get(url).content.decode()
            assert ESCAPED in body and XSS not in body, (name, url)


def test_a_spectator_sees_only_his_room_during_play_and_both_after_the_end(web_client):
    game, clients, users = _table(web_client)
    message_post(user=users["alice"], game_id=game.pk, room="players", text=XSS)
    carol = clients["carol"]
    page = carol.get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat-spectators"' in page and 'id="chat-players"' not in page and ESCAPED not in page
    assert carol.get(f"/games/{game.pk}/chat/players/").status_code == 403
    refused = carol.post(f"/games/{game.pk}/chat/players/say/", {"text": "hi", "csrfmiddlewaretoken": csrf(carol)})
    assert refused.status_code == 400 and not game.chat_messages.filter(author=users["carol"]).exists()
    game_resign(user=users["bob"], game_id=game.pk)
    page = carol.get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat-players"' in page and ESCAPED in page and XSS not in page


def test_a_too_long_message_is_refused_beside_the_form_with_the_text_kept(web_client):
    game, clients, _ = _table(web_client)
    alice = clients["alice"]
    response = alice.post(
        f"/games/{game.pk}/chat/players/say/",
        {"text": "y" * 501, "csrfmiddlewaretoken": csrf(alice)},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert "500 characters at most" in body and 'value="' + "y" * 501 in body
    assert not game.chat_messages.exists()


def test_muting_from_the_page_hides_that_players_messages_for_oneself(web_client):
    game, clients, users = _table(web_client)
    message_post(user=users["bob"], game_id=game.pk, room="players", text="noise from bob")
    alice = clients["alice"]
    assert "noise from bob" in alice.get(f"/games/{game.pk}/").content.decode()
    response = alice.post(
        f"/chat/mute/{users['bob'].pk}/", {"muted": "1", "game": game.pk, "csrfmiddlewaretoken": csrf(alice)}
    )
    assert response.status_code == 302
    page = alice.get(f"/games/{game.pk}/").content.decode()
    assert "noise from bob" not in page and "Unmute" in page
    assert "noise from bob" in clients["bob"].get(f"/games/{game.pk}/").content.decode()
