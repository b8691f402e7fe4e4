"""Chance outcomes: the only place a shuffle's order is drawn.

Orders come from the operating system's generator (``secrets.SystemRandom``); a seeded PRNG
would make every shuffle predictable from its seed, as the 1999 Planet Poker shuffle was.
Simulations may pass their own generator explicitly.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Protocol

from games.engine.cards import Card
from games.engine.errors import EngineCode, EngineError
from games.engine.protocol import Action, ChanceRequest

_SYSTEM = secrets.SystemRandom()


class ShuffleSource(Protocol):
    """Anything with ``shuffle(list)``: ``secrets.SystemRandom`` in play, a seeded generator in tests."""

    def shuffle(self, x: list[Card], /) -> None: ...


def sample_shuffle(request: ChanceRequest, rng: ShuffleSource | None = None) -> Action:
    """A ``shuffle`` action holding a uniformly random order of ``request.cards`` (top card first)."""
    order = list(request.cards)
    (rng or _SYSTEM).shuffle(order)
    return Action(type="shuffle", cards=tuple(order))


def check_shuffle(request: ChanceRequest, action: Action) -> None:
    """Raise ``EngineError("invalid_shuffle")`` unless ``action.cards`` is an order of exactly the requested cards."""
    if action.seat is not None:
        raise EngineError(EngineCode.INVALID_SHUFFLE, "a shuffle is chance's action and names no seat")
    if sorted(action.cards) != sorted(request.cards):
        raise EngineError(
            EngineCode.INVALID_SHUFFLE,
            f"a {request.purpose} shuffle must order exactly the {len(request.cards)} cards being shuffled",
        )


def prearranged(order: Sequence[Card]) -> Action:
    """A shuffle action with a chosen order (for staff-prearranged decks and tests)."""
    return Action(type="shuffle", cards=tuple(order))
