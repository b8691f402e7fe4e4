"""A game's lifecycle outside its decisions: resigning a running match, leaving a table that has not
started, cancelling a game that has not started. Each is one entry of the game's log, written with the
game row locked, or nothing at all."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.engine.protocol import Action
from games.models import Event, Game, GameStatus, Seat
from games.selectors.state import game_state
from games.services.actions import ActionResult, action_result
from games.services.log import append_action, append_rows, game_lock, seat_of
from palace_api.errors import ConflictError, ErrorCode, ForbiddenError, NotFoundError


def _closed(game: Game) -> None:
    """Refuse a finished or cancelled game: ``ConflictError`` ``game_finished`` / ``game_cancelled``."""
    if game.status == GameStatus.FINISHED:
        raise ConflictError(ErrorCode.GAME_FINISHED, "the game is over")
    if game.status == GameStatus.CANCELLED:
        raise ConflictError(ErrorCode.GAME_CANCELLED, "this game was cancelled")


@transaction.atomic
def game_resign(*, user: AbstractBaseUser, game_id: int) -> ActionResult:
    """The caller leaves his running match for good: the engine's ``resign`` action for his seat, in turn
    or not (Palace Poker: ``games.engine.poker.resign``, palace-poker.txt "Fold"; the shedding game:
    ``games.engine.shedding.resign``, out and ranked last). A seat the bot plays after ``max_timeouts`` may
    resign too. Returns the new version and the entries written, redacted for the caller.

    Raises ``NotFoundError("game_not_found")``, ``ForbiddenError("not_seated")``, ``ConflictError``
    (``game_not_started``, ``game_finished``, ``game_cancelled``) and ``EngineError("not_in_match")`` for a
    seat already out of the match (resigned, out of chips, or out of cards).
    """
    game = game_lock(game_id)
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    seat = seat_of(game, user)
    if seat is None:
        raise ForbiddenError(ErrorCode.NOT_SEATED, "you do not sit at this game")
    _closed(game)
    if game.status == GameStatus.WAITING:
        raise ConflictError(ErrorCode.GAME_NOT_STARTED, "the game waits for players: leave your seat instead")
    state = game_state(game)
    new_state, rows = append_action(game, state, Action(type="resign", seat=seat))
    return action_result(game, seat, new_state, rows)


def _waiting_game(game_id: int, *, creator: AbstractBaseUser | None = None) -> Game:
    """The game, locked, if it still waits for players (and ``creator`` created it, when given)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    if creator is not None and game.creator_id != creator.pk:
        raise ForbiddenError(ErrorCode.CREATOR_ONLY, "only the game's creator cancels it")
    _closed(game)
    if game.status != GameStatus.WAITING:
        raise ConflictError(ErrorCode.GAME_STARTED, "this game has started: resign instead")
    return game


@transaction.atomic
def seat_leave(*, user: AbstractBaseUser, game_id: int) -> int:
    """The caller leaves his seat at a game that has not started; the seat is free again. Logged as a
    ``seat_left`` entry (``{"seat", "player"}``). Returns the game's new version.

    Raises ``NotFoundError("game_not_found")``, ``ForbiddenError("not_seated")`` and ``ConflictError``
    (``game_started``, ``game_finished``, ``game_cancelled``).
    """
    game = _waiting_game(game_id)
    row = Seat.objects.filter(game=game, player=user).first()
    if row is None:
        raise ForbiddenError(ErrorCode.NOT_SEATED, "you do not sit at this game")
    number = row.number
    row.delete()
    entry = Event(
        game=game,
        seq=game.version + 1,
        kind="seat_left",
        actor=number,
        payload={"seat": number, "player": {"id": user.pk, "name": user.get_username()}},
    )
    append_rows(game, [entry])
    return game.version


@transaction.atomic
def game_cancel(*, user: AbstractBaseUser, game_id: int) -> Game:
    """The game's creator cancels it before it starts: status ``cancelled``, its seats closed for good.
    Logged as a ``game_cancelled`` entry (``{"by": {"id", "name"}}``). Returns the game.

    Raises ``NotFoundError("game_not_found")``, ``ForbiddenError("creator_only")`` and ``ConflictError``
    (``game_started``, ``game_finished``, ``game_cancelled``).
    """
    game = _waiting_game(game_id, creator=user)
    entry = Event(
        game=game,
        seq=game.version + 1,
        kind="game_cancelled",
        actor=None,
        payload={"by": {"id": user.pk, "name": user.get_username()}},
    )
    append_rows(game, [entry])
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    return game
