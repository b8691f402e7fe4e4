"""The table explains itself (issue 28), in chromium, with axe-core on every kind of page: a person makes a Palace
Poker table with a bot from the form, sees the end of each hand stay on the table until her next decision (or
"Next hand") and the match's results with "New table like this" and "Back to the lobby"; the rules are one click
from the table; a waiting table offers its link to copy; a Palace table against a bot ends on resigning with its
results. Neither the lobby, the form, the waiting page, both tables nor the rules page has a serious or critical
axe violation."""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

from tests.system.browser.accessibility import assert_accessible
from tests.system.browser.conftest import shot, sign_up, version, wait_until

PASSWORD = "a long test password 42"  # noqa: S105
PREFERENCE = ("call", "bet", "discard", "stay", "fold")
"""Battles are fought and called: each hand ends in a few decisions."""


def _decide(page) -> None:
    actions = page.eval_on_selector_all("#controls button[data-action]", "els => els.map(e => e.dataset.action)")
    choice = next(action for action in PREFERENCE if action in actions)
    page.click(f"#controls button[data-action='{choice}']")


def _play_until(page, done, *, seconds: float = 120) -> None:
    """Decide whenever the page offers controls, until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        if not page.query_selector("#controls"):
            time.sleep(0.1)
            continue
        before = version(page)
        try:
            _decide(page)
        except PlaywrightError:
            continue  # the table was swapped for a newer one mid-click
        wait_until(lambda before=before: version(page) > before or done(), what="the decision")


def test_a_poker_match_against_a_bot_shows_each_hand_end_and_the_results(server, browser, worker):
    page = browser.new_context().new_page()
    sign_up(page, server, "dana", PASSWORD)
    assert_accessible(page, "the lobby")
    page.click("text=New Palace Poker table")
    assert page.input_value("#id_option_small_bet") == "5"
    assert not page.is_visible("#id_option_open_market")  # a variant: folded
    assert_accessible(page, "the new-table form")
    page.fill("#id_option_max_hands", "3")
    page.fill("#id_bots", "1")
    page.select_option("#id_bot", "basic")
    shot(page, "new-table")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table[data-status=active]")
    assert_accessible(page, "the Palace Poker table")
    help_text = page.get_attribute("#controls button[data-action]", "title")
    assert help_text and len(help_text) > 20

    # Hand 1 ends: its result stays open on the table while hand 2 is dealt, until her next decision.
    _play_until(page, lambda: page.query_selector("#hand-end[open]") is not None)
    assert "Hand 1 is over" in page.inner_text("#hand-end summary")
    assert page.get_attribute("#hand-end", "data-hand") == "1"
    assert page.query_selector("#hand-end .last-battle, #hand-end .showdown")
    assert_accessible(page, "the table at the end of a hand")
    shot(page, "table-poker-hand-end")
    # Her next decision folds it away.
    _play_until(page, lambda: not page.query_selector("#hand-end[data-hand='1'][open]"))

    # Hand 2 over: "Next hand" folds its result at once.
    finished = lambda: page.get_attribute("#table", "data-status") == "finished"  # noqa: E731
    _play_until(page, lambda: bool(page.query_selector("#hand-end[data-hand='2'][open]")) or finished())
    if not finished():
        try:
            page.click("#next-hand", timeout=10_000)
        except PlaywrightError:
            # The bot's decisions can end hand 3, and with it the match (3 hands), between the check and the click:
            # the finished table has no "Next hand" (seen once in CI, 2026-11-27).
            assert finished(), '"Next hand" went away while the match goes on'
        else:
            page.wait_for_selector("#hand-end[data-hand='2']:not([open]), #table[data-status=finished]")

    # The match ends after hand 3: the results, with what to do next.
    _play_until(page, lambda: page.get_attribute("#table", "data-status") == "finished")
    page.wait_for_selector("#results")
    places = page.eval_on_selector_all("#results tbody tr td:first-child", "els => els.map(e => e.textContent)")
    assert places[0] == "1st" and len(places) == 2
    assert page.is_visible("#new-like") and page.is_visible("#to-lobby")
    assert_accessible(page, "the table at the end of the match")
    shot(page, "table-poker-results")

    page.click("#rules-link")
    page.wait_for_selector("#rules")
    assert "banner" in page.inner_text("#rules")
    assert_accessible(page, "the rules page")
    page.go_back()
    page.click("#new-like")
    page.wait_for_selector("#new-table")
    assert page.input_value("#id_option_max_hands") == "3" and page.input_value("#id_bots") == "1"
    page.click("text=My games")
    page.wait_for_selector("#my-games")
    assert "of 2" in page.inner_text("#my-games .result")


def test_a_waiting_table_offers_its_link_and_a_shedding_table_ends_with_results(server, browser, worker):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    sign_up(page, server, "erin", PASSWORD)
    page.click("text=New Palace table")
    page.fill("#id_seats", "3")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table[data-status=waiting]")
    assert page.input_value("#share-link").endswith(page.url.removeprefix(server))
    page.click("#copy-link")
    wait_until(lambda: page.inner_text("#copy-done") != "", what="the copy")
    assert "danger" in page.get_attribute("#cancel", "class")
    assert_accessible(page, "the waiting page")
    page.click("#cancel")
    page.wait_for_selector("#table[data-status=cancelled]")

    page.goto(f"{server}/new/palace/")
    page.fill("#id_bots", "1")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table[data-status=active]")
    page.wait_for_selector("#controls")
    assert_accessible(page, "the Palace table")
    assert page.is_visible("#rules-link")
    page.click("details.resign summary")
    page.click("#resign")
    page.wait_for_selector("#results")
    assert "2nd" in page.inner_text(f"#results tr[data-seat='{page.get_attribute('#table', 'data-viewer')}']")
    assert_accessible(page, "the Palace table at its end")
