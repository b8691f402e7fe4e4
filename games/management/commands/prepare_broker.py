"""``manage.py prepare_broker``: declare the task queues once, before the worker, beat and web server start."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from kombu import Exchange, Queue

from palace_api.celery import app


class Command(BaseCommand):
    help = (
        "Declare Celery's task queues (the default one and the slow one) on the broker, so the processes "
        "started next find them there."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # On a fresh broker the worker, beat and the web server each declare the queue on first use. Kombu's
        # SQLAlchemy transport (the embedded default) creates its tables and the queue's row without handling a
        # concurrent creation, so three processes starting together can crash the worker with an IntegrityError.
        # Declaring once here, alone, leaves them nothing to race on.
        # The slow queue's worker starts beside the others too (palace.py run): its queue is declared here as well.
        queues = list(app.amqp.queues.values())
        if settings.SLOW_TASK_QUEUE:
            name = settings.SLOW_TASK_QUEUE
            queues.append(Queue(name, Exchange(name, type="direct"), routing_key=name))
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=10)
            channel = connection.default_channel
            names = []
            for queue in queues:
                queue.bind(channel).declare()
                names.append(queue.name)
        self.stdout.write(f"Broker ready: queue {', '.join(sorted(names))} declared")
