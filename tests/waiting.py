"""Waiting in tests for what another thread or process does (a worker, a receiver), bounded in time."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], *, seconds: float = 20.0, what: str = "not done in time") -> None:
    """Return once ``condition()`` is true; raise ``AssertionError(what)`` after ``seconds``. Polls every 50 ms."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(what)
