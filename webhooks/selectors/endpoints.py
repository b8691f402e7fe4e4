"""Reads of endpoints and their attempts."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from games.models import Game, GameStatus
from palace_api.errors import NotFoundError
from webhooks.models import Attempt, Endpoint

WEBHOOK_NOT_FOUND = "webhook_not_found"


def endpoints_of(user: AbstractBaseUser) -> QuerySet[Endpoint]:
    """The caller's endpoints, oldest first."""
    return Endpoint.objects.filter(user=user).order_by("id")


def endpoint_of(user: AbstractBaseUser, endpoint_id: int) -> Endpoint:
    """The caller's endpoint ``endpoint_id``; another player's and a missing one both raise
    ``NotFoundError("webhook_not_found")``, so nothing tells them apart."""
    found = Endpoint.objects.filter(user=user, pk=endpoint_id).first()
    if found is None:
        raise NotFoundError(WEBHOOK_NOT_FOUND, "no such webhook")
    return found


def recent_attempts(endpoint: Endpoint, *, limit: int) -> list[Attempt]:
    """The endpoint's last ``limit`` attempts, newest first, with their messages."""
    return list(Attempt.objects.filter(endpoint=endpoint).select_related("message").order_by("-at", "-id")[:limit])


def listening_endpoints(user_ids: list[int]) -> list[Endpoint]:
    """The enabled endpoints of these players."""
    return list(Endpoint.objects.filter(user_id__in=user_ids, disabled_at__isnull=True).order_by("id"))


def has_listeners(game_id: int) -> bool:
    """Whether a player seated at ``game_id`` has an enabled endpoint: one cheap query for every game change."""
    return Endpoint.objects.filter(user__seats__game_id=game_id, disabled_at__isnull=True).exists()


def has_endpoints(user: AbstractBaseUser) -> bool:
    """Whether ``user`` has an endpoint, enabled or not (what ``Player.news_wanted`` records)."""
    return Endpoint.objects.filter(user=user).exists()


def running_games(user: AbstractBaseUser) -> list[tuple[int, int]]:
    """``(game id, version)`` of each game ``user`` sits at that is not over (waiting or active)."""
    games = Game.objects.filter(seats__player=user, status__in=[GameStatus.WAITING, GameStatus.ACTIVE])
    return list(games.order_by("pk").values_list("pk", "version").distinct())
