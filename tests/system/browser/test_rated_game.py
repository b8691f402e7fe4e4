"""Two people play a rated table to its end in the browser and see their ratings change (README "Ratings"):
alice makes a rated Palace Poker table and sits, bob takes the other seat, alice resigns (leaving is losing); both
pages then show each seat's rating move, bob's up and alice's down, and the leaderboard page opens from the
lobby."""

from __future__ import annotations

from ratings.models import Rating
from tests.system.browser.conftest import shot, sign_up

PASSWORD = "a long test password 42"  # noqa: S105


def test_two_people_finish_a_rated_game_and_see_their_ratings_change(server, browser):
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    sign_up(alice, server, "alice", PASSWORD)
    sign_up(bob, server, "bob", PASSWORD)
    alice.click("text=New Palace Poker table")
    alice.check("#id_rated")
    alice.click("#new-table button[type=submit]")
    alice.wait_for_selector("#table[data-status=waiting]")
    bob.goto(alice.url)
    bob.click("#join")
    bob.wait_for_selector("#table[data-status=active]")
    alice.wait_for_selector("#table[data-status=active]", timeout=20_000)
    assert "1000?" in alice.inner_text("#ratings")

    alice.click("details.resign summary")
    alice.click("#resign")
    for page in (alice, bob):
        page.wait_for_selector("#ratings .delta", timeout=20_000)
    deltas = {
        page: [int(text.replace("+", "")) for text in page.locator("#ratings .delta").all_inner_texts()]
        for page in (alice, bob)
    }
    assert deltas[alice] == deltas[bob]
    # Seat 0 is alice's (she sat first), seat 1 bob's.
    lost, won = deltas[alice]
    assert won > 0 > lost
    assert "ratings changed" in bob.inner_text("#ratings")
    shot(bob, "rated-game-over")
    assert Rating.objects.get(player__username="bob").games == 1

    bob.goto(server + "/")
    bob.click("#leaderboards")
    bob.wait_for_selector("#leaderboard")
    assert "Palace Poker (chips) leaderboard" in bob.inner_text("h1")
