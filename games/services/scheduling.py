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

from django.db import transaction

from games.bot_levels import SLOW_BOTS
from games.services import fanout
from outbox.broker import countdown_fits, send_after_commit

BOT_MOVE = "games.tasks.bot_move"
SLOW_BOT_MOVE = "games.tasks.slow_bot_move"
"""The same move as ``BOT_MOVE``, on the slow queue (``palace_api.celery.route_task``): a search bot's."""
APPLY_TIMEOUT = "games.tasks.apply_timeout"
GAME_CHANGED = "webhooks.tasks.game_changed"


def bot_move_task(bots: list[str]) -> str:
    """The task that moves for ``bots`` (the bots that may act): ``SLOW_BOT_MOVE`` if any of them thinks long
    (``games.bot_levels.SLOW_BOTS``), so no search ever runs on the queue basic bots and timeouts share."""
    return SLOW_BOT_MOVE if any(bot in SLOW_BOTS for bot in bots) else BOT_MOVE


def after_commit(*, game_id: int, version: int, bots_to_act: list[str], timeout: int | None) -> None:
    """Queue, once the transaction commits, the bot's decision (``bots_to_act``: the bots that may act now, none
    for a human's decision; see ``bot_move_task``) or a countdown for the human's deadline, and ``GAME_CHANGED``
    (the game is at ``version``), which a broker error never turns into a failed request.

    ``timeout``: seconds until the deadline (``None``: no deadline). Countdowns that do not fit
    (``outbox.broker.countdown_fits``) are left to the periodic sweeper: the broker would redeliver
    a task held longer than its visibility timeout again and again.
    """
    if bots_to_act:
        send_after_commit(bot_move_task(bots_to_act), [[game_id, version]])
    elif timeout is not None and countdown_fits(timeout):
        # One second late rather than early: the task re-checks the deadline and does nothing before it.
        send_after_commit(APPLY_TIMEOUT, [[game_id, version]], countdown=timeout + 1)
    send_after_commit(GAME_CHANGED, [[game_id, version]])


def announce_after_commit(*, game_id: int, version: int, players: list[int | None]) -> None:
    """Tell open live streams, once the transaction commits, that ``game_id`` reached ``version``
    (``games.services.fanout``; nothing is sent without Redis). ``robust``: an error is logged, never raised."""
    transaction.on_commit(
        lambda: fanout.announce(game_id=game_id, version=version, players=players),
        robust=True,
    )
