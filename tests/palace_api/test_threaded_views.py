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
