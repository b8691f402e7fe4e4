"""The Palace (shedding game) state: one frozen record per moment of a match.

Zones (palace-shedding-a.txt ¶8 and ¶11-13; palace-shedding-b.txt "Setup" and "Gameplay"): the
stock (face down, top card first), the pile (bottom first, top card last), the burned cards, and
per seat the hand, the face-up cards and three face-down cards. Face-down cards keep their
position 0-2; a played position holds ``None``. With two decks a card code names either copy:
zones are multisets, and every code is in play exactly ``decks`` times.

States are never mutated: ``game.apply`` thaws one into a ``Draft`` (lists), changes the draft and
freezes it back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from games.engine.cards import FULL_DECK, Card, card_codes, parse_cards
from games.engine.fairness import FAIR_CODEC, FairState
from games.engine.shedding.options import ShedOptions
from games.engine.state_json import CARDS, CARDS_PER_SEAT, Codec, card_or_none, code_or_none
from games.engine.state_json import state_from_json as fields_from_json
from games.engine.state_json import state_to_json as fields_to_json

# Phases of the match.
CHOOSE_DEALER = "choose_dealer"
DEAL = "deal"
SETUP = "setup"
PLAY = "play"
FINISHED = "finished"

HAND_SIZE = 3
"""Cards in each of the three rows dealt, and the hand a player draws back up to."""


@dataclass(frozen=True, slots=True)
class ShedState:
    """Everything about a match at one moment. Per-seat tuples are indexed by seat (clockwise).

    ``chance``: the shuffle owed now (``"first_dealer"``, ``"deal"``) or ``None``;
    ``hand_public``: per seat, the cards of his hand that every player knows (picked up from the
    pile, or dealt face up and exchanged into the hand), a sub-multiset of ``hands``;
    ``choices``: during the setup, each seat's chosen face-up cards, ``None`` until he has chosen;
    ``turn``: the seat on turn; ``replay``: he plays again after a burn or a two;
    ``redraw_seat`` / ``redraw_cards``: just-drawn cards of the rank just played that this seat may
    still add (palace-shedding-a.txt ¶19); ``turns``: play decisions so far (the stalemate count);
    ``out``: seats that ran out of cards, in order; ``order``: the final ranking once finished,
    with ``end_reason``; ``resigned``: seats that resigned, in order (``resign``): their cards stay
    where they lay, out of play.
    """

    options: ShedOptions
    seats: int
    phase: str
    chance: str | None = None
    shuffles: int = 0
    fair: FairState | None = None
    dealer: int | None = None
    dealer_contenders: tuple[int, ...] = ()
    dealer_cards: tuple[tuple[Card, ...], ...] = ()
    stock: tuple[Card, ...] = ()
    pile: tuple[Card, ...] = ()
    burned: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    hand_public: tuple[tuple[Card, ...], ...] = ()
    face_up: tuple[tuple[Card, ...], ...] = ()
    face_down: tuple[tuple[Card | None, ...], ...] = ()
    choices: tuple[tuple[Card, ...] | None, ...] = ()
    turn: int | None = None
    replay: bool = False
    redraw_seat: int | None = None
    redraw_cards: tuple[Card, ...] = ()
    turns: int = 0
    out: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    end_reason: str | None = None
    resigned: tuple[int, ...] = ()

    def active(self) -> tuple[int, ...]:
        """Seats still in the match, in seat order: holding cards and not resigned (everyone before play
        begins, the resigned aside)."""
        return tuple(seat for seat in range(self.seats) if seat not in self.out and seat not in self.resigned)

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still holds: hand, face up and face down."""
        if not self.hands:
            return 0
        return len(self.hands[seat]) + len(self.face_up[seat]) + sum(1 for c in self.face_down[seat] if c is not None)

    def all_cards(self) -> Counter[Card]:
        """Every card in a zone (stock, pile, burned, dealer draw, each seat's three zones)."""
        zones: list[Iterable[Card | None]] = [self.stock, self.pile, self.burned, *self.dealer_cards]
        zones += [*self.hands, *self.face_up, *self.face_down]
        return Counter(card for zone in zones for card in zone if card is not None)


def pack(decks: int) -> tuple[Card, ...]:
    """The cards of ``decks`` packs in canonical (sorted) order."""
    return _PACKS[decks]


_PACKS = {decks: tuple(sorted(FULL_DECK * decks)) for decks in (1, 2)}


class Draft:
    """A mutable copy of a ``ShedState`` (tuples become lists); ``freeze`` returns a new state."""

    def __init__(self, state: ShedState) -> None:
        own = self.__dict__
        for name in _NAMES:
            value = getattr(state, name)
            if name in _NESTED:
                value = [None if inner is None else list(inner) for inner in value]
            elif type(value) is tuple:
                value = list(value)
            own[name] = value

    def freeze(self) -> ShedState:
        """The immutable state equal to this draft."""
        values: dict[str, Any] = {}
        for name, value in self.__dict__.items():
            if name in _NESTED:
                value = tuple(None if inner is None else tuple(inner) for inner in value)
            elif type(value) is list:
                value = tuple(value)
            values[name] = value
        return ShedState(**values)

    def __getattr__(self, name: str) -> Any:  # pragma: no cover - only for type checkers
        raise AttributeError(name)


_NAMES = tuple(f.name for f in fields(ShedState))
_NESTED = {"dealer_cards", "hands", "hand_public", "face_up", "face_down", "choices"}
"""Per-seat fields: tuples of card tuples (``choices`` may hold ``None``)."""


# JSON --------------------------------------------------------------------------------------------

_CODECS: dict[str, Codec] = {
    "fair": FAIR_CODEC,
    "options": Codec(lambda options: options.to_json(), lambda raw: ShedOptions(**raw)),
    "stock": CARDS,
    "pile": CARDS,
    "burned": CARDS,
    "redraw_cards": CARDS,
    "dealer_cards": CARDS_PER_SEAT,
    "hands": CARDS_PER_SEAT,
    "hand_public": CARDS_PER_SEAT,
    "face_up": CARDS_PER_SEAT,
    "face_down": Codec(
        lambda value: [[code_or_none(card) for card in cards] for cards in value],
        lambda raw: tuple(tuple(map(card_or_none, cards)) for cards in raw),
    ),
    "choices": Codec(
        lambda value: [None if cards is None else card_codes(cards) for cards in value],
        lambda raw: tuple(None if cards is None else parse_cards(cards) for cards in raw),
    ),
}


def state_to_json(state: ShedState) -> dict[str, Any]:
    """Every field as plain JSON (cards as codes). Staff only: it holds the stock and hidden cards."""
    return fields_to_json(state, _CODECS)


def state_from_json(data: dict[str, Any]) -> ShedState:
    """Inverse of ``state_to_json``."""
    return fields_from_json(lambda options: ShedState(options=options, seats=0, phase=""), data, _CODECS)
