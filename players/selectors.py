"""Reads of players."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from players.models import Player


def player_for_user(*, user: AbstractBaseUser | AnonymousUser) -> Player | None:
    """The user's Player profile, or None (staff accounts, anonymous users)."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user_id=user.pk).first()
