"""Which webhook events a stretch of a game's log owes its seated players, each redacted for its recipient.

A game's log (``games.models.Event``) is read between two versions; each *deriver* below turns that stretch
into ``Notice`` records, one per recipient seat. Every card a notice shows comes from the per-viewer read of
the log (``games.selectors.read_models.event_json`` for that seat), so a notice never holds a card its recipient may
not know. A new event type is one more deriver in ``DERIVERS`` and one more name in
``games.messages.WEBHOOK_EVENTS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.messages import (
    GAME_FINISHED,
    GAME_STARTED,
    HAND_FINISHED,
    PLAYER_RESIGNED,
    SEAT_TO_BOT,
    TURN_DUE,
)
from games.models import Event, Game
from games.selectors.due import Due, decisions_after, handed_after
from games.selectors.read_models import event_json, game_seats


@dataclass(frozen=True, slots=True)
class Notice:
    """One event for the player at ``seat``: ``type``, the log entry ``seq`` it follows from and when that was
    written (``at``), and ``data``, the webhook's ``data`` object as that seat may see it."""

    type: str
    seat: int
    seq: int
    at: datetime
    data: dict[str, Any]


@dataclass(slots=True)
class LogStretch:
    """The log of ``game`` after version ``first`` up to ``rows[-1].seq``, with what the derivers share.

    ``players``: seat -> player id, for every seat a person took; ``humans``: those of them the person still
    played at the stretch's end (not yet handed to a bot); ``handed_later``: seats handed to a bot after it, which
    the seats as read say are the bot's. ``started``: the match began inside the stretch. ``turns``: the persons'
    decisions due after it that became due inside it (``games.selectors.due.decisions_after``).
    """

    game: Game
    first: int
    rows: list[Event]
    players: dict[int, int]
    humans: dict[int, int]
    handed_later: frozenset[int]
    started: bool
    turns: list[Due]
    _views: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)

    @property
    def last(self) -> Event:
        return self.rows[-1]

    def entry_for(self, row: Event, seat: int) -> dict[str, Any]:
        """``row`` as the player at ``seat`` may see it (``event_json``), computed once."""
        key = (row.seq, seat)
        if key not in self._views:
            self._views[key] = event_json(row, seat)
        return self._views[key]

    def base(self, seat: int, *, version: int) -> dict[str, Any]:
        return {"game": self.game.pk, "kind": self.game.kind, "seat": seat, "version": version}


def _engine_types(row: Event) -> set[str]:
    return {event["type"] for event in row.payload.get("events", ())}


def turn_due(stretch: LogStretch) -> list[Notice]:
    """``turn.due`` for each decision due from a person after the stretch that became due inside it
    (``games.selectors.due``): ``game``, ``kind``, ``seat``, ``version``, ``deadline`` (ISO 8601 or ``null``)
    and ``seconds_left``."""
    last, now = stretch.last, timezone.now()
    return [Notice(TURN_DUE, due.seat, last.seq, last.created, due.to_json(now)) for due in stretch.turns]


def game_started(stretch: LogStretch) -> list[Notice]:
    """``game.started`` for each human seat when the match began in the stretch: the seats and who holds them."""
    if not stretch.started:
        return []
    first_action = next(row for row in stretch.rows if "action" in row.payload)
    seats = [{**row, "bot": None} if row["seat"] in stretch.handed_later else row for row in game_seats(stretch.game)]
    return [
        Notice(
            GAME_STARTED,
            seat,
            first_action.seq,
            first_action.created,
            {**stretch.base(seat, version=first_action.seq), "seats": seats, "rematch_of": stretch.game.rematch_of_id},
        )
        for seat in sorted(stretch.humans)
    ]


