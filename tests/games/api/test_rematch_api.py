"""Rematch over the API (issue 26): offer, answers, the new game's rotated seats and both games linked in the
game view; refusals with their codes."""

from __future__ import annotations

from games.services import game_create, seat_take
from games.services.lifecycle import game_resign
from tests.games.api.helpers import assert_error


def test_two_players_rematch_in_one_call_each_and_both_games_link(make_player, auth_client):
    (alice, a), (bob, b), (_, c) = make_player("alice"), make_player("bob"), make_player("carol")
    game = game_create(creator=alice, kind="palace", seats=2)
    seat_take(game_id=game.pk, player=alice)
    seat_take(game_id=game.pk, player=bob)
    alice_client, bob_client = auth_client(a), auth_client(b)
    url = f"/api/v1/games/{game.pk}/rematch/"
    assert_error(alice_client.post(url), 409, "game_in_progress")
    game_resign(user=bob, game_id=game.pk)
    assert_error(alice_client.get(url), 404, "rematch_not_found")
    assert_error(auth_client(c).post(url), 403, "not_seated")
    offered = alice_client.post(url)
    assert offered.status_code == 201, offered.content
    assert offered.json()["waiting_for"] == [1] and offered.json()["game"] is None
    before = alice_client.get(f"/api/v1/games/{game.pk}/")  # its body remembered by this process (games.api.rendered)
    assert before.status_code == 200 and before.json()["rematch"] is None
    accepted = bob_client.post(url + "accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    new_id = accepted.json()["game"]
    old = alice_client.get(f"/api/v1/games/{game.pk}/").json()
    new = alice_client.get(f"/api/v1/games/{new_id}/").json()
    assert old["rematch"] == new_id and old["rematch_of"] is None and new["rematch_of"] == game.pk
    assert [seat["player"]["name"] for seat in new["seats"]] == ["bob", "alice"]
    assert new["status"] == "active"
    assert_error(alice_client.post(url), 409, "rematch_taken")
    assert_error(bob_client.post(url + "decline/"), 409, "rematch_closed")
