"""The Palace Poker state: one frozen record per moment of a match.

Zones of the 52 cards during a hand (palace-poker.txt, "The Deal" and "The Play"): the stock
(face down, top card first), the discard pile (face down, top card last), the banner-deal rejects
set aside (face up), and per seat the banner, the soldiers (both face up) and the three palace
cards (face down). Between hands every card is back in the deck and no zone holds one.

States are never mutated: ``rules.apply`` thaws one into a ``Draft`` (lists and sets), changes the
draft and freezes it back.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from games.engine.cards import Card
from games.engine.fairness import FAIR_CODEC, FairState
from games.engine.poker.options import PokerOptions
from games.engine.state_json import CARDS, CARDS_PER_SEAT, Codec, card_or_none, code_or_none, plain
from games.engine.state_json import state_from_json as fields_from_json
from games.engine.state_json import state_to_json as fields_to_json

# Phases of the match.
CHOOSE_DEALER = "choose_dealer"
BANNER_DEAL = "banner_deal"
PALACE_DEAL = "palace_deal"
PLAY = "play"
FINISHED = "finished"

# Steps of the play phase: whose decision and of what kind.
TURN = "turn"  # the player on turn chooses buy / discard / bet / stay / fold
DISCARD = "discard"  # after a buy or a won battle, that player keeps or discards soldiers
BATTLE = "battle"  # the responder of a battle folds, calls or raises
DRAW = "draw"  # a buyer waits for the stock to be rebuilt (chance)


@dataclass(frozen=True, slots=True)
class Battle:
    """A heads-up bet battle in progress (palace-poker.txt, "Bet (or battle)", "Call", "Raise").

    ``responder``: the seat to decide (the defender first); ``owed``: chips the responder puts in
    to call; ``uncalled``: the last raise of the other side, returned to it if the responder folds;
    ``raises``: raises made so far; ``put_in``: chips each side put in this battle (attacker,
    defender).
    """

    attacker: int
    defender: int
    bet: int
    responder: int
    owed: int
    uncalled: int = 0
    raises: int = 0
    put_in: tuple[int, int] = (0, 0)

    def opponent(self, seat: int) -> int:
        """The other side of the battle."""
        return self.defender if seat == self.attacker else self.attacker


@dataclass(frozen=True, slots=True)
class PokerState:
    """Everything about a Palace Poker match at one moment. Chips are integers.

    Per-seat tuples are indexed by seat (0..n-1, clockwise). ``chance``: the purpose of the shuffle
    chance owes now, or ``None``; ``actor``: the seat owing a ``DISCARD`` (or waiting in ``DRAW``);
    ``quiet``: seats that took a turn without putting chips in since chips last went in (with
    ``quiet_start``, who began that run); ``known``: per seat, the other seats that have seen its
    palace cards; ``shown``: per seat, palace cards shown to everyone at a showdown; ``scores``:
    per seat, the points of the ``points`` variation (palace-poker.txt, "Palace Poker without money");
    ``resigned``: seats that resigned, in order (``resign``), out of the match like a seat without chips.
    """

    options: PokerOptions
    seats: int
    stacks: tuple[int, ...]
    in_match: tuple[bool, ...]
    phase: str
    chance: str | None = None
    shuffles: int = 0
    fair: FairState | None = None
    hand_number: int = 0
    dealer: int | None = None
    dealer_contenders: tuple[int, ...] = ()
    dealer_cards: tuple[tuple[Card, ...], ...] = ()
    in_hand: tuple[bool, ...] = ()
    banners: tuple[Card | None, ...] = ()
    palace: tuple[tuple[Card, ...], ...] = ()
    soldiers: tuple[tuple[Card, ...], ...] = ()
    stock: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    set_aside: tuple[Card, ...] = ()
    deal_index: int = 0
    pot: int = 0
    put_in: tuple[int, ...] = ()
    turn: int | None = None
    step: str | None = None
    actor: int | None = None
    quiet: frozenset[int] = frozenset()
    quiet_start: int | None = None
    battle: Battle | None = None
    known: tuple[frozenset[int], ...] = ()
    shown: tuple[bool, ...] = ()
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    resigned: tuple[int, ...] = ()

    def deal_order(self) -> tuple[int, ...]:
        """Seats in this hand, from the dealer's left clockwise, the dealer last."""
        if self.dealer is None:
            return ()
        return tuple(
            seat
            for seat in ((self.dealer + 1 + k) % self.seats for k in range(self.seats))
            if self.in_hand and self.in_hand[seat]
        )

    def face_up(self, seat: int) -> int:
        """Face-up cards of ``seat``: soldiers plus the banner."""
        return len(self.soldiers[seat]) + 1

    def players_in_hand(self) -> tuple[int, ...]:
        """Seats still in the hand, in seat order."""
        return tuple(seat for seat in range(self.seats) if self.in_hand and self.in_hand[seat])


