"""The table follows the game's event stream under an ASGI server (uvicorn, as ``palace.py run`` and Docker serve
it), never stale (issue 28): a bot answering at once, many times in a row, and the network dropped for 5 s.

Each test runs the site twice: on the embedded broker (SQLite; each web process's hub polls the database) and on
Redis as deployed (a private Redis: the Celery broker and the streams' fan-out). The pages poll only every
``WEB_POLL_SECONDS`` = 30 s here, so what keeps them up to date within the test's bounds is the stream.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.servers import CeleryWorker
from tests.system.browser.conftest import sign_up
from tests.system.browser.play import SHOWN_AT, Latest, Record, catch_up, play_against_bot, version
from tests.system.faults.servers import PrivateRedis
from tests.system.streams.live import LiveServer

PASSWORD = "a long test password 42"  # noqa: S105
ANSWERS = 200
"""Bot answers in a row the page must keep up with, on each broker (issue 28, Done when)."""
OFFLINE_SECONDS = 5


class Site:
    """uvicorn and one Celery worker (solo) over a private SQLite file and the broker of ``env``; the worker is
    ready (its log says so) before any test starts, so that no wait of a test for the bot's answer (20 s each)
    includes the worker's start, which a loaded machine slows down."""

    def __init__(self, home: Any, **env: str) -> None:
        self.web = LiveServer(home, WEB_POLL_SECONDS="30", THROTTLE_LOGIN="none", **env)
        self.url = f"http://127.0.0.1:{self.web.port}"
        # Its log beside uvicorn's, for whoever reads a failure.
        self.worker = CeleryWorker(env=self.web.env, home=home, name="browser", pool="solo")
        try:
            self.worker.start()
        except BaseException:
            self.web.close()
            raise

    def close(self) -> None:
        self.worker.kill()
        self.web.close()

    @contextmanager
    def logs_on_failure(self) -> Iterator[None]:
        """A failure inside the block (an assertion, a wait of the page that timed out) raised again with the
        worker's and uvicorn's last lines, which say whether the bot's answer was taken, late or refused."""
        try:
            yield
        except (AssertionError, PlaywrightError) as error:
            raise AssertionError(
                f"{error}\n--- the worker's log:\n{self.worker.log(3000)}\n--- uvicorn's log:\n{self.web.log()}"
            ) from error


@pytest.fixture(scope="module", params=["embedded", "redis"])
def site(request, tmp_path_factory) -> Iterator[Site]:
    """The site under uvicorn with a worker, on the embedded broker or on Redis, shared by this module's tests."""
    redis = PrivateRedis() if request.param == "redis" else None
    env = {"CELERY_BROKER_URL": redis.url, "STREAMS_REDIS_URL": redis.url} if redis else {}
    site = Site(tmp_path_factory.mktemp(f"site-{request.param}"), **env)
    try:
        yield site
    finally:
        site.close()
        if redis is not None:
            redis.stop()


@pytest.fixture(scope="module")
def server(site) -> str:
    """The site's root (overrides the live server of conftest.py, which the ``browser`` fixture uses)."""
    return site.url


class Api:
    """The player's own API token (made on the tokens page, as a person would for a program of his)."""

    def __init__(self, page: Any, server: str) -> None:
        page.goto(f"{server}/tokens/")
        page.click("button[name=create]")
        token = page.inner_text("#new-token").strip()
        self.client = httpx.Client(
            base_url=f"{server}/api/v1/", headers={"Authorization": f"Token {token}"}, timeout=10
        )

    def bot_game(self) -> int:
        """A started game of Palace (the shedding game): the player in seat 0, the basic bot in seat 1."""
        game = self.client.post("games/", json={"kind": "palace", "seats": 2, "options": {"max_turns": 200}})
        assert game.status_code == 201, game.text
        game_id = int(game.json()["id"])
        for body in ({}, {"bot": "basic"}):
            seat = self.client.post(f"games/{game_id}/seats/", json=body)
            assert seat.status_code == 201, seat.text
        return game_id

    def latest(self, game_id: int):
        """The server's side of ``game_id`` (``play.Latest``), read through the API."""

        def latest(before: int) -> Latest:
            game = self.client.get(f"games/{game_id}/").json()
            bots = {row["seat"] for row in game["seats"] if row["bot"]}
            # One read of the log's tail: the entries after ``before`` (a few: a decision and the bot's answers)
            # end with the last one, whose time is the version's (entries written since come after it).
            after = max(0, min(before, game["version"] - 1))
            rows = self.client.get(f"games/{game_id}/events/", params={"after": after, "limit": 500}).json()["results"]
            written = [row for row in rows if row["seq"] <= game["version"]]
            assert written and written[-1]["seq"] == game["version"], "the log's tail did not reach the version"
            at = datetime.fromisoformat(written[-1]["created"].replace("Z", "+00:00")).timestamp()
            answers = sum(1 for row in written if row["actor"] in bots and row["seq"] > before)
            return Latest(version=game["version"], at=at, status=game["status"], bot_entries=answers)

        return latest

    def decide(self, game_id: int) -> None:
        """The player's decision made through the API (as from another device): the first legal one."""
        view = self.client.get(f"games/{game_id}/").json()
        legal = view["legal_actions"][0]
        body: dict[str, Any] = {"type": legal["type"], "expected_version": view["version"]}
        if legal.get("cards"):
            body["cards"] = legal["cards"][: max(1, legal.get("min_cards") or 1)]
        if legal["type"] == "choose_face_up":
            body["cards"] = legal["cards"][:3]
        answer = self.client.post(f"games/{game_id}/actions/", json=body)
        assert answer.status_code == 201, answer.text


