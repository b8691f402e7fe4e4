"""What must happen after a commit: bot decisions, prompt turn timeouts and the news of the change for other
apps (``webhooks.tasks.game_changed``), sent to Celery by name through ``outbox.broker``.

Tasks are sent by name (``games.tasks.*``) so the services need not import the task layer above
them. Each task carries the version it was queued for and does nothing once the game has moved on.

Publishing is a hint, never the record: what is due is in the database (``Seat.to_act``,
``Game.deadline``), and the periodic sweepers (``games.services.turns``) find a bot decision or a
deadline whose message was lost, whether the broker was down at the commit or a worker died holding
it. So a broker error after a commit is logged and the request that committed still succeeds.
"""

from __future__ import annotations

from games.bot_levels import SLOW_BOTS
from outbox.broker import countdown_fits, publish, send_after_commit

BOT_MOVE = "games.tasks.bot_move"
SLOW_BOT_MOVE = "games.tasks.slow_bot_move"
"""The same move as ``BOT_MOVE``, on the slow queue (``palace_api.celery.route_task``): a search bot's."""
APPLY_TIMEOUT = "games.tasks.apply_timeout"
CHANGED = "games.tasks.changed"
GAME_CHANGED = "webhooks.tasks.game_changed"


def bot_move_task(bots: list[str]) -> str:
    """The task that moves for ``bots`` (the bots that may act): ``SLOW_BOT_MOVE`` if any of them thinks long
    (``games.bot_levels.SLOW_BOTS``), so no search ever runs on the queue basic bots and timeouts share."""
    return SLOW_BOT_MOVE if any(bot in SLOW_BOTS for bot in bots) else BOT_MOVE


def after_commit(*, game_id: int, version: int, bots_to_act: list[str], timeout: int | None, news: bool) -> None:
    """Queue, once the transaction commits, what the change at ``version`` owes: the bot's decision
    (``bots_to_act``: the bots that may act now, none for a human's decision; see ``bot_move_task``) or a
    countdown for the human's deadline, and ``GAME_CHANGED``. One message, whatever is owed: a publish costs the
    request about as much as a query, so what else is owed is sent by the worker that takes it
    (``changed_relay``). A broker error never turns into a failed request.

    - a bot decides next: ``BOT_MOVE`` (or ``SLOW_BOT_MOVE``) with ``announce`` set to ``news`` (the task then
      sends ``GAME_CHANGED``, then moves), so the bot answers with no extra hop;
    - a human's deadline whose countdown fits (``outbox.broker.countdown_fits``): ``CHANGED``, whose task
      sends ``GAME_CHANGED`` and the ``APPLY_TIMEOUT`` countdown, or without ``news`` the countdown itself.
      Longer countdowns are left to the periodic sweeper: the broker would redeliver a task held longer than its
      visibility timeout again and again;
    - otherwise ``GAME_CHANGED`` alone, if ``news``.

    ``news``: whether a seated player may listen to the game's news (``players.models.Player.news_wanted``, read
    with the game's lock). Most games have none: a ``GAME_CHANGED`` for them finds no listener and costs a publish
    and a worker's query for nothing. ``timeout``: seconds until the deadline (``None``: no deadline).
    """
    if bots_to_act:
        send_after_commit(bot_move_task(bots_to_act), [[game_id, version, news]])
    elif timeout is not None and countdown_fits(timeout):
        # One second late rather than early: the task re-checks the deadline and does nothing before it.
        if news:
            send_after_commit(CHANGED, [[game_id, version, timeout + 1]])
        else:
            send_after_commit(APPLY_TIMEOUT, [[game_id, version]], countdown=timeout + 1)
    elif news:
        send_after_commit(GAME_CHANGED, [[game_id, version]])


def changed_relay(*, game_id: int, version: int, countdown: float | None) -> None:
    """On a worker, what ``after_commit`` folded into one message: ``GAME_CHANGED`` for ``version``, and the
    ``APPLY_TIMEOUT`` countdown of ``countdown`` seconds if given. Never raises (``outbox.broker.publish``); a
    message lost here is recovered as one lost at the commit (the deadline sweeper, the webhooks' sweep)."""
    publish(GAME_CHANGED, args=[game_id, version])
    if countdown is not None:
        publish(APPLY_TIMEOUT, args=[game_id, version], countdown=countdown)
