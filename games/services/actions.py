"""Submitting a decision: version checks, seat checks, the engine, and Idempotency-Key handling."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from games.engine.cards import parse_cards
from games.engine.errors import EngineError
from games.engine.protocol import Action
from games.models import Event, Game, GameStatus, IdempotencyKey, IdempotencyStatus
from games.selectors.read_models import event_json
from games.selectors.state import engine_of, game_state, remembered_game
from games.services.log import append_action, append_unlocked, game_lock, seat_bots, seat_of
from palace_api.errors import ConflictError, ErrorCode, ForbiddenError, NotFoundError, UnprocessableError


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What an accepted action answers: the game's new ``version`` and the log entries it added,
    redacted for the caller (``events``); ``replayed``: answered from a stored Idempotency-Key."""

    version: int
    events: list[dict[str, Any]]
    to_act: list[int]
    legal_actions: list[dict[str, Any]]
    replayed: bool = False

    def to_json(self) -> dict[str, Any]:
        """The response body: ``{"version", "events", "to_act", "legal_actions"}`` (the last two for the
        caller after his action, so a player who acts again, after a buy say, needs no new GET)."""
        return {
            "version": self.version,
            "events": self.events,
            "to_act": self.to_act,
            "legal_actions": self.legal_actions,
        }


def action_submit(
    *,
    user: AbstractBaseUser,
    game_id: int,
    type: str,
    cards: list[str] | None = None,
    target: int | None = None,
    amount: int | None = None,
    expected_version: int | None = None,
) -> ActionResult:
    """Apply the caller's decision in ``game_id`` and the shuffles it makes due, atomically.

    Without ``expected_version`` the version read when the request began is expected, so a request
    that raced another for the same decision gets a conflict rather than a decision it never saw. With it, a
    process that committed that version itself writes without the row lock, fenced on the version
    (``_submit_unlocked``); every other case, and every refusal, goes through the lock.
    Raises ``NotFoundError("game_not_found")``, ``ConflictError`` (``version_conflict`` with
    ``current_version``, ``game_not_started``, ``game_finished``, ``game_cancelled``), ``ForbiddenError``
    (``not_seated``, ``not_your_turn``, ``seat_played_by_bot``: handed to the bot after ``max_timeouts``)
    and ``EngineError`` for an illegal action (400).
    """
    if expected_version is not None:
        done = _submit_unlocked(
            user=user, game_id=game_id, version=expected_version, type=type, cards=cards, target=target, amount=amount
        )
        if done is not None:
            return done
    seen = None
    if expected_version is None:
        seen = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    with transaction.atomic():
        game = game_lock(game_id)
        if game is None:
            raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
        seat = _acting_seat(game, user, seen if expected_version is None else expected_version)
        state = game_state(game)
        engine = engine_of(game)
        if seat not in engine.to_act(state):
            raise ForbiddenError(ErrorCode.NOT_YOUR_TURN, "the decision is not yours now")
        action = Action(
            type=type,
            seat=seat,
            cards=parse_cards(cards or []),
            target=target,
            amount=amount,
        )
        new_state, rows = append_action(game, state, action)
        return action_result(game, seat, new_state, rows)


def _submit_unlocked(
    *,
    user: AbstractBaseUser,
    game_id: int,
    version: int,
    type: str,
    cards: list[str] | None,
    target: int | None,
    amount: int | None,
) -> ActionResult | None:
    """``action_submit`` without the lock, when this process committed ``version`` of the game itself and holds it
    (``games.services.log.append_unlocked``: the write commits only if the game is still at ``version``). ``None``
    when it does not apply or anything is amiss (another version, a refusal, an illegal action): the locked path
    then decides, and gives the one answer it always gives."""
    remembered = remembered_game(game_id, version)
    if remembered is None:
        return None
    game, state = remembered
    if game.status != GameStatus.ACTIVE:
        return None
    seat = seat_of(game, user)
    if seat is None or seat_bots(game).get(seat) or seat not in engine_of(game).to_act(state):
        return None
    try:
        action = Action(type=type, seat=seat, cards=parse_cards(cards or []), target=target, amount=amount)
    except EngineError:
        return None
    appended = append_unlocked(game, state, action)
    if appended is None:
        return None
    return action_result(game, seat, *appended)


