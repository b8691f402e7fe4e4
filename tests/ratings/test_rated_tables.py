"""A rated table: the creator's choice, over the API and the page; every seat a player or a bot (README "Ratings")."""

from __future__ import annotations

import pytest

from games.models import Game


@pytest.mark.django_db
def test_a_game_is_casual_unless_created_rated(make_player, auth_client) -> None:
    _, token = make_player("alice")
    client = auth_client(token)
    casual = client.post("/api/v1/games/", {"kind": "palace", "seats": 2}, format="json")
    rated = client.post("/api/v1/games/", {"kind": "palace", "seats": 2, "rated": True}, format="json")
    assert (casual.status_code, casual.json()["rated"]) == (201, False)
    assert (rated.status_code, rated.json()["rated"]) == (201, True)
    assert client.get("/api/v1/games/?limit=5").json()["results"][0]["rated"] is True
    refused = client.post("/api/v1/games/", {"kind": "palace", "seats": 2, "rated": "maybe"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")


@pytest.mark.django_db
def test_a_rated_table_seats_players_and_bots_but_no_account_without_a_rating(
    make_player, make_staff, auth_client
) -> None:
    _, alice = make_player("alice")
    _, staff = make_staff()
    game = auth_client(alice).post("/api/v1/games/", {"kind": "palace", "seats": 3, "rated": True}, format="json")
    url = f"/api/v1/games/{game.json()['id']}/seats/"
    refused = auth_client(staff).post(url, {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "unrated_account")
    assert auth_client(alice).post(url, {}, format="json").status_code == 201
    assert auth_client(alice).post(url, {"bot": "random"}, format="json").status_code == 201
    _, bob = make_player("bob")
    assert auth_client(bob).post(url, {}, format="json").status_code == 201
    assert Game.objects.get(pk=game.json()["id"]).status == "active"


@pytest.mark.django_db
def test_a_rated_table_refuses_prearranged_shuffles(make_staff, auth_client) -> None:
    _, staff = make_staff()
    body = {"kind": "palace", "seats": 2, "rated": True, "prearranged_shuffles": [[]]}
    refused = auth_client(staff).post("/api/v1/games/", body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "rated_not_prearranged")
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_new_table_page_makes_a_rated_table(client, make_player) -> None:
    user, _ = make_player("alice")
    client.force_login(user)
    response = client.post("/new/palace/", {"seats": "2", "sit": "on", "rated": "on"})
    assert response.status_code == 302
    assert Game.objects.get().rated is True
    client.post("/new/palace/", {"seats": "2", "sit": "on"})
    assert Game.objects.filter(rated=False).count() == 1
