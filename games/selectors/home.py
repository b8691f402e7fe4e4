"""The caller's games for a client's home screen (``GET me/games/``): no replay, only projections."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    BooleanField,
    Case,
    Exists,
    ExpressionWrapper,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone

from games.models import Event, Game, GameStatus, Seat
from games.selectors.due import PERSON_DUE, seconds_left

STATUS_ORDER = [GameStatus.ACTIVE, GameStatus.WAITING, GameStatus.FINISHED, GameStatus.CANCELLED]
"""How the list is grouped: running matches first, then tables filling up, then the past."""


def my_games(user: AbstractBaseUser, *, status: str | None = None) -> QuerySet[Game]:
    """Games the caller sits at or created (of ``status`` if given): active first, then waiting, finished,
    cancelled; within each, those where the decision is his first, then the most recently moved.

    Each game is annotated with the caller's ``my_seat`` (``None`` when he only created it), ``my_due`` (the
    entry the decision due from him is due since, ``games.selectors.due``; ``None``: none is), ``my_bot`` (the
    bot playing his seat after ``max_timeouts``, or ``""``) and ``my_resigned``.
    """
    mine = Seat.objects.filter(game=OuterRef("pk"), player=user)
    resigned = Event.objects.filter(game=OuterRef("pk"), kind="resign", actor=OuterRef("my_seat"))
    games = (
        Game.objects.filter(Q(id__in=Seat.objects.filter(player=user).values("game_id")) | Q(creator=user))
        .annotate(
            my_seat=Subquery(mine.values("number")[:1]),
            my_due=Subquery(mine.filter(PERSON_DUE).values("due_since")[:1]),
            my_bot=Subquery(mine.values("bot")[:1]),
        )
        .annotate(
            my_resigned=Exists(resigned),
            status_rank=Case(
                *(When(status=value, then=Value(rank)) for rank, value in enumerate(STATUS_ORDER)),
                output_field=IntegerField(),
            ),
        )
    )
    if status is not None:
        games = games.filter(status=status)
    not_mine = ExpressionWrapper(Q(my_due__isnull=True), output_field=BooleanField())
    return games.order_by("status_rank", not_mine, "-updated", "-id")


def my_game_row(game: Game, user: AbstractBaseUser) -> dict[str, Any]:
    """One entry of ``me/games/``: ``game``, ``kind``, ``status``, ``version``, ``seat_count``, ``seat``
    (the caller's, or ``None``), ``my_turn`` (the decision is his, not his bot's), ``played_by_bot``,
    ``resigned``, ``created_by_me``, ``deadline`` and ``seconds_left`` (of the current decision, or
    ``None``), ``updated``. ``game`` comes from ``my_games(user)``."""
    deadline = game.deadline if game.status == GameStatus.ACTIVE else None
    seat = game.my_seat  # type: ignore[attr-defined]
    bot = game.my_bot or ""  # type: ignore[attr-defined]
    return {
        "game": game.pk,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "seat": seat,
        "my_turn": game.my_due is not None,  # type: ignore[attr-defined]
        "played_by_bot": bot or None,
        "resigned": bool(game.my_resigned),  # type: ignore[attr-defined]
        "created_by_me": game.creator_id == user.pk,
        "deadline": deadline,
        "seconds_left": seconds_left(deadline, timezone.now()),
        "updated": game.updated,
    }
