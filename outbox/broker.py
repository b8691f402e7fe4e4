"""Handing work to Celery: the one way every app sends a task after its commit, and the one retry policy of tasks.

Tasks are sent by name, so a service never imports the task layer above it. Sending is a hint, never the record:
what is due is in the database (a pending delivery, ``Seat.to_act``, ``Game.deadline``) and a periodic sweeper
finds what a lost message was for. So a broker error is logged and never fails the commit it follows.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction

logger = logging.getLogger(__name__)

TRANSIENT = (OperationalError, InterfaceError)
TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 5,
}
"""Every task's options: acknowledged after it ran, requeued if its worker dies, retried with backoff (at most
5 times, 30 s apart at most) when the database drops its connection. So every task must be safe to run twice."""

ATTEMPT_TIME_LIMIT = 120
"""Seconds a delivery task may run before Celery kills it: well above one attempt's timeouts, so a receiver or
mail server that trickles its answer cannot hold a worker. A claim on a delivery lasts as long."""


def publish(name: str, *, args: list[Any], countdown: float | None = None) -> bool:
    """Send the task ``name`` with ``args`` now (``countdown`` seconds later if given); on any broker error log
    it and return ``False``. Never raises."""
    try:
        current_app.send_task(name, args=args, countdown=countdown)
    except Exception:  # any transport's error: the commit it follows must stand
        logger.warning("could not publish %s%s; the sweeper will recover it", name, args, exc_info=True)
        return False
    return True


BACKGROUND_PENDING_MAX = 1000
"""Hints waiting at most for the sending thread (``in_background``); beyond, a hint is dropped with a warning (the
broker is down or slow, and each waits on it): the sweepers recover what it was for."""

_sender: ThreadPoolExecutor | None = None
_sender_lock = threading.Lock()
_pending = 0


def _run_hint(hint: Callable[[], Any]) -> None:
    global _pending
    try:
        hint()
    except Exception:  # a hint never raises by contract; should one, the sweepers recover what it was for
        logger.exception("a hint sent after a commit failed")
    finally:
        with _sender_lock:
            _pending -= 1


def in_background(hint: Callable[[], Any]) -> None:
    """Run ``hint`` (a publish, an announce: a call that never raises and whose loss a sweeper recovers) on this
    process's one sending thread, in the order given, when ``settings.HINTS_IN_BACKGROUND`` is on; else now.

    Why: after an action's commit, what it owes the broker and the live streams is a hint (module docstring), and
    sending it took a request two or three Redis round trips and Celery's message building before its answer
    (``benchmarks/README.md``, bench_http). The thread sends it just after. What a process that dies first had not
    sent is lost as a message lost to a broker outage is, and recovered the same way; at the interpreter's exit
    the thread sends what is pending. Never raises.
    """
    global _sender, _pending
    if not getattr(settings, "HINTS_IN_BACKGROUND", False):
        hint()
        return
    with _sender_lock:
        if _pending >= BACKGROUND_PENDING_MAX:
            logger.warning("%s hints wait to be sent: one dropped; the sweeper will recover it", _pending)
            return
        if _sender is None:
            _sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palace-hints")
        _pending += 1
    try:
        _sender.submit(_run_hint, hint)
    except RuntimeError:  # the interpreter is shutting down: send it here
        _run_hint(hint)


def send_after_commit(
    name: str,
    args_list: Sequence[list[Any]],
    *,
    countdown: float | None = None,
    on_lost: Callable[[Sequence[list[Any]]], None] | None = None,
    background: bool = False,
) -> None:
    """Once the current transaction commits (at once outside one), send ``name`` once per entry of ``args_list``
    (``background``: through ``in_background``, for a hint whose loss a sweeper recovers).

    The first broker error stops the sending: the broker is down, and each further try would wait for it too.
    ``on_lost`` is then called with the entries not sent (those its sweeper will recover). Never raises.
    """
    if not args_list:
        return
    entries = list(args_list)

    def send() -> None:
        for index, args in enumerate(entries):
            if not publish(name, args=args, countdown=countdown):
                if on_lost is not None:
                    on_lost(entries[index:])
                return

    transaction.on_commit((lambda: in_background(send)) if background else send, robust=True)


def countdown_fits(seconds: float) -> bool:
    """Whether a task ``seconds`` away may wait in the broker as a countdown: longer ones are left to a sweeper,
    as Redis hands a task held past its visibility timeout to another worker (``TIMEOUT_COUNTDOWN_MAX``)."""
    return seconds <= settings.TIMEOUT_COUNTDOWN_MAX
