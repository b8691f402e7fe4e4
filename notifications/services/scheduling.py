"""Delivery tasks sent to Celery by name after the commit (services never import the task layer above them).

Sending is a hint, never the record: a pending ``Mail`` is in the database, and the periodic sweeper
(``notifications.tasks.sweep``) sends a delivery task for any whose task was lost. So a broker error after a
commit is logged, and whatever committed (a game move never does: mails are made by the sweeper) stands.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction

DELIVER = "notifications.tasks.deliver"

logger = logging.getLogger(__name__)


def publish_delivery(mail_id: int) -> bool:
    """Send ``DELIVER`` for ``mail_id`` now; on any broker error log it and return ``False``. Never raises."""
    try:
        current_app.send_task(DELIVER, args=[mail_id])
    except Exception:  # any transport's error: the sweeper sends it again later
        logger.warning("could not publish %s(%s); the sweeper will", DELIVER, mail_id, exc_info=True)
        return False
    return True


def deliver_after_commit(mail_id: int) -> None:
    """Queue the delivery of ``mail_id`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish_delivery(mail_id))
