"""The ratings API: a player's ratings and history, a ladder's leaderboard, a game's changes, and their errors."""

from __future__ import annotations

import random

import pytest

from ratings.models import Rating
from ratings.skill import PROVISIONAL_SIGMA
from tests.ratings.play import play_out, rated_game


@pytest.fixture
def played(make_player, auth_client):
    """Three rated Palace games among four players and a bot: the players' ids, a client, the games."""
    rng = random.Random("api")
    players = [make_player(f"p{n}") for n in range(5)]
    users = [user for user, _ in players]
    games = [play_out(rng, rated_game(rng, users, kind="palace")) for _ in range(3)]
    return users, auth_client(players[0][1]), games


@pytest.mark.django_db
def test_a_players_ratings_and_history(played) -> None:
    users, client, games = played
    someone = next(user for user in users if Rating.objects.filter(player=user).exists())
    ratings = client.get(f"/api/v1/players/{someone.pk}/ratings/")
    assert ratings.status_code == 200
    body = ratings.json()
    assert body["player"] == {"id": someone.pk, "name": someone.username}
    [palace] = body["ratings"]
    assert palace["ladder"] == "palace" and palace["title"] == "Palace"
    assert palace["games"] == Rating.objects.get(player=someone).games >= 1
    assert palace["provisional"] is True
    history = client.get(f"/api/v1/players/{someone.pk}/ratings/history/?ladder=palace&limit=1").json()
    assert history["count"] == palace["games"]
    [latest] = history["results"]
    assert latest["after"]["mu"] == palace["mu"]
    assert latest["delta"] == latest["after"]["rating"] - latest["before"]["rating"]
    assert latest["game"] in [game.pk for game in games]


@pytest.mark.django_db
def test_the_leaderboard_leaves_provisional_ratings_out_and_pages(played) -> None:
    _, client, _ = played
    assert client.get("/api/v1/ratings/palace/").json() == {"count": 0, "next": None, "previous": None, "results": []}
    for number, row in enumerate(Rating.objects.order_by("pk")[:3]):
        Rating.objects.filter(pk=row.pk).update(sigma=PROVISIONAL_SIGMA - 1, ordinal=number, provisional=False)
    first = client.get("/api/v1/ratings/palace/?limit=2").json()
    assert first["count"] == 3
    assert [row["rank"] for row in first["results"]] == [1, 2]
    second = client.get(first["next"]).json()
    assert [row["rank"] for row in second["results"]] == [3]
    rows = first["results"] + second["results"]
    ordered = [row.pk for row in Rating.objects.filter(provisional=False).order_by("-ordinal")]
    assert [(row["player"] or {}).get("id") for row in rows] == [Rating.objects.get(pk=pk).player_id for pk in ordered]


@pytest.mark.django_db
def test_a_games_ratings_show_each_seats_place_and_change(played) -> None:
    _, client, games = played
    body = client.get(f"/api/v1/games/{games[-1].pk}/ratings/").json()
    assert body["rated"] and body["applied"] and body["ladder"] == "palace"
    assert len(body["seats"]) == games[-1].seat_count
    assert sorted(seat["place"] for seat in body["seats"]) == list(range(1, games[-1].seat_count + 1))
    assert all(seat["delta"] == seat["after"]["rating"] - seat["before"]["rating"] for seat in body["seats"])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/api/v1/players/999999/ratings/", 404, "player_not_found"),
        ("/api/v1/players/999999/ratings/history/", 404, "player_not_found"),
        ("/api/v1/players/999999999999999999/ratings/", 404, "player_not_found"),
        ("/api/v1/ratings/chess/", 404, "ladder_not_found"),
        ("/api/v1/ratings/palace/?limit=0", 400, "invalid"),
        ("/api/v1/ratings/palace/?page=2", 400, "invalid"),
        ("/api/v1/games/999999/ratings/", 404, "game_not_found"),
        ("/api/v1/players/1/ratings/history/?ladder=chess", 400, "invalid"),
    ],
)
def test_errors(make_player, auth_client, api_client, url, status, code) -> None:
    user, token = make_player("alice")
    url = url.replace("/players/1/", f"/players/{user.pk}/")
    response = auth_client(token).get(url)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert api_client.get(url).status_code == 401


@pytest.mark.django_db
def test_the_leaderboard_page_and_the_table_panel(client, played) -> None:
    users, _, games = played
    ranked = Rating.objects.filter(player__isnull=False).first().player
    Rating.objects.filter(player=ranked).update(sigma=5.0, ordinal=10.0, provisional=False)
    client.force_login(users[0])
    lobby = client.get("/")
    assert b'id="leaderboards"' in lobby.content
    board = client.get("/ratings/palace/")
    assert board.status_code == 200
    assert f"<td>{ranked.username}</td>".encode() in board.content
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get("/ratings/palace/?page=x").status_code == 400
    table = client.get(f"/games/{games[-1].pk}/").content.decode()
    assert 'id="ratings"' in table and "ratings changed" in table and 'class="delta"' in table
