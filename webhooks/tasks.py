"""Celery tasks of the webhooks app: fetch by id, call one service. Each is idempotent (a cursor or a
compare-and-set guards it), so a task delivered twice does its work once."""

from __future__ import annotations

from celery import shared_task

from outbox.broker import ATTEMPT_TIME_LIMIT, TASK_OPTIONS
from outbox.services import deliveries_sweep
from webhooks.services.delivery import WEBHOOKS, message_deliver
from webhooks.services.dispatch import GAME_CHANGED, game_changes_announce


@shared_task(name=GAME_CHANGED, **TASK_OPTIONS)
def game_changed(game_id: int, version: int) -> int:
    """Sent by games after each committed change: make the messages its log owes up to ``version``."""
    return game_changes_announce(game_id=game_id, version=version)


@shared_task(name=WEBHOOKS.task, time_limit=ATTEMPT_TIME_LIMIT, **TASK_OPTIONS)
def deliver(message_id: int) -> bool:
    """One attempt of a message, if it is due."""
    return message_deliver(message_id=message_id)


@shared_task(name="webhooks.tasks.sweep_deliveries", **TASK_OPTIONS)
def sweep_deliveries() -> int:
    """The periodic sweeper: sends the deliveries whose retry is due or whose task was lost."""
    return deliveries_sweep(WEBHOOKS)
