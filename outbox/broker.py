"""Handing work to Celery: the one way every app sends a task after its commit, and the one retry policy of tasks.

Tasks are sent by name, so a service never imports the task layer above it. Sending is a hint, never the record:
what is due is in the database (a pending delivery, ``Seat.to_act``, ``Game.deadline``) and a periodic sweeper
finds what a lost message was for. So a broker error is logged and never fails the commit it follows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
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


def send_after_commit(
    name: str,
    args_list: Sequence[list[Any]],
    *,
    countdown: float | None = None,
    on_lost: Callable[[Sequence[list[Any]]], None] | None = None,
) -> None:
    """Once the current transaction commits (at once outside one), send ``name`` once per entry of ``args_list``.

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

    transaction.on_commit(send, robust=True)


def countdown_fits(seconds: float) -> bool:
    """Whether a task ``seconds`` away may wait in the broker as a countdown: longer ones are left to a sweeper,
    as Redis hands a task held past its visibility timeout to another worker (``TIMEOUT_COUNTDOWN_MAX``)."""
    return seconds <= settings.TIMEOUT_COUNTDOWN_MAX
