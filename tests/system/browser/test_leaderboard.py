"""The leaderboard page in the browser once players are past provisional (README "Ratings"): six people play 40
short rated Palace games through the services (random decisions, resignations now and then, bots seated at
times), then someone opens the Palace leaderboard from the lobby and sees the established players in the order
of their conservative rating, provisional ones left out. Its screenshot is the README's."""

from __future__ import annotations

import random

from players.services import player_register
from ratings.models import Rating
from tests.ratings.play import play_out, rated_game
from tests.system.browser.conftest import shot, sign_up

PASSWORD = "a long test password 42"  # noqa: S105
GAMES = 40


def test_the_leaderboard_lists_established_players_best_first(server, browser):
    rng = random.Random("leaderboard")
    names = ["amira", "bruno", "chen", "dilnoza", "emeka", "freya"]
    users = [player_register(name=name)[0] for name in names]
    for _ in range(GAMES):
        play_out(rng, rated_game(rng, users, kind="palace"), resign_rate=0.05)
    established = list(
        Rating.objects.filter(ladder="palace", player__isnull=False, provisional=False).order_by("-ordinal")
    )
    assert established, "40 games make someone established"

    page = browser.new_context().new_page()
    sign_up(page, server, "visitor", PASSWORD)
    page.click("#leaderboards")
    page.wait_for_selector("#leaderboard")
    page.goto(server + "/ratings/palace/")
    board = page.inner_text("#leaderboard")
    places = [board.index(row.player.username) for row in established]
    assert places == sorted(places), "best conservative rating first"
    provisional = Rating.objects.filter(ladder="palace", player__isnull=False, provisional=True)
    for row in provisional:
        assert row.player.username not in board
    shot(page, "leaderboard")
