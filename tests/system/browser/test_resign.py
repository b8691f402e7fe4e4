"""A person resigns a running match in the browser (issue 12): he opens the Resign control, confirms, and the
page shows the match over (heads-up against a bot: the bot is the last one left). No card is shown that he may
not know, before or after."""

from __future__ import annotations

from games.selectors.read_models import game_get
from tests.system.browser.conftest import assert_shows_only_known_cards, sign_up

PASSWORD = "a long test password 42"  # noqa: S105


def test_a_person_resigns_a_match_against_a_bot(server, browser, worker):
    page = browser.new_context().new_page()
    sign_up(page, server, "erin", PASSWORD)
    page.click("text=New Palace Poker table")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table[data-status=waiting]")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    page.click("#seat-bot")
    page.wait_for_selector("#table[data-status=active]")
    assert_shows_only_known_cards(page, game_id, "erin")
    page.click("details.resign summary")
    # A live refresh swaps the table in again (as a move would): the open confirmation stays open, even when
    # another part of the page (the badge here, polling on its own) has its answer swapped in before the table
    # settles.
    before = page.query_selector("#table")
    page.evaluate(
        """() => {
            const other = (type) => new CustomEvent(type, {bubbles: true, detail: {elt: badge, target: badge}});
            const badge = document.querySelector("header [hx-get]");
            const between = (event) => {
                if (event.detail.target.id !== "table") return;
                document.removeEventListener("htmx:afterSwap", between);
                badge.dispatchEvent(other("htmx:beforeSwap"));
                badge.dispatchEvent(other("htmx:afterSettle"));
            };
            document.addEventListener("htmx:afterSwap", between);
            const table = document.querySelector("#table");
            table.setAttribute("hx-get", table.getAttribute("hx-get").replace(/v=\\d+/, "v=0"));
            htmx.process(table);
            htmx.trigger(table, "refresh");
        }"""
    )
    page.wait_for_function("(old) => !old.isConnected", arg=before)
    page.wait_for_selector("details.resign[open] #resign", state="visible", timeout=5_000)
    page.click("#resign")
    page.wait_for_selector("#table[data-status=finished]", timeout=20_000)
    assert "The game is over." in page.inner_text("#table")
    assert page.query_selector("#resign") is None
    assert game_get(game_id).status == "finished"
    assert_shows_only_known_cards(page, game_id, "erin")
