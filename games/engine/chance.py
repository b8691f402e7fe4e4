"""Chance outcomes: the only place a shuffle's order is drawn.

Orders come from the operating system's generator (``secrets.SystemRandom``); a seeded PRNG
would make every shuffle predictable from its seed, as the 1999 Planet Poker shuffle was.
Simulations may pass their own generator explicitly.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Protocol

from games.engine.cards import SORT_KEY, Card
from games.engine.errors import EngineCode, EngineError
from games.engine.fairness import SALT_BYTES, SERVER_SEED_BYTES, SeedDraw, derive_order
from games.engine.master_seed import master_draw
from games.engine.protocol import Action, ChanceRequest

_SYSTEM = secrets.SystemRandom()


class ShuffleSource(Protocol):
    """Anything with ``shuffle(list)``: ``secrets.SystemRandom`` in play, a seeded generator in tests."""

    def shuffle(self, x: list[Card], /) -> None: ...


def sample_shuffle(request: ChanceRequest, rng: ShuffleSource | None = None) -> Action:
    """A ``shuffle`` action holding a uniformly random order of ``request.cards`` (top card first); once a
    match's seeds are committed, the order they give (``request.order``)."""
    if request.order is not None:
        return Action(type="shuffle", cards=request.order)
    order = list(request.cards)
    (rng or _SYSTEM).shuffle(order)
    return Action(type="shuffle", cards=tuple(order))


def check_shuffle(request: ChanceRequest, action: Action) -> None:
    """Raise ``EngineError("invalid_shuffle")`` unless ``action.cards`` is an order of exactly the requested cards."""
    if action.seat is not None:
        raise EngineError(EngineCode.INVALID_SHUFFLE, "a shuffle is chance's action and names no seat")
    if sorted(action.cards, key=SORT_KEY) != sorted(request.cards, key=SORT_KEY):
        raise EngineError(
            EngineCode.INVALID_SHUFFLE,
            f"a {request.purpose} shuffle must order exactly the {len(request.cards)} cards being shuffled",
        )


def prearranged(order: Sequence[Card]) -> Action:
    """A shuffle action with a chosen order (for staff-prearranged decks and tests)."""
    return Action(type="shuffle", cards=tuple(order))


class ByteSource(Protocol):
    """Anything with ``randbytes(n)``: a seeded ``random.Random`` in simulations and tests."""

    def randbytes(self, n: int, /) -> bytes: ...


def draw_seeds(*, game: str, deal: int, players: Sequence[str | None], rng: ByteSource | None = None) -> SeedDraw:
    """The seeds of deal ``deal`` of game ``game``: a fresh server seed and salt from ``secrets`` (``rng``, for
    simulations only, replaces it), and per seat the player's own seed (hex) or, for ``None`` (a bot, a player
    who gave none), one drawn here and listed in ``drawn``."""

    def fresh(size: int) -> str:
        return secrets.token_hex(size) if rng is None else rng.randbytes(size).hex()

    return SeedDraw(
        server_seed=fresh(SERVER_SEED_BYTES),
        salt=fresh(SALT_BYTES),
        game=game,
        deal=deal,
        players=tuple(fresh(SERVER_SEED_BYTES) if seed is None else seed for seed in players),
        drawn=tuple(seat for seat, seed in enumerate(players) if seed is None),
    )


def fair_shuffle(
    request: ChanceRequest,
    *,
    game: str,
    players: Sequence[str | None],
    rng: Any = None,
    master: str | None = None,
) -> Action:
    """The shuffle the server makes under commit-reveal shuffles (``games.engine.fairness``): the first of a
    deal draws the deal's seeds (``draw_seeds``; with the match's ``master`` seed, hex, derives them from it:
    ``games.engine.master_seed``, and the match's first carries the master too) and carries them with the order
    they give; a later one takes the order the committed seeds give; in a match begun without seeds (stored before
    them, or prearranged), a ``SystemRandom`` order. ``rng`` (simulations and tests only): a seeded
    ``random.Random`` for both."""
    if not request.seeds_due:
        return sample_shuffle(request, rng)
    if master is None:
        draw = draw_seeds(game=game, deal=request.deal, players=players, rng=rng)
        return Action(type="shuffle", cards=derive_order(request.cards, draw, request.number), seeds=draw)
    draw = master_draw(master, game=game, deal=request.deal, players=players)
    # The match's first shuffle (the only one seeds are due on with none committed) hands the engine the master,
    # from which it derives the earlier deals' seeds when it reveals them instead of keeping every deal's.
    first = request.number == 0
    order = derive_order(request.cards, draw, request.number)
    return Action(type="shuffle", cards=order, seeds=draw, master=master if first else None)