def _player(browser: Any, server: str, name: str) -> tuple[Any, Any, Api]:
    context = browser.new_context()
    context.add_init_script(SHOWN_AT)
    page = context.new_page()
    sign_up(page, server, name, PASSWORD)
    return context, page, Api(page, server)


def test_the_streamed_page_keeps_up_with_a_bot_answering_at_once_200_times(site, server, browser):
    """Given a person plays the basic bot with the page following the stream, when the bot answers each decision
    at once, 200 times in a row, then each time the page shows the server's version within 3 s of its writing."""
    _, page, api = _player(browser, server, "ines")
    record = Record()
    started = time.monotonic()
    while record.answers < ANSWERS:
        assert time.monotonic() - started < 600, f"too slow: {record.summary()}"
        game_id = api.bot_game()
        page.goto(f"{server}/games/{game_id}/")
        page.wait_for_selector("html[data-live=stream]")
        with site.logs_on_failure():
            play_against_bot(page, api.latest(game_id), answers=ANSWERS, record=record)
    assert page.get_attribute("html", "data-live") in ("stream", "off")
    print(f"stream: {record.summary()} in {time.monotonic() - started:.0f} s")


def test_the_streamed_page_catches_up_after_the_network_drops_for_5_s(server, browser):
    """Given a person at the table, its page following the stream, when her network drops for 5 s while she
    decides from elsewhere and the bot answers, then within 3 s of the network's return the page shows the
    server's version (the stream broke: the page asks at once, and opens it again)."""
    context, page, api = _player(browser, server, "jill")
    game_id = api.bot_game()
    page.goto(f"{server}/games/{game_id}/")
    page.wait_for_selector("html[data-live=stream]")
    latest = api.latest(game_id)
    record = Record()
    play_against_bot(page, latest, answers=3, record=record)
    catch_up(page, latest, record)
    page.wait_for_selector("#table[data-turn=mine]")
    shown = version(page)
    context.set_offline(True)
    api.decide(game_id)
    page.wait_for_timeout(OFFLINE_SECONDS * 1000)
    assert version(page) == shown, "the page moved while offline"
    now = latest(shown)
    assert now.version > shown, "nothing happened while the page was offline"
    context.set_offline(False)
    back = time.time()
    page.wait_for_function(
        "([v]) => Number(document.getElementById('table').dataset.version) >= v", arg=[now.version], timeout=3_000
    )
    print(f"caught up {time.time() - back:.3f} s after the network came back")
    page.wait_for_selector("html[data-live=stream]", timeout=15_000)


def test_a_stream_that_does_not_open_falls_back_to_asking(server, browser):
    """Given a stream request that hangs (a proxy that buffers it, as runserver did), when the page has waited
    for it to open for 5 s, then it gives it up and asks for the table itself (and polls until it tries again)."""
    _, page, api = _player(browser, server, "kim")
    game_id = api.bot_game()
    page.route("**/api/v1/games/*/stream/**", lambda route: None)  # never answered
    asked: list[float] = []
    page.on("request", lambda request: asked.append(time.monotonic()) if "/live/" in request.url else None)
    # The page's 5 s start when it opens the stream, between these two: a loaded machine can take a second or
    # more to return from goto, so "at least 5 s" is counted from before it and "at most 8" from after it.
    started = time.monotonic()
    page.goto(f"{server}/games/{game_id}/")
    loaded = time.monotonic()
    with page.expect_request("**/live/**", timeout=10_000):
        pass
    assert asked[0] - started >= 5, f"asked {asked[0] - started:.1f} s after the page was asked for"
    assert asked[0] - loaded <= 8, f"asked {asked[0] - loaded:.1f} s after the page loaded"
    assert page.get_attribute("html", "data-live") == "poll"
