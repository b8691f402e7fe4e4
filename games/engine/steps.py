"""Steps every game's ``apply`` shares: recording events, checking a decision's envelope, applying a shuffle."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.engine.cards import Card
from games.engine.chance import check_shuffle
from games.engine.errors import EngineCode, IllegalAction
from games.engine.protocol import Action, CardGroup, ChanceRequest, Event
from games.engine.seeding import check_seeded, reveal_at_end

RESIGN = "resign"
"""The action of a seat that leaves a running match for good: valid at any decision point for a seat still
in the match, in turn or not (each game's ``resign`` module says what it does to the hand)."""


class EventRecorder:
    """The events one ``apply`` emits, in order; a game's context adds its draft ``t`` and helpers."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(
        self,
        type_: str,
        seat: int | None = None,
        cards: Mapping[str, CardGroup] | None = None,
        **data: Any,
    ) -> None:
        """Record one event (``data``: public JSON fields)."""
        self.events.append(Event(type=type_, seat=seat, data=data, cards=dict(cards or {})))


def staff_only(cards: Iterable[Card]) -> CardGroup:
    """A card group no player sees, its owner included (a shuffle's order, face-down cards)."""
    return CardGroup(cards=tuple(cards), visible_to=frozenset())


def check_decision(action: Action, *, to_act: tuple[int, ...], fields: Mapping[str, set[str]]) -> int:
    """Check a decision's type, seat and fields; return its seat.

    ``fields``: action type -> the optional fields it takes. Raises ``IllegalAction`` with codes
    ``unknown_action``, ``not_your_turn`` and ``unexpected_field``.
    """
    if action.type not in fields:
        raise IllegalAction(EngineCode.UNKNOWN_ACTION, f"unknown action type {action.type!r}; one of {list(fields)}")
    if action.seat is None or action.seat not in to_act:
        raise IllegalAction(EngineCode.NOT_YOUR_TURN, "it is not this seat's decision")
    given = {
        name
        for name, present in (
            ("cards", bool(action.cards)),
            ("target", action.target is not None),
            ("amount", action.amount is not None),
        )
        if present
    }
    extra = given - fields[action.type]
    if extra:
        raise IllegalAction(EngineCode.UNEXPECTED_FIELD, f"{action.type!r} takes no {sorted(extra)}")
    return action.seat


def check_resign(action: Action, *, seats: int) -> int:
    """Check a ``resign``'s envelope: a seat of the table, no fields; return the seat. Whether that seat is
    still in the match is the game's to say. Raises ``IllegalAction`` ``invalid_seat`` and ``unexpected_field``.
    """
    seat = action.seat
    if seat is None or not 0 <= seat < seats:
        raise IllegalAction(EngineCode.INVALID_SEAT, f"'resign' names a seat 0..{seats - 1}")
    if action.cards or action.target is not None or action.amount is not None:
        raise IllegalAction(EngineCode.UNEXPECTED_FIELD, "'resign' takes no cards, target or amount")
    return seat


def apply_shuffle(
    recorder: Any,
    request: ChanceRequest | None,
    action: Action,
    handlers: Mapping[str, Callable[[Any, tuple[Card, ...]], None]],
    *,
    reveal_each_deal: bool = False,
) -> None:
    """Apply chance's shuffle to ``recorder.t`` (a draft with ``chance``, ``shuffles`` and ``fair``): check it
    (against its deal's seeds too, ``games.engine.seeding``), log its order for staff only, and hand the order
    to the handler of ``request.purpose``.

    Raises ``IllegalAction`` ``no_shuffle_due``, ``awaiting_shuffle``, ``invalid_shuffle`` and ``invalid_seeds``.
    """
    if request is None:
        raise IllegalAction(EngineCode.NO_SHUFFLE_DUE, "no shuffle is due now")
    if action.type != "shuffle":
        raise IllegalAction(EngineCode.AWAITING_SHUFFLE, "the dealer is shuffling; no decision is due")
    check_shuffle(request, action)
    check_seeded(recorder, request, action, reveal_each_deal=reveal_each_deal)
    recorder.t.chance = None
    recorder.t.shuffles += 1
    recorder.emit(
        "shuffle",
        None,
        cards={"order": staff_only(action.cards)},
        purpose=request.purpose,
        size=len(action.cards),
        number=request.number,
    )
    handlers[request.purpose](recorder, action.cards)


def apply_frame(
    game: Any,
    state: Any,
    action: Action,
    recorder: Any,
    *,
    chance: Mapping[str, Callable[[Any, tuple[Card, ...]], None]],
    fields: Mapping[str, set[str]],
    decide: Callable[[int, Action], None],
    resign: Callable[[int], None],
    reveal_each_deal: bool = False,
) -> tuple[Any, tuple[Event, ...]]:
    """What every game's ``apply`` does around its own rules: refuse a finished match, apply a due
    shuffle (``chance``: purpose -> handler), or check a decision (``fields``, see ``check_decision``),
    mark a timeout with a ``timeout`` event and hand it to ``decide(seat, action)``; then freeze
    ``recorder.t`` into the new state. ``game``: the game's interface (``to_act``, ``chance_request``);
    ``recorder``: the game's context for ``state``, an ``EventRecorder`` with its draft ``t``.

    A ``resign`` (``RESIGN``) skips the turn check: any seat may leave, in turn or not, but never while
    chance owes a shuffle (the server applies due shuffles at once, so it never sees one owed). It goes
    to ``resign(seat)``; one marked ``timeout`` (the server resigned an absent seat) is announced by a
    ``timeout`` event first, as a default action is.

    A match that ends here reveals its deals' seeds (``games.engine.seeding.reveal_at_end``); with
    ``reveal_each_deal`` a deal's seeds are revealed as the next deal opens.

    Raises ``IllegalAction`` ``game_over``, those of ``apply_shuffle``, ``check_decision`` and
    ``check_resign``, and whatever ``decide`` and ``resign`` raise.
    """
    if game.is_over(state):
        raise IllegalAction(EngineCode.GAME_OVER, "the match is over")
    if action.type == "shuffle" or state.chance is not None:
        apply_shuffle(recorder, game.chance_request(state), action, chance, reveal_each_deal=reveal_each_deal)
    elif action.type == RESIGN:
        seat = check_resign(action, seats=state.seats)
        if action.timeout:
            recorder.emit("timeout", seat, action=action.type)
        resign(seat)
    else:
        seat = check_decision(action, to_act=game.to_act(state), fields=fields)
        if action.timeout:
            recorder.emit("timeout", seat, action=action.type)
        decide(seat, action)
    reveal_at_end(game, recorder)
    return recorder.t.freeze(), tuple(recorder.events)
