"""The test runs' own queues on the configured broker."""

from __future__ import annotations


def drop_queue(name: str) -> None:
    """Empty and delete a throwaway queue on the broker, so test runs leave no messages or bindings behind
    (the embedded broker's file is the one ``palace.py run`` uses; Redis may outlive many runs).

    Kombu deletes only the bindings its channel knows of, so the queue is declared on this channel first, with
    the exchange and routing key Celery gives a default queue (both named after it).
    """
    from kombu import Exchange, Queue

    from palace_api.celery import app

    with app.connection_for_write() as connection:
        queue = Queue(name, Exchange(name, type="direct"), routing_key=name).bind(connection.default_channel)
        queue.declare()
        queue.purge()
        queue.delete()
