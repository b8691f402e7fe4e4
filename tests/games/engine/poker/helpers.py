"""Shared test helpers: drive the Palace Poker engine with explicit actions and decks."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.cards import FULL_DECK, Card, parse_cards
from games.engine.chance import prearranged
from games.engine.poker import PALACE_POKER as GAME
from games.engine.poker.state import PokerState
from games.engine.protocol import Action, Event


def deck_starting_with(top: str, pool: Iterable[Card] = FULL_DECK) -> tuple[Card, ...]:
    """An order of ``pool`` whose top cards are ``top`` (codes) and the rest in canonical order."""
    head = parse_cards(top)
    rest = [card for card in sorted(pool) if card not in head]
    assert len(rest) + len(head) == len(tuple(pool)), "the head names a card outside the pool"
    return head + tuple(rest)


def shuffle_with(state: PokerState, top: str) -> tuple[PokerState, tuple[Event, ...]]:
    """Apply the pending shuffle with a prearranged order starting with ``top``."""
    request = GAME.chance_request(state)
    assert request is not None, "no shuffle is pending"
    return GAME.apply(state, prearranged(deck_starting_with(top, request.cards)))


def act(state: PokerState, seat: int, type_: str, **fields) -> tuple[PokerState, tuple[Event, ...]]:
    """Apply one decision, with ``cards`` given as a string of codes."""
    if "cards" in fields:
        fields["cards"] = parse_cards(fields["cards"])
    return GAME.apply(state, Action(type=type_, seat=seat, **fields))


def only(events: Iterable[Event], type_: str) -> list[Event]:
    """The events of one type."""
    return [event for event in events if event.type == type_]