def hand_finished(stretch: LogStretch) -> list[Notice]:
    """``hand.finished`` (Palace Poker) for each human seat, per hand that ended in the stretch: ``hand``,
    ``pot``, ``reason``, ``winners`` (``[{"seat", "amount"}]``), ``stacks`` and ``shown`` (the palace cards
    shown at the end, as the recipient may see them)."""
    notices = []
    for row in stretch.rows:
        if "pot_awarded" not in _engine_types(row):
            continue
        for seat in sorted(stretch.humans):
            events = stretch.entry_for(row, seat)["events"]
            for index, event in enumerate(events):
                if event["type"] != "pot_awarded":
                    continue
                ended = next((later for later in events[index:] if later["type"] == "hand_ended"), {})
                shown = [
                    {"seat": earlier["seat"], "cards": earlier.get("cards", {}), "hand": earlier.get("hand")}
                    for earlier in events[:index]
                    if earlier["type"] == "palace_shown" and earlier.get("to") is None
                ]
                data = {
                    **stretch.base(seat, version=row.seq),
                    "hand": ended.get("hand"),
                    "pot": event["pot"],
                    "reason": event["reason"],
                    "winners": [{"seat": int(key), "amount": amount} for key, amount in event["amounts"].items()],
                    "stacks": ended.get("stacks"),
                    "shown": shown,
                }
                notices.append(Notice(HAND_FINISHED, seat, row.seq, row.created, data))
    return notices


def game_finished(stretch: LogStretch) -> list[Notice]:
    """``game.finished`` for each human seat: ``result``, the engine's ``match_ended`` record as the recipient
    sees it (Palace Poker: ``winners``, ``stacks``, ``hands``; the shedding game: ``order``, ``reason``...)."""
    notices = []
    for row in stretch.rows:
        if "match_ended" not in _engine_types(row):
            continue
        for seat in sorted(stretch.humans):
            ended = next(event for event in stretch.entry_for(row, seat)["events"] if event["type"] == "match_ended")
            result = {key: value for key, value in ended.items() if key not in ("type", "seat")}
            notices.append(
                Notice(
                    GAME_FINISHED, seat, row.seq, row.created, {**stretch.base(seat, version=row.seq), "result": result}
                )
            )
    return notices


def seat_changes(stretch: LogStretch) -> list[Notice]:
    """``player.resigned`` (the ``resign`` action: ``resigned``, the seat that left, and ``timeout``, true when
    its absence resigned it) and ``seat.to_bot`` (a ``seat_to_bot`` entry: ``handed``, the seat, ``bot``, the
    policy now playing it, ``timeouts``) for every seat a person took, the one concerned included."""
    notices = []
    for row in stretch.rows:
        if row.kind == "resign" and row.actor is not None:
            extra = {"resigned": row.actor, "timeout": bool(row.payload["action"].get("timeout", False))}
            kind = PLAYER_RESIGNED
        elif row.kind == "seat_to_bot":
            extra = {"handed": row.payload["seat"], "bot": row.payload["bot"], "timeouts": row.payload.get("timeouts")}
            kind = SEAT_TO_BOT
        else:
            continue
        for seat in sorted(stretch.players):
            notices.append(Notice(kind, seat, row.seq, row.created, {**stretch.base(seat, version=row.seq), **extra}))
    return notices


Deriver = Callable[[LogStretch], list[Notice]]
DERIVERS: tuple[Deriver, ...] = (game_started, seat_changes, hand_finished, game_finished, turn_due)
"""In the order a stretch's notices are sent."""


def log_stretch(game: Game, *, first: int, last: int) -> LogStretch | None:
    """The stretch of ``game``'s log after version ``first`` up to ``last`` (``None`` if it holds no entry).

    ``game`` comes from ``games.selectors.read_models.game_get`` (seats and players loaded). Replays the engine from
    ``state_at(game, first)`` through the stretch to know which decisions became due in it.
    """
    rows = list(Event.objects.filter(game=game, seq__gt=first, seq__lte=last).order_by("seq"))
    if not rows:
        return None
    started_before = bool(first) and Event.objects.filter(game=game, seq__lte=first, payload__has_key="action").exists()
    players = {seat.number: seat.player_id for seat in game.seats.all() if seat.player_id is not None}
    handed_later = handed_after(game, version=rows[-1].seq)
    humans = {
        seat.number: seat.player_id
        for seat in game.seats.all()
        if seat.player_id is not None and (not seat.bot or seat.number in handed_later)
    }
    return LogStretch(
        game=game,
        first=first,
        rows=rows,
        players=players,
        humans=humans,
        handed_later=handed_later,
        started=any("action" in row.payload for row in rows) and not started_before,
        turns=decisions_after(game, first=first, rows=rows),
    )


def stretch_notices(stretch: LogStretch) -> list[Notice]:
    """Every notice the stretch owes, in ``DERIVERS`` order."""
    return [notice for derive in DERIVERS for notice in derive(stretch)]
