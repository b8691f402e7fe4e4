"""Browser tests: Debian's chromium, headless, driven by Playwright's Python package through
``executable_path`` (no browser download), against a live server on 127.0.0.1 and a free port.

Skipped only where no chromium is installed (``.ci/run`` installs it: ``apt-get install -y chromium``).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pytest_django.live_server_helper import LiveServer

from games.selectors import views as selectors

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = Path(os.environ.get("PALACE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "palace-screenshots")
"""Where ``shot`` writes: a temporary folder, or the README's ``docs/screenshots/`` when ``python3 palace.py
screenshots`` refreshes them on purpose (a test run must not rewrite tracked files)."""
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
RANKS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
RANKS |= {"ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}
WORDS = re.compile(rf"\b({'|'.join(RANKS)}) of ({'|'.join(SUITS)})\b")
STEP_SECONDS = 20.0
"""How long a page may take to show what the other player (or the bot) did."""

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (apt-get install -y chromium)")


@pytest.fixture
def server(transactional_db, settings) -> Iterator[str]:
    """The site on 127.0.0.1 and a free port (Django's threaded WSGI live server over the test database), its
    tables polling fast. A WSGI server cannot hold an event stream open, so the pages poll here
    (``WEB_LIVE_STREAM`` off); tests/streams/ and the run-command test read the streams under uvicorn."""
    settings.WEB_POLL_SECONDS = 0.25
    settings.WEB_LIVE_STREAM = False
    settings.DEBUG = False
    live = LiveServer("127.0.0.1:0")
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture
def browser(server) -> Iterator[Any]:
    """A headless chromium (one per test); each person gets a context of his own: ``browser.new_context()``."""
    # Playwright's sync API runs an event loop in this thread; the test's own ORM reads (the DOM checks) are
    # ordinary synchronous calls that Django would otherwise refuse beside a running loop.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            yield chromium
        finally:
            chromium.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def sign_up(page: Any, server: str, name: str, password: str) -> None:
    """Sign up through the page, as a person would."""
    page.goto(f"{server}/signup/")
    page.fill("#id_name", name)
    page.fill("#id_password", password)
    page.fill("#id_password_again", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server}/")


def shot(page: Any, name: str) -> None:
    """A screenshot for the README, under ``SCREENSHOTS``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def version(page: Any) -> int:
    """The game version the page's table shows."""
    return int(page.get_attribute("#table", "data-version"))


def wait_until(condition: Callable[[], bool], *, seconds: float = STEP_SECONDS, what: str = "it") -> None:
    """Poll ``condition`` (bounded in time) until it holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def _codes(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_codes(item) for item in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_codes(item) for item in value)) if value else set()
    return set()


def assert_shows_only_known_cards(page: Any, game_id: int, name: str) -> set[str]:
    """No card on the page is one its viewer may not know: every face drawn (``data-card``) and every card
    named in words is in what the API would give him (his redacted view and log). Returns the faces shown."""
    html = page.content()
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    user = get_user_model().objects.get(username=name)
    game = selectors.game_get(game_id)
    known = _codes(selectors.game_detail(game, user)["state"]) | _codes(
        selectors.game_events(game, user, after=0, limit=10_000)["results"]
    )
    unknown = shown - known
    assert not unknown, f"{name}'s page shows cards he may not know: {sorted(unknown)}"
    named = {RANKS[rank] + SUITS[suit] for rank, suit in WORDS.findall(html)}
    assert not named - known, f"{name}'s page names cards he may not know: {sorted(named - known)}"
    return shown
