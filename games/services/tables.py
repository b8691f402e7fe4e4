"""A table opened from the new-table page in one step: the game, the creator's seat and the bots he asks for."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.models import Game
from games.services.games import game_create, seat_take


@transaction.atomic
def table_open(
    *,
    creator: AbstractBaseUser,
    kind: str,
    seats: int,
    options: dict[str, Any] | None = None,
    sit: bool = True,
    bots: list[str] | None = None,
    rated: bool = False,
) -> Game:
    """Create a game (``game_create``), seat the creator (``sit``) and then one bot per name in ``bots``
    (``seat_take``), all or nothing: the match starts if that fills every seat. ``rated`` as ``game_create``
    takes it. Raises what those two raise (``EngineError("unknown_bot")``, ``ConflictError("no_free_seat")``,
    ``ForbiddenError("unrated_account")``...), and then nothing is created."""
    game = game_create(creator=creator, kind=kind, seats=seats, options=options, rated=rated)
    if sit:
        seat_take(game_id=game.pk, player=creator)
    for name in bots or []:
        seat_take(game_id=game.pk, player=creator, bot=name)
    return game
