"""Two people in two browser contexts sign up, create and join a Palace Poker table and play a hand to the end
against each other; each page updates by itself when the other acts (htmx polling of the live fragment), and
no page ever shows a card its viewer may not know."""

from __future__ import annotations

import time

from tests.system.browser.conftest import (
    assert_shows_only_known_cards,
    shot,
    sign_up,
    version,
    wait_until,
)

PASSWORD = "a long test password 42"  # noqa: S105
PREFERENCE = ("call", "bet", "discard", "stay", "fold")
"""What each player picks, first legal first: battles are fought, so the hand ends in a few steps."""


def _decide(page, *, bought: bool) -> str:
    """Make one decision through the page's controls; returns the action type."""
    actions = page.eval_on_selector_all("#controls button[data-action]", "els => els.map(e => e.dataset.action)")
    if "buy" in actions and not bought:
        choice = "buy"
    elif actions == ["discard"]:
        # A discard step: choose a soldier from the keyboard (Tab to it, Space), then discard it.
        choice = "discard"
        pick = page.query_selector("input.pick")
        # Unless still ticked from before: a table swapped in keeps the player's ticks (a refused click).
        if pick is not None and not pick.is_checked():
            pick.focus()
            page.keyboard.press("Space")
            assert pick.is_checked()
    else:
        choice = next(action for action in PREFERENCE if action in actions)
    page.click(f"#controls button[data-action='{choice}']")
    return choice


def test_two_people_play_a_hand_of_palace_poker(server, browser):
    alice_context, bob_context = browser.new_context(), browser.new_context()
    alice, bob = alice_context.new_page(), bob_context.new_page()
    sign_up(alice, server, "alice", PASSWORD)
    sign_up(bob, server, "bob", PASSWORD)

    # Alice makes a one-hand table and sits; Bob finds it in the lobby and joins.
    alice.click("text=New Palace Poker table")
    alice.fill("#id_option_max_hands", "1")
    alice.select_option("#id_option_first_dealer", "1")
    alice.fill("#id_turn_timeout", "600")
    alice.click("#new-table button[type=submit]")
    alice.wait_for_selector("#table[data-status=waiting]")
    game_id = int(alice.url.rstrip("/").split("/")[-1])
    bob.goto(f"{server}/")
    bob.wait_for_selector(f"#open-tables tr[data-game='{game_id}']")
    shot(bob, "lobby")
    bob.click(f"#open-tables tr[data-game='{game_id}'] a")
    bob.click("#join")
    bob.wait_for_selector("#table[data-status=active]")
    # Alice's page learns by itself that the match started: each page polls for it (see conftest).
    alice.wait_for_selector("#table[data-status=active]", timeout=20_000)

    pages = {"alice": alice, "bob": bob}
    bought = {"alice": False, "bob": False}
    screenshots = set()
    deadline = time.monotonic() + 180
    decisions = 0
    for _ in range(200):
        assert time.monotonic() < deadline, "the hand did not end in time"
        for name, page in pages.items():
            assert_shows_only_known_cards(page, game_id, name)
        if all(page.get_attribute("#table", "data-status") == "finished" for page in pages.values()):
            break
        acting = next((name for name, page in pages.items() if page.query_selector("#controls")), None)
        if acting is None:
            time.sleep(0.2)
            continue
        page, other = pages[acting], pages["bob" if acting == "alice" else "alice"]
        before = version(page)
        decisions += 1
        if decisions == 3:  # mid-hand: a soldier bought and a discard step behind
            for who, shown in pages.items():
                shot(shown, f"table-poker-{who}")
                screenshots.add(who)
        choice = _decide(page, bought=bought[acting])
        bought[acting] = bought[acting] or choice == "buy"
        wait_until(lambda page=page, before=before: version(page) > before, what=f"{acting}'s {choice}")
        assert not page.query_selector("#error"), page.inner_text("#error")
        # The other page updates live: no reload, no click.
        wait_until(lambda other=other, page=page: version(other) >= version(page), what="the live update")
    else:
        raise AssertionError("the hand did not end in 200 decisions")

    assert alice.query_selector("#winners") and bob.query_selector("#winners")
    assert screenshots == {"alice", "bob"}
    # The finished hand, step by step, as Bob may see it: the last step and one before it.
    bob.click("#replay-link")
    bob.wait_for_selector("#replay")
    last = bob.get_attribute("text=Last", "href")
    bob.goto(f"{server}{last}")
    bob.click("#previous")
    bob.wait_for_selector("#replay")
    assert_shows_only_known_cards(bob, game_id, "bob")
    shot(bob, "replay")
    alice_context.close()
    bob_context.close()
