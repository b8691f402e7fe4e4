"""The ASGI server's synchronous views run in a pool of threads (``palace_api/threaded_views.py``): two requests'
views can be in progress at once, each from start to end in one thread, each closing its thread's connections
before and after it as Django's request signals would."""

from __future__ import annotations

import asyncio
import threading
from unittest import mock

from palace_api.threaded_views import ThreadedViewsASGIHandler

BOUND = 10.0
"""Seconds the two views wait for each other at most: a bound on the test, not a measurement."""


def test_two_views_are_in_progress_at_once_each_in_one_thread() -> None:
    """Given a view that waits until a second request's view has started, when two requests run together, then
    both finish: with every view in one thread (Django's default) the first would wait alone until the bound."""
    both_in = threading.Barrier(2, timeout=BOUND)
    threads: list[tuple[int, int]] = []

    def view(request: object) -> str:
        start = threading.get_ident()
        both_in.wait()
        threads.append((start, threading.get_ident()))
        return "answer"

    handler = ThreadedViewsASGIHandler.__new__(ThreadedViewsASGIHandler)  # no middleware needed here
    wrapped = handler.make_view_atomic(view)

    async def two() -> list[str]:
        return list(await asyncio.gather(wrapped(object()), wrapped(object())))

    with mock.patch("palace_api.threaded_views.close_old_connections") as closed:
        assert asyncio.run(two()) == ["answer", "answer"]
    assert len(threads) == 2 and threads[0][0] != threads[1][0], "two threads"
    assert all(start == end for start, end in threads), "each view in one thread from start to end"
    assert closed.call_count == 4, "before and after each view, in its thread"


def test_requests_start_no_thread_each(db) -> None:
    """Django's handler would start two threads a request (a ``ThreadSensitiveContext``'s executor and its
    joiner); ours runs that work in asgiref's one long-lived thread: five requests in one event loop start at
    most the few threads of the pools, not ten or more."""
    started: list[str] = []
    real_start = threading.Thread.start

    def counting_start(self: threading.Thread) -> None:
        started.append(self.name)
        real_start(self)

    handler = ThreadedViewsASGIHandler()
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/v1/me/",
        "query_string": b"",
        "headers": [],
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1),
    }
    statuses: list[int] = []

    def receiver():  # the body once, then a client that stays until the answer is sent
        messages = iter([{"type": "http.request", "body": b"", "more_body": False}])

        async def receive() -> dict:
            message = next(messages, None)
            if message is None:
                await asyncio.sleep(BOUND)
                return {"type": "http.disconnect"}
            return message

        return receive

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    async def five() -> None:
        for _ in range(5):
            await handler(dict(scope), receiver(), send)

    with mock.patch.object(threading.Thread, "start", counting_start):
        asyncio.run(five())
    assert statuses == [401] * 5
    assert len(started) < 5, started
