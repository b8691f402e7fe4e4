"""Rematch (issue 26; README "Rematch"): once a game has finished, any seated human offers a rematch, every other
human seat accepts or declines (bots accept at once), and once all have accepted a new game of the same kind,
options and players starts, its seats rotated one place so that the first dealer (Palace Poker) or the first
player (Palace) changes, and both games are linked (``Game.rematch_of`` / ``Game.rematch``).

Every write locks the finished game's row first (``games.services.log.game_lock``), so two accepts that race
serialise: the second sees the offer accepted and the rematch made, and exactly one new game exists (the
one-to-one ``rematch_of`` makes a second impossible even where row locks are not, SQLite). An open offer lapses
``settings.REMATCH_OFFER_SECONDS`` after it was made (checked whenever it is read or answered) or when a player
leaves the finished table (``rematch_leave``); a game has one offer and one rematch at most.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game, GameStatus, RematchOffer, RematchStatus, Seat
from games.selectors.rematch import offer_lapse_due
from games.services.games import game_create, seat_take
from games.services.log import game_lock
from games.services.versions import view_changed_after_commit
from palace_api.errors import ConflictError, ErrorCode, ForbiddenError, NotFoundError


def _finished_game(game_id: int) -> Game:
    """The game, locked, if it has finished. Raises ``NotFoundError`` ``game_not_found``, ``ConflictError``
    ``game_in_progress`` / ``game_cancelled``."""
    game = game_lock(game_id)
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    if game.status == GameStatus.CANCELLED:
        raise ConflictError(ErrorCode.GAME_CANCELLED, "this game was cancelled: there is nothing to replay")
    if game.status != GameStatus.FINISHED:
        raise ConflictError(ErrorCode.GAME_IN_PROGRESS, "a rematch is offered once the game has finished")
    return game


def _seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).order_by("number"))


def _human_seat(seats: list[Seat], user: Any) -> int:
    seat = next((row.number for row in seats if row.player_id is not None and row.player_id == user.pk), None)
    if seat is None:
        raise ForbiddenError(ErrorCode.NOT_SEATED, "only a player of this game answers its rematch")
    return seat


def _open_offer(game: Game) -> RematchOffer:
    """The game's open offer, locked with the game. Raises ``NotFoundError`` ``rematch_not_found`` and
    ``ConflictError`` ``rematch_closed`` (accepted, declined or lapsed)."""
    offer = RematchOffer.objects.filter(game=game).first()
    if offer is None:
        raise NotFoundError(ErrorCode.REMATCH_NOT_FOUND, "nobody offered a rematch of this game")
    # An expired offer is lapsed whether or not a row says so yet (the refusal rolls back any write).
    status = RematchStatus.LAPSED if offer_lapse_due(offer, now=timezone.now()) else offer.status
    if status != RematchStatus.OPEN:
        raise ConflictError(ErrorCode.REMATCH_CLOSED, f"the rematch offer is {status}", status=str(status))
    return offer


@transaction.atomic
def rematch_offer(*, user: Any, game_id: int) -> RematchOffer:
    """``user``, a human player of the finished game, offers a rematch: his seat and every bot's accept at once
    (with no other human, the rematch starts now). Raises the errors of ``_finished_game``, ``ForbiddenError``
    ``not_seated`` and ``ConflictError`` ``rematch_taken`` (the game already has an offer or a rematch)."""
    game = _finished_game(game_id)
    seats = _seats(game)
    seat = _human_seat(seats, user)
    if RematchOffer.objects.filter(game=game).exists() or Game.objects.filter(rematch_of=game).exists():
        raise ConflictError(ErrorCode.REMATCH_TAKEN, "this game already had its rematch offer")
    accepted = sorted({seat, *(row.number for row in seats if row.player_id is None)})
    offer = RematchOffer.objects.create(
        game=game,
        offered_by=seat,
        accepted=accepted,
        expires=timezone.now() + timedelta(seconds=settings.REMATCH_OFFER_SECONDS),
    )
    _start_if_all(game, seats, offer)
    return offer


@transaction.atomic
def rematch_answer(*, user: Any, game_id: int, accept: bool) -> RematchOffer:
    """``user`` accepts or declines the open offer. Accepting twice is accepting once; the last acceptance
    creates the rematch (``offer.game.rematch``). Raises the errors of ``_finished_game``, ``ForbiddenError``
    ``not_seated``, ``NotFoundError`` ``rematch_not_found`` and ``ConflictError`` ``rematch_closed``."""
    game = _finished_game(game_id)
    seats = _seats(game)
    seat = _human_seat(seats, user)
    offer = _open_offer(game)
    if not accept:
        offer.status, offer.answered_by = RematchStatus.DECLINED, seat
        offer.save(update_fields=["status", "answered_by"])
        return offer
    offer.accepted = sorted({*offer.accepted, seat})
    offer.save(update_fields=["accepted"])
    _start_if_all(game, seats, offer)
    return offer


@transaction.atomic
def rematch_leave(*, user: Any, game_id: int) -> RematchOffer:
    """``user`` leaves the finished table: an open offer lapses (a closed one stays as it is). Raises the errors
    of ``_finished_game``, ``ForbiddenError`` ``not_seated`` and ``NotFoundError`` ``rematch_not_found``."""
    game = _finished_game(game_id)
    seat = _human_seat(_seats(game), user)
    offer = RematchOffer.objects.filter(game=game).first()
    if offer is None:
        raise NotFoundError(ErrorCode.REMATCH_NOT_FOUND, "nobody offered a rematch of this game")
    if offer.status == RematchStatus.OPEN:
        offer.status, offer.answered_by = RematchStatus.LAPSED, seat
        offer.save(update_fields=["status", "answered_by"])
    return offer


def rotated(seats: list[Seat]) -> list[Seat]:
    """The old seats in the order of the new game's seats 0..n-1: one place on, so old seat 1 sits at seat 0
    (the first dealer in Palace Poker, the first to play in Palace) and old seat 0 last. For two seats, a swap."""
    return seats[1:] + seats[:1]


def _start_if_all(game: Game, seats: list[Seat], offer: RematchOffer) -> Game | None:
    """Create the rematch once every seat accepted: same kind, options, timeouts and players (bots with their
    policy), seats rotated (``rotated``), linked to ``game``; it starts as its last seat is taken."""
    if set(offer.accepted) != {row.number for row in seats}:
        return None
    options = {
        **game.options,
        "turn_timeout": game.turn_timeout,
        "max_timeouts": game.max_timeouts,
        "on_absent": game.on_absent,
    }
    new = game_create(creator=game.creator, kind=game.kind, seats=game.seat_count, options=options)
    new.rematch_of = game
    new.save(update_fields=["rematch_of"])
    view_changed_after_commit(game_id=game.pk)  # the finished game's view now links the rematch
    for number, old in enumerate(rotated(seats)):
        if old.player_id is None:
            seat_take(game_id=new.pk, player=game.creator, seat=number, bot=old.bot)
        else:
            seat_take(game_id=new.pk, player=old.player, seat=number)
    offer.status = RematchStatus.ACCEPTED
    offer.save(update_fields=["status"])
    return new
