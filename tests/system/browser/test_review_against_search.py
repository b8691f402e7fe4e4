"""Issue 23 in the browser: a person seats the ``search`` bot from the table page (the level chosen by its
sentence), plays a short game of Palace against it through the real Celery worker, then asks for the review on
the replay page and sees it there: where the search bot would have played otherwise, and what each move was worth
at a reviewed step."""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

from games.selectors.read_models import game_get
from tests.system.browser.conftest import shot, sign_up, version, wait_until
from tests.system.browser.test_shedding_against_bot import _decide

PASSWORD = "a long test password 42"  # noqa: S105
MAX_TURNS = 12
"""The stalemate rule's limit: a dozen plays, then the game is over whatever the cards."""


PLAY_SECONDS = 120
"""A bound on the whole game, never a wait: alone it takes about 6 s, beside the suite's other tests up to 40 s."""


def _play_to_the_end(page, game_id: int) -> None:
    deadline = time.monotonic() + PLAY_SECONDS
    for _ in range(10 * MAX_TURNS):
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.get_attribute("#table", "data-status") == "finished":
            return
        if not page.query_selector("button[data-action]"):
            # The bot's last move may swap in the finished table between the status read above and this one: then
            # no later version and no button come, and the finished status is what to wait for.
            before = version(page)
            wait_until(
                lambda before=before: (
                    version(page) > before
                    or bool(page.query_selector("button[data-action]"))
                    or page.get_attribute("#table", "data-status") == "finished"
                ),
                what="the search bot's move",
            )
            continue
        wait_until(lambda: version(page) == game_get(game_id).version, what="the page to catch up")
        before = version(page)
        try:
            _decide(page)
        except PlaywrightError:
            continue  # the table was swapped for a newer one mid-click
        wait_until(lambda before=before: version(page) > before or bool(page.query_selector("#error")), what="a move")
    raise AssertionError("the game did not end")


def test_a_person_plays_the_search_bot_and_reads_the_review_on_the_replay_page(server, browser, worker, settings):
    settings.REVIEW_SECONDS = 0.05
    page = browser.new_context().new_page()
    sign_up(page, server, "rita", PASSWORD)
    page.click("text=New Palace table")
    page.fill("#id_option_max_turns", str(MAX_TURNS))
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table[data-status=waiting]")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    assert "Search: deals the cards it cannot see" in page.inner_text("#bot-levels")
    page.select_option("#bot", "search")
    page.click("#seat-bot")
    page.wait_for_selector("#table[data-status=active]")
    assert [seat.bot for seat in game_get(game_id).seats.order_by("number")] == ["", "search"]

    _play_to_the_end(page, game_id)

    page.click("#replay-link")
    page.click("#ask-review")
    deadline = time.monotonic() + 30
    while page.get_attribute("#review", "data-status") != "done":
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.5)
        page.reload()
    worst = page.query_selector_all("#review-worst li a")
    assert worst or page.query_selector("#review-agrees")
    shot(page, "review")
    if worst:
        worst[0].click()
        assert "What the search bot would play" in page.inner_text("#review-here")
