"""Celery tasks of notifications: call one service each. Both are idempotent (a claim on the mail, a record of
what was mailed), so a task delivered twice does its work once."""

from __future__ import annotations

from celery import shared_task

from notifications.services import mail_deliver, notifications_sweep
from notifications.services.delivery import MAILS
from outbox.broker import ATTEMPT_TIME_LIMIT, TASK_OPTIONS


@shared_task(name=MAILS.task, time_limit=ATTEMPT_TIME_LIMIT, **TASK_OPTIONS)
def deliver(mail_id: int) -> bool:
    """One attempt of a mail, if it is due."""
    return mail_deliver(mail_id=mail_id)


@shared_task(name="notifications.tasks.sweep", **TASK_OPTIONS)
def sweep() -> dict[str, int]:
    """The periodic sweeper (beat): makes the mails owed and re-sends lost deliveries."""
    return notifications_sweep()