class Draft:
    """A mutable copy of a ``PokerState``: tuples become lists, frozensets become sets.

    Only ``rules`` uses it, to write the rules as plain assignments; ``freeze`` returns a new state. A field is
    copied when the rules first read or write it: an action touches a few of the state's fields, and the others
    go into the new state as the same immutable values.
    """

    def __init__(self, state: PokerState) -> None:
        self.__dict__[_SOURCE] = state

    def __getattr__(self, name: str) -> Any:
        # Reached only for a field not copied yet (after that the instance's dict answers); the state's methods
        # are not the draft's, since they would read the state, not the draft.
        if name not in _FIELDS:
            raise AttributeError(name)
        value = _thaw(getattr(self.__dict__[_SOURCE], name))
        self.__dict__[name] = value
        return value

    def freeze(self) -> PokerState:
        """The immutable state equal to this draft."""
        own = self.__dict__
        changed = {name: _freeze(value) for name, value in own.items() if name != _SOURCE}
        return replace(own[_SOURCE], **changed)


_SOURCE = " source"
"""The key of the state a ``Draft`` copies, in its ``__dict__``: no field can have that name."""

_FIELDS = frozenset(f.name for f in fields(PokerState))


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    if isinstance(value, frozenset):
        return set(value)
    return value


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, set):
        return frozenset(value)
    return value


# JSON --------------------------------------------------------------------------------------------

_CODECS: dict[str, Codec] = {
    "fair": FAIR_CODEC,
    "options": Codec(lambda options: options.to_json(), lambda raw: PokerOptions(**raw)),
    "stock": CARDS,
    "discards": CARDS,
    "set_aside": CARDS,
    "dealer_cards": CARDS_PER_SEAT,
    "palace": CARDS_PER_SEAT,
    "soldiers": CARDS_PER_SEAT,
    "banners": Codec(lambda value: [code_or_none(card) for card in value], lambda raw: tuple(map(card_or_none, raw))),
    "battle": Codec(
        lambda value: None if value is None else {g.name: plain(getattr(value, g.name)) for g in fields(Battle)},
        lambda raw: None if raw is None else Battle(**{**raw, "put_in": tuple(raw["put_in"])}),
    ),
    "quiet": Codec(plain, frozenset),
    "known": Codec(plain, lambda raw: tuple(frozenset(seats) for seats in raw)),
}


def state_to_json(state: PokerState) -> dict[str, Any]:
    """Every field as plain JSON (cards as codes). Staff only: it holds the stock and palace cards."""
    return fields_to_json(state, _CODECS)


def state_from_json(data: dict[str, Any]) -> PokerState:
    """Inverse of ``state_to_json``; a snapshot older than a field leaves it at its default."""
    return fields_from_json(
        lambda options: PokerState(options=options, seats=0, stacks=(), in_match=(), phase=""), data, _CODECS
    )
