"""View versions: the entity tags of ``me/turns/`` and the game view, answered from a shared cache alone.

A poller that sends back the tag it was given gets a 304 without a single database query while nothing it sees
has changed. Each game and each player has a *version token* in the cache named by ``settings.VIEW_VERSIONS_CACHE``
(Redis in production, ``CACHE_URL``): a random string that every write which changes what the game's viewers or
the player's turns show replaces with a new one, after its transaction commits
(``games.services.versions.changed_after_commit``, called by the one write path, ``games.services.log``; and
``view_changed_after_commit`` for the one change a view shows without a log entry, a finished game's rematch).

Why this is right across processes (web servers, Celery workers):

- A reader takes the token *before* it reads the database, and a writer replaces it *after* its commit. So
  whatever a reader read under token ``t``, every commit it could have missed replaces ``t`` afterwards: the tag
  it handed out goes stale, never the answer under a tag still current.
- Tokens are random, never counters: two writers whose replacements land out of order still leave a token no
  reader saw before its last commit, and a token lost with the cache (eviction, a Redis restart) comes back as a
  new random one, which matches no tag handed out before.
- Each token lives ``TOKEN_TTL`` seconds at most (a write renews it): a replacement lost to a cache outage after
  a commit leaves a stale tag current for that long at most.
- On the project's Redis cache a commit's renewal writes the game's token only over an older version's
  (``game_version_key``; ``palace_api.cache.RedisCache.set_newer``): a renewal that lands after a later commit's
  leaves the later token. So a token a process wrote after its own commit names that commit until another
  commit's renewal lands, and the process may answer the game view from what it committed
  (``games.selectors.state.game_as_committed``).

Without a shared cache (``VIEW_VERSIONS_CACHE`` is ``None``: the per-process default, where a worker's writes
would never reach the web process's cache) every function here answers ``None`` and the views tag what they read
from the database, as before. A cache error also answers ``None``: the request reads the database.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import caches

TOKEN_TTL = 300
"""Seconds a version token lives (each write renews it): the longest a lost replacement can leave a tag current."""

logger = logging.getLogger(__name__)


def game_key(game_id: int) -> str:
    """The cache key of game ``game_id``'s version token."""
    return f"palace:view:game:{game_id}"


def game_version_key(game_id: int) -> str:
    """The cache key of the version of game ``game_id``'s last commit whose token was written
    (``palace_api.cache.RedisCache.set_newer``): a renewal that lands after a later commit's writes no token."""
    return f"palace:view:game-version:{game_id}"


def turns_key(player_id: int) -> str:
    """The cache key of the version token of player ``player_id``'s ``me/turns/``."""
    return f"palace:view:turns:{player_id}"


def new_token() -> str:
    """A fresh version token: 64 random bits, hex."""
    return secrets.token_hex(8)


def versions_cache() -> Any:
    """The shared cache that holds the tokens, or ``None`` without one (``settings.VIEW_VERSIONS_CACHE``)."""
    alias = getattr(settings, "VIEW_VERSIONS_CACHE", None)
    return None if alias is None else caches[alias]


def _token(key: str) -> str | None:
    """The token at ``key``, made (a new random one, ``TOKEN_TTL`` seconds) if absent; ``None`` without a shared
    cache or on a cache error. ``get_or_set`` adds only if absent, so two readers of a missing key agree."""
    cache = versions_cache()
    if cache is None:
        return None
    try:
        token = cache.get_or_set(key, new_token, timeout=TOKEN_TTL)
    except Exception:  # any cache or socket error: the caller reads the database instead
        logger.warning("view versions: cache unavailable, reading the database", exc_info=True)
        return None
    return None if token is None else str(token)


def game_token(game_id: int) -> str | None:
    """Game ``game_id``'s current version token (made if absent), or ``None`` (no shared cache, or a cache error).
    Take it before reading the game: see the module's docstring."""
    return _token(game_key(game_id))


def game_view_etag(game_id: int, user: AbstractBaseUser | AnonymousUser, token: str) -> str:
    """The entity tag of ``user``'s view of game ``game_id`` under the game's token ``token`` (``game_token``).

    Shape: ``"gv<game id>-<token>-u<user id>[s]"``: the viewer's own tag (``s``: staff, who see more when not
    seated), so one viewer's tag never answers another's request. No query: the caller's user is already loaded.
    """
    staff = "s" if getattr(user, "is_staff", False) else ""
    return f'"gv{game_id}-{token}-u{user.pk}{staff}"'


def turns_etag(user: AbstractBaseUser) -> str | None:
    """The entity tag of ``user``'s ``me/turns/`` under his current token, or ``None`` (no shared cache, or a
    cache error). Call it before reading the turns. Shape: ``"tv<user id>-<token>"``."""
    token = _token(turns_key(user.pk))
    return None if token is None else f'"tv{user.pk}-{token}"'
