"""Celery tasks of notifications: call one service each. Both are idempotent (a claim on the mail, a record of
what was mailed), so a task delivered twice does its work once."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from notifications.services import mail_deliver, notifications_sweep

TRANSIENT = (OperationalError, InterfaceError)
RETRY = {"autoretry_for": TRANSIENT, "retry_backoff": True, "retry_backoff_max": 30, "max_retries": 5}


# A hard limit well above one attempt's EMAIL_TIMEOUT steps: a mail server that trickles cannot hold a worker.
@shared_task(name="notifications.tasks.deliver", acks_late=True, reject_on_worker_lost=True, time_limit=120, **RETRY)
def deliver(mail_id: int) -> bool:
    """One attempt of a mail, if it is due."""
    return mail_deliver(mail_id=mail_id)


@shared_task(name="notifications.tasks.sweep", acks_late=True, reject_on_worker_lost=True, **RETRY)
def sweep() -> dict[str, int]:
    """The periodic sweeper (beat): makes the mails owed and re-sends lost deliveries."""
    return notifications_sweep()
