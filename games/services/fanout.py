"""Telling open live streams that a game moved: one Redis pub/sub message per commit, when Redis is configured.

A message is a hint, never the record: a stream reads what it sends from the log, and re-reads the database
on its own every heartbeat, so a message lost to a Redis outage delays a stream by one heartbeat at most. Hence
a Redis error is logged and swallowed: it never fails the request that committed. Without Redis
(``settings.STREAMS_REDIS_URL`` is ``None``) nothing is sent: each web process polls the database instead
(``games.api.hub``).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from palace_api.cache import RedisCache

CHANNEL = "palace:games"
"""The pub/sub channel. Message: JSON ``{"game": id, "version": n, "players": [user ids seated]}``."""

QUIET_AFTER_ERROR = 5.0
"""Seconds without trying Redis after an error, so a dead Redis costs a request one timeout, not one per commit."""

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_client: Any = None
_client_url: str | None = None
_quiet_until = 0.0


def _redis(url: str) -> Any:
    global _client, _client_url
    with _lock:
        if _client is None or _client_url != url:
            import redis

            # Short timeouts: this runs in the request that committed, after its commit.
            _client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
            _client_url = url
        return _client


def message(*, game_id: int, version: int, players: Iterable[int | None]) -> str:
    """The pub/sub message that ``game_id`` reached ``version`` (see ``CHANNEL``)."""
    return json.dumps({"game": game_id, "version": version, "players": sorted({p for p in players if p})})


def reached_by(cache: Any) -> bool:
    """Whether ``cache`` may publish this process's announces itself (``games.services.versions.changed``: one
    round trip for the view versions and the announce): live streams use Redis, which has not failed in the last
    ``QUIET_AFTER_ERROR`` seconds, and ``cache`` is the project's Redis cache on the same server
    (``palace_api.cache.RedisCache.reaches``; docker-compose.yml's shape)."""
    url = settings.STREAMS_REDIS_URL
    return bool(url) and time.monotonic() >= _quiet_until and isinstance(cache, RedisCache) and cache.reaches(url)


def failed(game_id: int, version: int, *, exc_info: bool = False) -> None:
    """After the announce of ``game_id`` at ``version`` failed: logged, and none is tried for ``QUIET_AFTER_ERROR``
    seconds, so a dead Redis costs a request one timeout, not one per commit. ``exc_info``: log the error being
    handled (``False`` when the caller logged it already)."""
    global _quiet_until
    _quiet_until = time.monotonic() + QUIET_AFTER_ERROR
    logger.warning("could not announce game %s v%s to live streams", game_id, version, exc_info=exc_info)


def announce(*, game_id: int, version: int, players: Iterable[int | None]) -> bool:
    """Publish that ``game_id`` reached ``version``; ``players``: the user ids seated (``None`` for bots).

    Returns whether a message was sent. Never raises: no Redis configured, Redis quiet after a recent error, or
    any Redis error (logged) returns ``False``.
    """
    url = settings.STREAMS_REDIS_URL
    if not url or time.monotonic() < _quiet_until:
        return False
    try:
        _redis(url).publish(CHANNEL, message(game_id=game_id, version=version, players=players))
    except Exception:  # any Redis or socket error: the commit it follows must stand
        failed(game_id, version, exc_info=True)
        return False
    return True
