"""Celery tasks: fetch by id, call one service. Each is idempotent (guarded by the game's version or
deadline under a row lock), acknowledged late and retried on transient database errors, so a task
redelivered after its worker died never applies a decision twice."""

from __future__ import annotations

from celery import shared_task

from games.services.review import review_advance
from games.services.scheduling import changed_relay
from games.services.turns import bot_move as bot_move_service
from games.services.turns import stalled_bots_sweep, timeout_apply, timeouts_sweep
from outbox.broker import TASK_OPTIONS


@shared_task(name="games.tasks.bot_move", **TASK_OPTIONS)
def bot_move(game_id: int, version: int, announce: bool = False) -> bool:
    """The bot to act in ``game_id`` decides, if the game is still at ``version``; with ``announce`` (sent after
    the commit that made ``version``), ``GAME_CHANGED`` for ``version`` is sent first."""
    if announce:
        changed_relay(game_id=game_id, version=version, countdown=None)
    return bot_move_service(game_id=game_id, version=version)


@shared_task(name="games.tasks.changed", **TASK_OPTIONS)
def changed(game_id: int, version: int, countdown: float | None = None) -> None:
    """What the commit of ``version`` owes besides its one message: ``GAME_CHANGED``, and the turn's countdown."""
    changed_relay(game_id=game_id, version=version, countdown=countdown)


@shared_task(name="games.tasks.slow_bot_move", **TASK_OPTIONS)
def slow_bot_move(game_id: int, version: int, announce: bool = False) -> bool:
    """``bot_move`` for a bot that thinks long (the search bot), sent to the slow queue (``SLOW_TASK_QUEUE``); with
    ``announce``, ``GAME_CHANGED`` for ``version`` is sent first."""
    if announce:
        changed_relay(game_id=game_id, version=version, countdown=None)
    return bot_move_service(game_id=game_id, version=version)


@shared_task(name="games.tasks.apply_timeout", **TASK_OPTIONS)
def apply_timeout(game_id: int, version: int) -> bool:
    """The countdown for one deadline: applies the default action if it is due and the game has not moved."""
    return timeout_apply(game_id=game_id, version=version)


@shared_task(name="games.tasks.sweep_timeouts", **TASK_OPTIONS)
def sweep_timeouts() -> int:
    """The periodic sweeper: applies every expired deadline."""
    return timeouts_sweep()


@shared_task(name="games.tasks.sweep_stalled_bots", **TASK_OPTIONS)
def sweep_stalled_bots() -> int:
    """The periodic sweeper of bot decisions whose message was lost: each such bot moves, once."""
    return stalled_bots_sweep()


@shared_task(name="games.tasks.review_game", **TASK_OPTIONS)
def review_game(review_id: int) -> bool:
    """One batch of a game's review (on the slow queue); queues the next batch itself until the review is done."""
    return review_advance(review_id=review_id)
