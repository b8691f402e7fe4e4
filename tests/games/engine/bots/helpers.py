"""Drive Palace Poker matches with bots: each decision from the acting seat's view, each shuffle from
a seeded generator, each chosen body applied as the server would apply a client's POST."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.engine.bots import Bot
from games.engine.cards import parse_cards
from games.engine.chance import sample_shuffle
from games.engine.poker import PALACE_POKER as GAME
from games.engine.poker.state import PokerState
from games.engine.protocol import Action

MAX_STEPS = 50_000
BODY_FIELDS = {"type", "cards", "target", "amount"}

Watcher = Callable[[PokerState, int, dict[str, Any], dict[str, Any]], None]
"""Called before each decision is applied: ``(state, seat, view, body)``."""


def to_action(seat: int, body: dict[str, Any]) -> Action:
    """The engine action of a bot's body (the JSON a client POSTs)."""
    return Action(
        type=body["type"],
        seat=seat,
        cards=parse_cards(body.get("cards", [])),
        target=body.get("target"),
        amount=body.get("amount"),
    )


def play_match(
    options: dict[str, Any],
    bots: Sequence[Bot],
    rng: random.Random,
    watch: Watcher | None = None,
) -> PokerState:
    """Play one match to its end, seat ``i`` played by ``bots[i]``; returns the final state.

    ``GAME.apply`` raises ``EngineError`` on any illegal action, which fails the calling test.
    """
    state = GAME.new_game(options, len(bots))
    for _ in range(MAX_STEPS):
        if GAME.is_over(state):
            return state
        request = GAME.chance_request(state)
        if request is not None:
            state, _ = GAME.apply(state, sample_shuffle(request, rng))
            continue
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        body = bots[seat].choose(view, rng)
        if watch is not None:
            watch(state, seat, view, body)
        state, _ = GAME.apply(state, to_action(seat, body))
    raise AssertionError(f"the match did not end within {MAX_STEPS} steps")
