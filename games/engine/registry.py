"""The games the server knows, by ``kind``."""

from __future__ import annotations

from games.engine.errors import InvalidOptions
from games.engine.poker import PALACE_POKER
from games.engine.protocol import Game
from games.engine.shedding import PALACE

GAMES: dict[str, Game] = {PALACE_POKER.kind: PALACE_POKER, PALACE.kind: PALACE}


def get_game(kind: str) -> Game:
    """The game module for ``kind``; raises ``InvalidOptions("unknown_kind")``."""
    try:
        return GAMES[kind]
    except KeyError:
        raise InvalidOptions("unknown_kind", f"unknown game kind {kind!r}; one of {sorted(GAMES)}") from None
