"""The working context of one ``apply``: a mutable draft of the state and the events it emits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.engine.cards import Card
from games.engine.errors import EngineCode, IllegalAction
from games.engine.evaluator import HandValue, best_hand
from games.engine.poker.state import Draft, PokerState
from games.engine.protocol import CardGroup
from games.engine.steps import EventRecorder
from games.engine.wild import best_wild_hand, wild_cards


class Ctx(EventRecorder):
    """``t``: the draft being changed; ``events``: what happened, in order."""

    def __init__(self, state: PokerState) -> None:
        super().__init__()
        self.t: Any = Draft(state)

    # Chips -----------------------------------------------------------------------------------
    def pay(self, seat: int, chips: int) -> None:
        """Move ``chips`` from ``seat``'s stack into the pot."""
        t = self.t
        if not 0 <= chips <= t.stacks[seat]:
            raise IllegalAction(EngineCode.INSUFFICIENT_CHIPS, f"{chips} chips asked of a stack of {t.stacks[seat]}")
        t.stacks[seat] -= chips
        t.pot += chips
        t.put_in[seat] += chips

    def chosen_amount(self, amount: int | None, minimum: int, *, what: str) -> int:
        """The chips of a bet or raise: exactly ``minimum`` in limit (``amount`` may be omitted), at
        least ``minimum`` in no-limit. Raises ``IllegalAction("invalid_amount")``."""
        if self.t.options.betting == "limit":
            if amount not in (None, minimum):
                raise IllegalAction(EngineCode.INVALID_AMOUNT, f"in limit the {what} is exactly {minimum} chips")
            return minimum
        if amount is None:
            return minimum
        if amount < minimum:
            raise IllegalAction(EngineCode.INVALID_AMOUNT, f"the {what} is at least {minimum} chips")
        return amount

    def refund(self, seat: int, chips: int, *, reason: str) -> None:
        """Return ``chips`` from the pot to ``seat`` (an uncalled raise)."""
        if chips <= 0:
            return
        t = self.t
        t.stacks[seat] += chips
        t.pot -= chips
        t.put_in[seat] -= chips
        self.emit("chips_returned", seat, amount=chips, reason=reason)

    # Seats -----------------------------------------------------------------------------------
    def next_in_hand(self, seat: int) -> int:
        """The first seat after ``seat`` clockwise that is still in the hand."""
        t = self.t
        for k in range(1, t.seats + 1):
            candidate = (seat + k) % t.seats
            if t.in_hand[candidate]:
                return candidate
        raise AssertionError("no player left in the hand")

    def players_in_hand(self) -> list[int]:
        """Seats still in the hand, in seat order."""
        return [seat for seat in range(self.t.seats) if self.t.in_hand[seat]]

    def all_cards_of(self, seat: int) -> list[Card]:
        """Palace cards, banner and soldiers of ``seat``."""
        t = self.t
        return [*t.palace[seat], t.banners[seat], *t.soldiers[seat]]

    def hand_of(self, seat: int, *, exclude_suit: str | None = None) -> HandValue:
        """The best hand of ``seat`` (wild royals under the ``kings_in_the_house`` variation)."""
        t = self.t
        return seat_hand(
            t.palace[seat],
            t.banners[seat],
            t.soldiers[seat],
            exclude_suit=exclude_suit,
            wild_royals=t.options.kings_in_the_house,
        )

    def free(self) -> bool:
        """Whether chips are out of play (the ``points`` variation): every cost is then zero."""
        return bool(self.t.options.points)


def seat_hand(
    palace: Sequence[Card], banner: Card, soldiers: Sequence[Card], *, exclude_suit: str | None, wild_royals: bool
) -> HandValue:
    """The best hand of a seat holding ``palace``, ``banner`` and ``soldiers``: in a battle without the
    opponent's banner suit (``exclude_suit``, palace-poker.txt "Banner Suits"), the own banner suit counted for
    ties; ``wild_royals``: the "Kings in the House" variation (``games.engine.wild``). The engine decides battles
    and showdowns with it, and the hand histories name the hands nobody showed with it."""
    cards = [*palace, banner, *soldiers]
    if wild_royals:
        wild = wild_cards(palace, banner.suit)
        return best_wild_hand(cards, wild=wild, exclude_suit=exclude_suit, own_suit=banner.suit)
    return best_hand(cards, exclude_suit=exclude_suit, own_suit=banner.suit)


def public(cards: Iterable[Card]) -> CardGroup:
    """A card group every viewer sees."""
    return CardGroup(cards=tuple(cards))


def private(cards: Iterable[Card], seats: Iterable[int], hand: str | None = None) -> CardGroup:
    """A card group only ``seats`` (and staff) see."""
    return CardGroup(cards=tuple(cards), visible_to=frozenset(seats), hand=hand)
