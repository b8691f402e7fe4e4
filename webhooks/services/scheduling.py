"""Sending delivery tasks by name once the transaction that made their messages commits.

Sent with ``robust=True``: a broker that fails to take a task never fails the write that made the message; the
message stays due and the periodic sweeper (``webhooks.tasks.sweep_deliveries``) sends it again.
"""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.db import transaction

DELIVER = "webhooks.tasks.deliver"


def deliver_after_commit(message_ids: list[int], *, countdown: float | None = None) -> None:
    """Queue one delivery task per message after the commit, ``countdown`` seconds later (``None``: now)."""
    if not message_ids:
        return

    def send() -> None:
        for message_id in message_ids:
            current_app.send_task(DELIVER, args=[message_id], countdown=countdown)

    transaction.on_commit(send, robust=True)


def countdown_fits(delay: float) -> bool:
    """Whether a retry ``delay`` seconds away may wait in the broker as a countdown task: longer ones are left
    to the sweeper (Redis would hand out a task held past its visibility timeout again)."""
    return delay <= settings.TIMEOUT_COUNTDOWN_MAX
