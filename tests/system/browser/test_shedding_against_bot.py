"""One person plays a whole game of Palace (the shedding game) against a bot in the browser: clicking cards to
choose a play, face-down cards to turn one over; the bot answers through the real Celery worker and the page
updates by itself. No page ever shows a card its viewer may not know."""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

from games.selectors.read_models import game_get
from tests.system.browser.conftest import (
    assert_shows_only_known_cards,
    shot,
    sign_up,
    version,
    wait_until,
)
from web.errors import RACE_WORDS

PASSWORD = "a long test password 42"  # noqa: S105
MAX_TURNS = 200
"""The stalemate rule's limit, set in the form: the game ends by then whatever the cards."""


def _tick(label) -> None:
    """Tick the card of ``label`` unless it is ticked: a table swapped in keeps the cards ticked before (another
    player's move, a refused click), and a click would untick it."""
    if not label.evaluate("label => label.control.checked"):
        label.click()


def _decide(page) -> str:
    """One decision through the page: choose face-up cards, play one selected card, turn over a face-down
    card, or pick up the pile."""
    actions = page.eval_on_selector_all("button[data-action]", "els => els.map(e => e.dataset.action)")
    if "choose_face_up" in actions:
        for label in page.query_selector_all(".choice label")[:3]:
            _tick(label)
        choice = "choose_face_up"
    elif "play" in actions:
        _tick(page.query_selector(".choice label"))
        choice = "play"
    elif "play_face_down" in actions:
        choice = "play_face_down"
    else:
        choice = "pick_up"
    page.click(f"button[data-action='{choice}']")
    return choice


def test_a_person_plays_a_whole_shedding_game_against_a_bot(server, browser, worker):
    page = browser.new_context().new_page()
    sign_up(page, server, "carol", PASSWORD)
    page.click("text=New Palace table")
    page.fill("#id_option_max_turns", str(MAX_TURNS))
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table[data-status=waiting]")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    page.click("#seat-bot")
    page.wait_for_selector("#table[data-status=active]")

    played = set()
    deadline = time.monotonic() + 400
    for _ in range(3 * MAX_TURNS):
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.get_attribute("#table", "data-status") == "finished":
            break
        if not page.query_selector("button[data-action]"):
            # The bot's turn: the page shows its move by itself. Or the game has just ended: carol's last move
            # ended it and its answer swapped the table in since the status was read above.
            before = version(page)
            wait_until(
                lambda before=before: (
                    version(page) > before
                    or bool(page.query_selector("button[data-action]"))
                    or page.get_attribute("#table", "data-status") == "finished"
                ),
                what="the bot's move",
            )
            continue
        # Act on the game as it is: while the bot makes a choice of its own (the setup's face-up cards), the
        # page is about to change under the mouse.
        wait_until(lambda: version(page) == game_get(game_id).version, what="the page to catch up")
        assert_shows_only_known_cards(page, game_id, "carol")
        before = version(page)
        shown = page.query_selector("#table")
        try:
            choice = _decide(page)
        except PlaywrightError:
            continue  # the table was swapped for a newer one mid-click: look again
        played.add(choice)
        if len(played) == 2:
            shot(page, "table-shedding")
        # The click's own answer: a newer table, or a table swapped in with a refusal. Not a sentence an earlier
        # refusal left on the table shown (the click's answer still on its way).
        wait_until(
            lambda before=before, shown=shown: (
                version(page) > before
                or (not shown.evaluate("table => table.isConnected") and bool(page.query_selector("#error")))
            ),
            what=choice,
        )
        error = page.query_selector("#error")
        # The one refusal a race may bring: the bot moved first, and the page said so in a player's words.
        assert error is None or error.inner_text() == RACE_WORDS, error.inner_text()
    else:
        raise AssertionError("the game did not end")

    assert page.query_selector("#winners"), "the finishing order is shown"
    assert {"choose_face_up", "play"} <= played
    assert_shows_only_known_cards(page, game_id, "carol")
