"""The Celery app ``palace_api``: configured from Django's CELERY_* settings, tasks found in each app's tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "palace_api.settings")

app = Celery("palace_api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def route_task(
    name: str, args: object, kwargs: object, options: object, task: object = None, **kw: object
) -> dict | None:
    """Celery's router: webhook and mail deliveries go to their own queue (``WEBHOOK_DELIVERY_QUEUE``, default
    ``webhooks``), served by a worker of their own, so a receiver or mail server that hangs for its whole timeout
    holds no process a bot's move or a turn timeout waits for. Everything else takes the default queue."""
    from django.conf import settings

    queue = getattr(settings, "WEBHOOK_DELIVERY_QUEUE", "")
    if name in ("webhooks.tasks.deliver", "notifications.tasks.deliver") and queue:
        return {"queue": queue}
    return None
