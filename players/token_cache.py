"""A short-lived per-process memory of checked API tokens: token digest -> (user, token row), so a client's
next requests within ``AUTH_TOKEN_CACHE_SECONDS`` skip the token query.

Why a memory and not another token scheme: knox's check is a SHA-512 (about a microsecond) and a query joined
to the user (a database round trip and the ORM's work, about a quarter of a game request in the profile,
``benchmarks/README.md``); the query is the cost, so keeping its answer for a few seconds removes it while the
tokens, their digests at rest and their revocation stay knox's.

Revocation is honoured within the bound (README, "Accounts and tokens"):

- in the process that revokes a token, deactivates or deletes a user, at once: ``post_delete`` of a token and
  ``post_save``/``post_delete`` of a user drop their entries (``QuerySet.delete`` sends ``post_delete`` for
  each row too);
- in every other process (the other web workers), within ``AUTH_TOKEN_CACHE_SECONDS`` (default 5 s) of the
  change: an entry is trusted that long after the query that made it, then the token is checked again;
- an expiring (staff) token is never trusted past its ``expiry``.

Each request gets copies of the remembered rows, so no request sees another's changes to ``request.user``.
``AUTH_TOKEN_CACHE_SECONDS=0`` turns the memory off.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import timezone

MAX_ENTRIES = 10_000
"""Tokens remembered at most per process; a full memory drops its expired entries, then everything."""


class TokenCache:
    """digest -> (trusted until, on ``clock``; the user; the token row). Thread-safe: requests of one process
    run in several threads."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._entries: dict[str, tuple[float, Any, Any]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def seconds() -> float:
        """How long an entry is trusted (``AUTH_TOKEN_CACHE_SECONDS``); 0: not at all."""
        return float(getattr(settings, "AUTH_TOKEN_CACHE_SECONDS", 0))

    def get(self, digest: str) -> tuple[Any, Any] | None:
        """Copies of the (user, token row) remembered for ``digest``, or ``None`` if none is trusted now."""
        entry = self._entries.get(digest)
        if entry is None:
            return None
        until, user, token = entry
        if self.clock() >= until or (token.expiry is not None and token.expiry <= timezone.now()):
            self.forget(digest)
            return None
        user, token = copy.copy(user), copy.copy(token)
        token.user = user
        return user, token

    def put(self, digest: str, user: Any, token: Any) -> None:
        """Remember a token just checked against the database (copies of the rows, as they are now)."""
        seconds = self.seconds()
        if seconds <= 0:
            return
        user, token = copy.copy(user), copy.copy(token)
        token.user = user
        now = self.clock()
        with self._lock:
            if len(self._entries) >= MAX_ENTRIES:
                self._entries = {key: entry for key, entry in self._entries.items() if entry[0] > now}
                if len(self._entries) >= MAX_ENTRIES:
                    self._entries.clear()
            self._entries[digest] = (now + seconds, user, token)

    def forget(self, digest: str) -> None:
        with self._lock:
            self._entries.pop(digest, None)

    def forget_user(self, user_id: Any) -> None:
        """Drop every entry of the user ``user_id`` (deactivated, deleted, changed)."""
        with self._lock:
            self._entries = {key: entry for key, entry in self._entries.items() if entry[1].pk != user_id}

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


TOKENS = TokenCache()
"""This process's memory, used by ``players.auth.TokenAuthentication``."""


def _token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    TOKENS.forget(instance.digest)


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if TOKENS._entries:
        TOKENS.forget_user(instance.pk)


def connect_signals() -> None:
    """Drop entries when this process revokes a token or changes or deletes a user (``PlayersConfig.ready``)."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save
    from knox.models import get_token_model

    post_delete.connect(_token_deleted, sender=get_token_model(), dispatch_uid="players.token_cache.token")
    user_model = get_user_model()
    post_save.connect(_user_changed, sender=user_model, dispatch_uid="players.token_cache.user_saved")
    post_delete.connect(_user_changed, sender=user_model, dispatch_uid="players.token_cache.user_deleted")
