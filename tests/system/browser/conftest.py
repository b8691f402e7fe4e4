"""Browser tests: Debian's chromium, headless, driven by Playwright's Python package through
``executable_path`` (no browser download), against a live server on 127.0.0.1 and a free port.

Skipped only where no chromium is installed (``.ci/run`` installs it: ``apt-get install -y chromium``).
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from pytest_django.live_server_helper import LiveServer

from games.selectors import read_models as selectors

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


class KeptConnectionsServer(ThreadedWSGIServer):
    """Django's threaded live server, whose requests are served by ``THREADS`` long-lived threads that each keep
    their database connection from one request to the next; the connections close when the server stops.

    Django's server starts a thread per request and closes its connection at the end: a new PostgreSQL connection
    (a server process, a password exchange) for every request of a page that polls 4 times a second, which was a
    third of the server's time in the browser tests. The requests see the database as before: each connection is
    in autocommit between requests, as Django leaves it, and checked before a request reuses it
    (``CONN_HEALTH_CHECKS``). The threads are daemons, as Django's are: a request that never ends holds one of
    them, not the test process."""

    THREADS = 16

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._requests: queue.Queue = queue.Queue()
        self._kept: list[Any] = []
        self._kept_lock = threading.Lock()
        self._workers = [
            threading.Thread(target=self._serve_requests, name=f"live-server-{number}", daemon=True)
            for number in range(self.THREADS)
        ]
        for worker in self._workers:
            worker.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        self._requests.put((request, client_address))

    def _serve_requests(self) -> None:
        # This thread's own wrapper (Django's connections are per thread), kept past the end of a request: Django
        # closes one whose CONN_MAX_AGE is 0, the test settings', when a request ends. It connects at first use.
        connection = connections["default"]
        connection.settings_dict = {**connection.settings_dict, "CONN_MAX_AGE": None}
        with self._kept_lock:
            self._kept.append((threading.current_thread(), connection))
        while (item := self._requests.get()) is not None:
            self.process_request_thread(*item)

    def _close_connections(self) -> None:
        """Kept for the thread's next request (Django's server closes them after each)."""

    def server_close(self) -> None:
        super().server_close()
        for _ in self._workers:
            self._requests.put(None)
        for worker in self._workers:
            worker.join(timeout=10)
        with self._kept_lock:
            kept = list(self._kept)
        for thread, connection in kept:
            # A thread still in a request that never ended keeps its connection, as it would under Django's server.
            if not thread.is_alive() and connection.connection is not None:
                connection.connection.close()


@pytest.fixture
def server(transactional_db, settings) -> Iterator[str]:
    """The site on 127.0.0.1 and a free port (Django's threaded WSGI live server over the test database), its
    tables polling fast. A WSGI server cannot hold an event stream open, so the pages poll here, as under
    ``runserver`` (``WEB_LIVE_STREAM`` at its default: the pages name no stream under WSGI); test_live_stream.py
    runs the pages under uvicorn, where they follow the stream."""
    settings.WEB_POLL_SECONDS = 0.25
    settings.DEBUG = False
    live = LiveServer("127.0.0.1:0", start=False)
    live.thread.server_class = KeptConnectionsServer
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture
def browser(server) -> Iterator[Any]:
    """A headless chromium (one per test); each person gets a context of his own: ``browser.new_context()``.

    Every page of every context is watched for Content-Security-Policy violations (``WatchedBrowser``): the
    test fails at its end if the policy refused anything the test did not name with ``expect_violation``."""
    # Playwright's sync API runs an event loop in this thread; the test's own ORM reads (the DOM checks) are
    # ordinary synchronous calls that Django would otherwise refuse beside a running loop.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        watched = WatchedBrowser(chromium)
        try:
            yield watched
        finally:
            chromium.close()
            # The test's own queries ran beside Playwright's event loop, on connections of their own: close them
            # here, where they are seen, or the test database cannot be dropped while one is open.
            connections.close_all()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    watched.assert_no_violation()


_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolation(
  `${e.effectiveDirective} refused ${e.blockedURI || "inline"} at ${e.sourceFile || e.documentURI}:${e.lineNumber}`
));
"""


class WatchedBrowser:
    """A chromium whose contexts report every Content-Security-Policy violation into ``violations`` (one string
    each: the directive, what it refused, where), from the page's ``securitypolicyviolation`` events and from
    chromium's console messages about the policy (which also cover what happens before a page's scripts run).
    Everything else is the browser's own (``new_context``, ``close``...)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.violations: list[str] = []
        self._expected: list[str] = []

    def expect_violation(self, blocked: str) -> None:
        """The test expects the policy to refuse ``blocked`` (a URL): reports of it are not failures, and not
        seeing one is."""
        self._expected.append(blocked)

    def assert_no_violation(self) -> None:
        unexpected = [text for text in self.violations if not any(blocked in text for blocked in self._expected)]
        assert not unexpected, f"the Content-Security-Policy refused: {unexpected}"
        unseen = [blocked for blocked in self._expected if not any(blocked in text for text in self.violations)]
        assert not unseen, f"the Content-Security-Policy was expected to refuse: {unseen}"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.expose_binding("__cspViolation", lambda _source, text: self.violations.append(text))
        context.add_init_script(_REPORT_VIOLATIONS)
        context.on("console", self._console)
        return context

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(f"console: {message.text}")


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
    # caret="initial": Playwright's default hides the caret with a style attribute on the focused input, which
    # htmx would then copy onto the swapped-in table, and the Content-Security-Policy refuse.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, caret="initial")


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
