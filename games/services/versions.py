"""Replacing the view versions' tokens (``games.selectors.versions``) once a write commits.

Called by the one write path (``games.services.log``) for every append: actions, chance, seats taken and left,
timeouts, seats handed to a bot, resignations, cancellations. Each names the game and the players seated, whose
``me/turns/`` may have changed with it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from games.selectors.versions import TOKEN_TTL, game_key, new_token, turns_key, versions_cache

logger = logging.getLogger(__name__)


def views_changed(*, game_id: int, players: Iterable[int | None]) -> bool:
    """Give game ``game_id`` and each of ``players`` (user ids; ``None`` for a bot seat, skipped) a new token,
    in one cache round trip. Returns whether it did: ``False`` without a shared cache or on a cache error
    (logged, never raised: the commit it follows stands, and ``TOKEN_TTL`` bounds how long a tag stays stale)."""
    cache = versions_cache()
    if cache is None:
        return False
    token = new_token()
    keys = [game_key(game_id), *(turns_key(player) for player in sorted({p for p in players if p}))]
    try:
        cache.set_many(dict.fromkeys(keys, token), timeout=TOKEN_TTL)
    except Exception:  # any cache or socket error: the request that committed must still succeed
        logger.warning("view versions: could not renew the tokens of game %s", game_id, exc_info=True)
        return False
    return True


def views_changed_after_commit(*, game_id: int, players: Iterable[int | None]) -> None:
    """``views_changed`` once the caller's transaction commits (at once outside one); nothing if it rolls back.

    After the commit, never before: a reader that took the old token may read the database before the commit, and
    the new token is what makes the tag it handed out stale."""
    players = list(players)
    transaction.on_commit(lambda: views_changed(game_id=game_id, players=players), robust=True)
