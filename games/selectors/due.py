"""Whose decision is due in a game, since when and until when: the one definition behind ``me/turns/``, the web
badge, ``me/games/``'s ``my_turn``, the streams' and webhooks' ``turn.due`` and the turn mails.

- **Who.** A seat's decision is due at a version when the engine's ``due_to_act`` of the state then
  (``state_at``) names it: the game waits for it (Palace Poker: the seat to act; the shedding game: in the setup
  every seat still to choose, in play the seat on turn; a chance to play out of turn is no duty and has no
  deadline). A *person's* decision is one his seat owes while he plays it himself: a seat a bot took, or the
  bot plays after its timeouts (``seat_to_bot``), owes none.
- **Since when.** The version of the log entry that made it due. The decision stays the same while the seat
  stays due and no entry is a decision of that seat; every decision logged for the seat ends it (his own, the
  default action a turn timeout applies for him, or his bot's), so a seat due again after a timeout owes a new
  decision, which every reader announces (or mails) anew (``since_after``).
- **Until when.** The deadline: the game's ``turn_timeout`` after the latest engine entry, while a person's
  decision is due (``deadline_after``; ``Game.deadline`` now).

The present is read from the projection the services write with every append, in the same transaction
(``Seat.due_since``, ``Game.deadline``: ``games.services.log``), with no replay; a past version (a stretch of the
log a webhook announces) by replaying ``state_at`` through the same ``since_after``. tests/games/selectors/test_due.py
checks at every version of random games that the two agree, and that every reader tells the same decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db.models import Q, QuerySet

from games.models import Event, Game, GameStatus, Seat
from games.selectors.state import apply_entry, engine_of, state_at

T = TypeVar("T")

PERSON_DUE = Q(due_since__isnull=False, bot="", player__isnull=False, game__status=GameStatus.ACTIVE)
"""``Seat`` rows whose person owes a decision now (the projection; see the module docstring)."""


def since_after(since: Mapping[int, T], *, due: Iterable[int], decided: int | None, version: int) -> dict[int, T | int]:
    """The decisions due after log entry ``version``, seat -> since: ``since`` (the same before the entry) for a
    seat that was due and did not decide in it (``decided``: the seat whose decision the entry is, see
    ``decided_by``), else ``version`` for each seat of ``due`` (the engine's ``due_to_act`` after the entry)."""
    return {seat: since[seat] if seat in since and seat != decided else version for seat in due}


def decided_by(payload: Mapping[str, Any], actor: int | None) -> int | None:
    """The seat whose decision a log entry (its ``payload`` and ``actor``) is: the actor of an engine action
    (a shuffle has none); ``None`` for entries that are no engine action (seats taken, a seat handed to the bot)."""
    return actor if "action" in payload else None


def deadline_after(moment: datetime, turn_timeout: int | None) -> datetime | None:
    """The deadline a person's decision due after an entry written at ``moment`` gets: ``turn_timeout`` seconds
    later (``None``: no limit)."""
    return None if not turn_timeout else moment + timedelta(seconds=turn_timeout)


def seconds_left(deadline: datetime | None, now: datetime) -> int | None:
    """Whole seconds from ``now`` to ``deadline``, never below 0; ``None`` without a deadline."""
    return None if deadline is None else max(0, int((deadline - now).total_seconds()))


def iso(moment: datetime | None) -> str | None:
    """``moment`` as the API writes a time: ISO 8601, UTC as ``Z``."""
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Due:
    """A person's decision due: in ``game`` (of ``kind``) read at ``version``, owed by ``seat`` since the entry
    ``since``, until ``deadline`` (``None``: no limit)."""

    game: int
    kind: str
    seat: int
    version: int
    since: int
    deadline: datetime | None

    def to_json(self, now: datetime) -> dict[str, Any]:
        """What every reader sends of it: ``game``, ``kind``, ``seat``, ``version``, ``deadline`` (ISO 8601 or
        ``None``) and ``seconds_left`` (at ``now``)."""
        return {
            "game": self.game,
            "kind": self.kind,
            "seat": self.seat,
            "version": self.version,
            "deadline": iso(self.deadline),
            "seconds_left": seconds_left(self.deadline, now),
        }


# --- now: the projection ---


def seats_due() -> QuerySet[Seat]:
    """Every seat whose person owes a decision now, with its game (one query; no replay)."""
    return Seat.objects.filter(PERSON_DUE).select_related("game")


def due_of(seat: Seat) -> Due | None:
    """The decision ``seat`` (read with its game) owes its person now, or ``None``."""
    game = seat.game
    if seat.due_since is None or seat.bot or seat.player_id is None or game.status != GameStatus.ACTIVE:
        return None
    return Due(game.pk, game.kind, seat.number, game.version, seat.due_since, game.deadline)


# --- the past: a replay of the log ---


def decisions_after(game: Game, *, first: int, rows: Sequence[Event]) -> list[Due]:
    """The persons' decisions due after ``rows`` (``game``'s log entries after version ``first``, in ``seq``
    order, none missing) that became due after ``first``: what that stretch of the log newly owes, by seat.
    ``decisions_after(game, first=0, rows=<the log up to v>)`` is every decision due at ``v``.

    ``game`` comes with its seats (``games.selectors.read_models.game_get``). Raises ``EngineError`` only if the log
    is corrupt.
    """
    engine = engine_of(game)
    state = state_at(game, first)
    since: dict[int, int] = {} if state is None else dict.fromkeys(engine.due_to_act(state), first)
    last_action = None
    for row in rows:
        state = apply_entry(engine, game, state, row.payload)
        due = () if state is None else engine.due_to_act(state)
        since = since_after(since, due=due, decided=decided_by(row.payload, row.actor), version=row.seq)
        if "action" in row.payload:
            last_action = row
    version = rows[-1].seq if rows else first
    people = _people_at(game, version)
    owed = {seat: start for seat, start in since.items() if seat in people}
    deadline = _deadline_at(game, version, last_action) if owed else None
    new = sorted((seat, start) for seat, start in owed.items() if start > first)
    return [Due(game.pk, game.kind, seat, version, start, deadline) for seat, start in new]


def _people_at(game: Game, version: int) -> set[int]:
    """The seats a person played himself after entry ``version``: his, and not yet handed to the bot."""
    seats = [seat for seat in game.seats.all() if seat.player_id is not None]
    return {seat.number for seat in seats if not seat.bot} | handed_after(game, version=version)


def handed_after(game: Game, *, version: int) -> frozenset[int]:
    """The seats of ``game`` (as ``game_get`` read it, maybe versions after ``version``) that a person took and the
    bot was handed after entry ``version`` (``seat_to_bot``): still the person's up to ``version``. Reads the log
    only when a person's seat is the bot's now."""
    if version >= game.version or not any(seat.player_id is not None and seat.bot for seat in game.seats.all()):
        return frozenset()
    later = Event.objects.filter(game=game, kind="seat_to_bot", seq__gt=version, seq__lte=game.version)
    return frozenset(later.values_list("actor", flat=True))


def _deadline_at(game: Game, version: int, last_action: Event | None) -> datetime | None:
    """The deadline of the persons' decisions due after entry ``version``: set by the latest engine entry up to
    it (``last_action``, if the caller holds it)."""
    if version == game.version:
        return game.deadline
    if last_action is None:
        actions = Event.objects.filter(game=game, seq__lte=version, payload__has_key="action")
        last_action = actions.order_by("-seq").first()
    return None if last_action is None else deadline_after(last_action.created, game.turn_timeout)
