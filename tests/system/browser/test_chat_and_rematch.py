"""Two people chat at their table and rematch in one click each (issue 26, README "Chat" and "Rematch"): what
one says appears on the other's page as text (an HTML message stays text), and after the end one offers, the
other accepts, and both end up at the new game, its seats rotated."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.selectors.read_models import game_get
from games.services import game_create, seat_take
from games.services.lifecycle import game_resign
from tests.system.browser.conftest import shot, sign_up

PASSWORD = "a long test password 42"  # noqa: S105
XSS = "<img src=x onerror=alert(1)>"


def test_two_people_chat_then_rematch_in_one_click_each(server, browser):
    alice_page = browser.new_context().new_page()
    bob_page = browser.new_context().new_page()
    sign_up(alice_page, server, "alice", PASSWORD)
    sign_up(bob_page, server, "bob", PASSWORD)
    users = get_user_model().objects
    alice, bob = users.get(username="alice"), users.get(username="bob")
    game = game_create(creator=alice, kind="palace", seats=2)
    seat_take(game_id=game.pk, player=alice)
    seat_take(game_id=game.pk, player=bob)
    for page in (alice_page, bob_page):
        page.goto(f"{server}/games/{game.pk}/")
        page.wait_for_selector("#chat-players")
    alice_page.fill("#chat-players-text", XSS)
    alice_page.click("#chat-players-send")
    bob_page.wait_for_selector("#chat-players-messages .chat-text", timeout=10_000)
    assert bob_page.inner_text("#chat-players-messages .chat-text") == XSS  # shown as text, never run
    assert bob_page.query_selector("#chat-players-messages img") is None
    assert alice_page.input_value("#chat-players-text") == ""
    bob_page.fill("#chat-players-text", "Nice try 🙂")
    bob_page.click("#chat-players-send")
    alice_page.wait_for_selector("text=Nice try 🙂", timeout=10_000)
    shot(alice_page, "table-chat")

    game_resign(user=bob, game_id=game.pk)
    for page in (alice_page, bob_page):
        page.reload()
        page.wait_for_selector("#rematch-offer")
    alice_page.click("#rematch-offer")
    bob_page.wait_for_selector("#rematch-accept", timeout=10_000)
    bob_page.click("#rematch-accept")
    bob_page.wait_for_url(lambda url: f"/games/{game.pk}/" not in url, timeout=10_000)
    alice_page.wait_for_selector("#rematch-link", timeout=10_000)
    alice_page.click("#rematch-link")
    assert alice_page.url == bob_page.url
    new = game_get(int(bob_page.url.rstrip("/").split("/")[-1]))
    assert new.rematch_of_id == game.pk
    assert [seat.player_id for seat in new.seats.order_by("number")] == [bob.pk, alice.pk]