def action_result(game: Game, seat: int, state: Any, rows: list[Event]) -> ActionResult:
    """What ``seat``'s accepted decision answers: ``game``'s new version, ``rows`` (the log entries written) and
    ``state`` (the state after them) as that seat sees them."""
    # As the caller's view shows them: a seat that may play out of turn is known to itself alone.
    view = engine_of(game).view(state, seat)
    return ActionResult(
        version=game.version,
        events=[event_json(row, seat) for row in rows],
        to_act=list(view["to_act"]),
        legal_actions=list(view["legal_actions"]),
    )


def _acting_seat(game: Game, user: AbstractBaseUser, wanted: int | None) -> int:
    """The caller's seat in the locked ``game`` if he may decide there now (before asking the engine whose turn it
    is); raises the ``ConflictError``s and ``ForbiddenError``s ``action_submit`` lists."""
    if game.version != wanted:
        raise ConflictError(
            ErrorCode.VERSION_CONFLICT,
            f"the game is at version {game.version}, not {wanted}",
            current_version=game.version,
        )
    seat = seat_of(game, user)
    if seat is None:
        raise ForbiddenError(ErrorCode.NOT_SEATED, "you do not sit at this game")
    if game.status == GameStatus.WAITING:
        raise ConflictError(ErrorCode.GAME_NOT_STARTED, "the game waits for players")
    if game.status == GameStatus.FINISHED:
        raise ConflictError(ErrorCode.GAME_FINISHED, "the game is over")
    if game.status == GameStatus.CANCELLED:
        raise ConflictError(ErrorCode.GAME_CANCELLED, "this game was cancelled")
    if seat_bots(game).get(seat):
        raise ForbiddenError(ErrorCode.SEAT_PLAYED_BY_BOT, "after your timeouts the bot plays your seat to the end")
    return seat


def _request_hash(game_id: int, body: dict[str, Any]) -> str:
    canonical = json.dumps({"game": game_id, "body": body}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _claim(user: AbstractBaseUser, key: str, request_hash: str) -> IdempotencyKey | None:
    """Take ``key`` for this request inside the caller's transaction; return the record if it was answered.

    The claim is a row inserted in the action's own transaction: it commits with the action's events and its
    stored answer, or is rolled back with them (an error, the database gone, the process killed), so a request
    that never committed leaves nothing behind that could block its retry. A duplicate running at the same time
    waits on the unique index for the first one's transaction to end: then it finds the answer (a replay), or
    nothing, and applies the action itself. A row still ``in_flight`` when seen from outside its transaction was
    left by a server before this one, whose request died: this request takes it over.
    Raises ``UnprocessableError("idempotency_key_reused")`` for another body under the same key.
    """
    try:
        with transaction.atomic():
            IdempotencyKey.objects.create(user=user, key=key, request_hash=request_hash)
        return None
    except IntegrityError:
        pass
    record = IdempotencyKey.objects.select_for_update().get(user=user, key=key)
    if record.request_hash != request_hash:
        raise UnprocessableError(
            ErrorCode.IDEMPOTENCY_KEY_REUSED, "this Idempotency-Key was used with another request body"
        )
    if record.status == IdempotencyStatus.DONE:
        return record
    return None


def action_submit_idempotent(
    *, user: AbstractBaseUser, game_id: int, body: dict[str, Any], idempotency_key: str | None
) -> ActionResult:
    """``action_submit`` with the semantics of the IETF Idempotency-Key draft, keys scoped to ``user``.

    ``body``: the validated request fields (``type``, ``cards``, ``target``, ``amount``,
    ``expected_version``). The same key with the same body returns the stored result and appends
    nothing; with another body, ``UnprocessableError`` (422). A duplicate sent while the first request
    runs waits for it and returns its result, or applies the action if the first failed. The key, the
    action and the stored result commit together: a request that fails (refused, the database gone,
    the process killed) stores nothing, so the key may be retried and the retry is applied once.
    """
    if not idempotency_key:
        return action_submit(user=user, game_id=game_id, **body)
    request_hash = _request_hash(game_id, body)
    with transaction.atomic():
        done = _claim(user, idempotency_key, request_hash)
        if done is not None:
            return ActionResult(**(done.response_body or {}), replayed=True)
        result = action_submit(user=user, game_id=game_id, **body)
        IdempotencyKey.objects.filter(user=user, key=idempotency_key).update(
            status=IdempotencyStatus.DONE, response_status=201, response_body=result.to_json()
        )
    return result
