"""A game step by step, as one viewer could see it at each step: the replay of a finished hand."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from games.models import Event, Game
from games.selectors.read_models import event_json, game_seats, viewer_for
from games.selectors.state import engine_of, state_at
from games.selectors.words import log_lines, seat_names
from palace_api.errors import ErrorCode, NotFoundError


def game_replay_step(
    game: Game, user: AbstractBaseUser | AnonymousUser, *, step: int, public_only: bool = False
) -> dict[str, Any]:
    """``game`` after its first ``step`` log entries, as the caller could see it then.

    The view at each step is the engine's view of the state then, for the caller's viewer then: so a replay
    shows nothing he did not know at that moment, even where more came out later (``public_only``: see
    ``viewer_for``). Returns ``step``, ``steps`` (the log's length), ``viewer``, ``seats``, ``state`` (the
    engine's view, ``None`` before the match started), ``to_act``, ``entry`` (the log entry of this step,
    redacted for the caller) and ``lines`` (that entry in words, ``words.LogLine``s, by the game's own phrase
    table). Raises ``NotFoundError("step_not_found")`` outside 1..version.
    """
    if not 1 <= step <= game.version:
        raise NotFoundError(ErrorCode.STEP_NOT_FOUND, f"steps are numbered 1 to {game.version}")
    viewer = viewer_for(game, user, public_only=public_only)
    engine = engine_of(game)
    state = state_at(game, step)
    rows = list(Event.objects.filter(game=game, seq=step))  # this step's entry
    view = None if state is None else engine.view(state, viewer)
    seats = game_seats(game)
    entry = event_json(rows[-1], viewer)
    for row in seats:
        row["stack"] = None if view is None else view["seats"][row["seat"]].get("stack")
    return {
        "id": game.pk,
        "kind": game.kind,
        "step": step,
        "steps": game.version,
        "viewer": viewer,
        "seats": seats,
        "state": view,
        "to_act": [] if view is None else list(view["to_act"]),
        "legal_actions": [],
        "entry": entry,
        "lines": log_lines(game.kind, [entry], seat_names(seats)),
    }
