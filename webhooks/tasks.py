"""Celery tasks of the webhooks app: fetch by id, call one service. Each is idempotent (a cursor or a
compare-and-set guards it), so a task delivered twice does its work once."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from webhooks.services.delivery import deliveries_sweep, message_deliver
from webhooks.services.dispatch import game_changes_announce

TRANSIENT = (OperationalError, InterfaceError)
RETRY = {"autoretry_for": TRANSIENT, "retry_backoff": True, "retry_backoff_max": 30, "max_retries": 5}


@shared_task(name="webhooks.tasks.game_changed", acks_late=True, reject_on_worker_lost=True, **RETRY)
def game_changed(game_id: int, version: int) -> int:
    """Sent by games after each committed change: make the messages its log owes up to ``version``."""
    return game_changes_announce(game_id=game_id, version=version)


# A hard limit well above one attempt's timeouts: a receiver that trickles its answer cannot hold a worker.
@shared_task(name="webhooks.tasks.deliver", acks_late=True, reject_on_worker_lost=True, time_limit=120, **RETRY)
def deliver(message_id: int) -> bool:
    """One attempt of a message, if it is due."""
    return message_deliver(message_id=message_id)


@shared_task(name="webhooks.tasks.sweep_deliveries", acks_late=True, reject_on_worker_lost=True, **RETRY)
def sweep_deliveries() -> int:
    """The periodic sweeper: sends the deliveries whose retry is due or whose task was lost."""
    return deliveries_sweep()
