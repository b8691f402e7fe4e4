"""The Celery app ``palace_api``: configured from Django's CELERY_* settings, tasks found in each app's tasks.py."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import task_failure
from kombu.transport import sqlalchemy as sqlalchemy_transport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "palace_api.settings")

app = Celery("palace_api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

EMBEDDED_BROKER_POLLING_INTERVAL = 0.1
"""Seconds between a worker's polls of the embedded broker's queue table for new tasks: a bot's answer waits for
the next poll. kombu's default, 1 s, made bots answer in about a second; ten small queries a second on a local
SQLite file cost nothing noticeable."""

# kombu's SQLAlchemy transport hands every transport option to create_engine, which refuses
# ``polling_interval``; the transport's class attribute is the one place the interval can be set.
sqlalchemy_transport.Transport.polling_interval = EMBEDDED_BROKER_POLLING_INTERVAL


task_log = logging.getLogger("palace.tasks")


@task_failure.connect
def log_task_failure(
    sender: Any = None, task_id: str | None = None, exception: BaseException | None = None, **kwargs: Any
) -> None:
    """Every task that fails (after its retries, or with an error it does not retry) is logged on
    ``palace.tasks`` with its arguments and traceback, to stderr (settings.LOGGING), whatever the worker's
    own log level."""
    name = getattr(sender, "name", sender)
    task_log.error(
        "task %s [%s] failed with args=%r kwargs=%r",
        name,
        task_id,
        kwargs.get("args"),
        kwargs.get("kwargs"),
        exc_info=(type(exception), exception, exception.__traceback__) if exception is not None else None,
    )


SLOW_TASKS = ("games.tasks.slow_bot_move", "games.tasks.review_game")
"""Tasks that run for a quarter of a second or more: the search bot's move and a review's batch of decisions."""


def route_task(
    name: str, args: object, kwargs: object, options: object, task: object = None, **kw: object
) -> dict | None:
    """Celery's router: webhook and mail deliveries go to their own queue (``WEBHOOK_DELIVERY_QUEUE``, default
    ``webhooks``), served by a worker of their own, so a receiver or mail server that hangs for its whole timeout
    holds no process a bot's move or a turn timeout waits for. The search bot's moves and reviews go to
    ``SLOW_TASK_QUEUE`` (default ``slow``) for the same reason: a search thinks for 250 ms. Everything else
    takes the default queue. An empty queue name sends those tasks to the default queue too (the tests do)."""
    from django.conf import settings

    queue = getattr(settings, "WEBHOOK_DELIVERY_QUEUE", "")
    if name in ("webhooks.tasks.deliver", "notifications.tasks.deliver") and queue:
        return {"queue": queue}
    slow = getattr(settings, "SLOW_TASK_QUEUE", "")
    if name in SLOW_TASKS and slow:
        return {"queue": slow}
    return None
