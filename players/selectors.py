"""Reads of players."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from knox.models import get_token_model

from players.models import Player, StreamGrant


def player_for_user(*, user: AbstractBaseUser | AnonymousUser) -> Player | None:
    """The user's Player profile, or None (staff accounts, anonymous users)."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user_id=user.pk).first()


def tokens_of(*, user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The user's API tokens, newest first: ``key`` (the lookup prefix, not a credential), ``created``,
    ``expiry`` (``None``: never)."""
    rows = get_token_model().objects.filter(user_id=user.pk).order_by("-created")
    return [{"key": row.token_key, "created": row.created, "expiry": row.expiry} for row in rows]


def stream_grant_session(*, grant_id: Any, user: AbstractBaseUser) -> str | None:
    """The session key behind ``user``'s stream grant ``grant_id`` (``players.models.StreamGrant``), or None
    when there is no such grant of that user (or ``grant_id`` is no id at all)."""
    if not isinstance(grant_id, int):
        return None
    return StreamGrant.objects.filter(pk=grant_id, user_id=user.pk).values_list("session_key", flat=True).first()
