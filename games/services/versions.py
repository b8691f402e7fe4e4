"""Replacing the view versions' tokens (``games.selectors.versions``) once a write commits, and telling the live
streams (``games.services.fanout``).

Called by the one write path (``games.services.log``) for every append: actions, chance, seats taken and left,
timeouts, seats handed to a bot, resignations, cancellations. Each names the game and the players seated, whose
``me/turns/`` may have changed with it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from games.selectors.state import remember_token
from games.selectors.versions import TOKEN_TTL, game_key, game_version_key, new_token, turns_key, versions_cache
from games.services import fanout
from palace_api.cache import RedisCache

logger = logging.getLogger(__name__)


def views_changed(*, game_id: int, players: Iterable[int | None]) -> bool:
    """Give game ``game_id`` and each of ``players`` (user ids; ``None`` for a bot seat, skipped) a new token,
    in one cache round trip. Returns whether it did: ``False`` without a shared cache or on a cache error
    (logged, never raised: the commit it follows stands, and ``TOKEN_TTL`` bounds how long a tag stays stale)."""
    return _renew(versions_cache(), game_id=game_id, players=players)


def _renew(
    cache: Any,
    *,
    game_id: int,
    players: Iterable[int | None],
    publish: tuple[str, str] | None = None,
    version: int | None = None,
) -> bool:
    """``views_changed`` on ``cache`` (``versions_cache()``, read once by the caller). ``version``: the game's
    version the renewal follows (a commit of its log), given by ``changed``: on a ``palace_api.cache.RedisCache``
    the game's token is then written with that version (``RedisCache.set_newer``), and if no newer version had
    renewed it first, this process may answer that token's game view from what it committed
    (``games.selectors.state.remember_token``). ``publish``: (channel, message) to PUBLISH after the tokens in the
    same round trip, given only with ``version`` on a ``RedisCache`` (``changed`` checks); ``False`` then means
    neither may have been done."""
    if cache is None:
        return False
    token = new_token()
    keys = [game_key(game_id), *(turns_key(player) for player in sorted({p for p in players if p}))]
    try:
        if version is not None and isinstance(cache, RedisCache):
            sent = time.monotonic()
            kept = cache.set_newer(
                keys[0],
                token,
                version_key=game_version_key(game_id),
                version=version,
                timeout=TOKEN_TTL,
                others=keys[1:],
                publish=publish,
            )
            if kept:
                remember_token(game_id, version, token, sent=sent)
        else:
            cache.set_many(dict.fromkeys(keys, token), timeout=TOKEN_TTL)
    except Exception:  # any cache or socket error: the request that committed must still succeed
        logger.warning("view versions: could not renew the tokens of game %s", game_id, exc_info=True)
        return False
    return True


def changed(*, game_id: int, version: int, players: Iterable[int | None]) -> None:
    """What each commit of game ``game_id`` (now at ``version``) owes Redis, in this order: new tokens for the game
    and ``players`` (``views_changed``; the game's with its version), then the live streams' announce
    (``games.services.fanout``), so that whoever hears the announce and asks again gets the new tags. One round trip
    when the shared cache can publish to the streams' Redis server (``fanout.reached_by``), else one each. Never
    raises; each failure is logged."""
    players = list(players)
    cache = versions_cache()
    if fanout.reached_by(cache):
        publish = (fanout.CHANNEL, fanout.message(game_id=game_id, version=version, players=players))
        if not _renew(cache, game_id=game_id, players=players, publish=publish, version=version):  # logged there
            fanout.failed(game_id, version)
        return
    _renew(cache, game_id=game_id, players=players, version=version)
    fanout.announce(game_id=game_id, version=version, players=players)


def changed_after_commit(*, game_id: int, version: int, players: Iterable[int | None]) -> None:
    """``changed`` once the caller's transaction commits (at once outside one); nothing if it rolls back.

    After the commit, never before: a reader that took the old token may read the database before the commit, and
    the new token is what makes the tag it handed out stale; a stream that hears the announce reads the log."""
    players = list(players)
    transaction.on_commit(lambda: changed(game_id=game_id, version=version, players=players), robust=True)


def view_changed_after_commit(*, game_id: int) -> None:
    """Give game ``game_id`` a new token once the caller's transaction commits (``views_changed``), for a change
    of its view that logs nothing in its log, and so moves no version and tells no stream: its rematch made (the
    view's ``rematch`` link). Nothing if the transaction rolls back."""
    transaction.on_commit(lambda: views_changed(game_id=game_id, players=()), robust=True)
