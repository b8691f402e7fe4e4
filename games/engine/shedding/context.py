"""The working context of one ``apply``: a mutable draft of the state and the events it emits."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.cards import Card
from games.engine.protocol import CardGroup
from games.engine.shedding.state import Draft, ShedState
from games.engine.steps import EventRecorder, staff_only


class Ctx(EventRecorder):
    """``t``: the draft being changed; ``events``: what happened, in order."""

    def __init__(self, state: ShedState) -> None:
        super().__init__()
        self.t: Any = Draft(state)

    def next_active(self, seat: int) -> int:
        """The first seat after ``seat`` clockwise that is still in the match (holds cards, not resigned)."""
        t = self.t
        for k in range(1, t.seats + 1):
            candidate = (seat + k) % t.seats
            if candidate not in t.out and candidate not in t.resigned:
                return candidate
        raise AssertionError("nobody holds cards")

    def active(self) -> list[int]:
        """Seats still in the match (holding cards, not resigned), in seat order."""
        return [seat for seat in range(self.t.seats) if seat not in self.t.out and seat not in self.t.resigned]

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still holds (hand, face up, face down)."""
        t = self.t
        return len(t.hands[seat]) + len(t.face_up[seat]) + sum(1 for card in t.face_down[seat] if card is not None)


def public(cards: Iterable[Card]) -> CardGroup:
    """A card group every viewer sees."""
    return CardGroup(cards=tuple(cards))


def private(cards: Iterable[Card], seats: Iterable[int]) -> CardGroup:
    """A card group only ``seats`` (and staff) see."""
    return CardGroup(cards=tuple(cards), visible_to=frozenset(seats))


def nobody(cards: Iterable[Card]) -> CardGroup:
    """A card group no player sees, its owner included (face-down cards, a shuffle): staff only."""
    return staff_only(cards)
