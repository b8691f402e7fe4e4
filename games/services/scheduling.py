"""What must happen after a commit: bot decisions, prompt turn timeouts and the news of the change for other
apps (``webhooks.tasks.game_changed``), sent to Celery by name.

Tasks are sent by name (``games.tasks.*``) so the services need not import the task layer above
them. Each task carries the version it was queued for and does nothing once the game has moved on.
"""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.db import transaction

BOT_MOVE = "games.tasks.bot_move"
APPLY_TIMEOUT = "games.tasks.apply_timeout"
GAME_CHANGED = "webhooks.tasks.game_changed"


def after_commit(*, game_id: int, version: int, bot_to_act: bool, timeout: int | None) -> None:
    """Queue, once the transaction commits, the bot's decision or a countdown for the human's deadline, and
    ``GAME_CHANGED`` (the game is at ``version``), which a broker error never turns into a failed request.

    ``timeout``: seconds until the deadline (``None``: no deadline). Countdowns longer than
    ``settings.TIMEOUT_COUNTDOWN_MAX`` are left to the periodic sweeper: the broker would redeliver
    a task held longer than its visibility timeout again and again.
    """
    if bot_to_act:
        transaction.on_commit(lambda: current_app.send_task(BOT_MOVE, args=[game_id, version]))
    elif timeout is not None and timeout <= settings.TIMEOUT_COUNTDOWN_MAX:
        # One second late rather than early: the task re-checks the deadline and does nothing before it.
        transaction.on_commit(
            lambda: current_app.send_task(APPLY_TIMEOUT, args=[game_id, version], countdown=timeout + 1)
        )
    transaction.on_commit(lambda: current_app.send_task(GAME_CHANGED, args=[game_id, version]), robust=True)
