"""Hand histories for staff review: a game's log, read as staff, hand by hand.

The reading belongs to each game (its ``history`` module beside its engine, found through
``games.engine.registry``): Palace Poker's hands (``games.engine.poker.history``), the shedding game's one deal
(``games.engine.shedding.history``). This module only reads the log in ``seq`` order, as staff see it (every
card, the shuffle orders and the battle hands the table never saw), and names the seats (``words.seat_name``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine.protocol import STAFF
from games.engine.registry import game_kind
from games.models import Event, Game
from games.selectors.read_models import event_json
from games.selectors.words import game_names


def _staff_entries(game: Game) -> Iterator[dict[str, Any]]:
    for row in Event.objects.filter(game=game).order_by("seq").iterator():
        yield event_json(row, STAFF)


def _walk(game: Game) -> Iterator[Any]:
    return game_kind(game.kind).histories(_staff_entries(game), game_names(game), game.options)


def hand_histories(game: Game) -> list[Any]:
    """Every hand of ``game`` in order (the shedding game: its one deal, once dealt); the last one may still be
    going on. Each has ``number``, ``first_seq``, ``last_seq``, ``dealer``, ``finished``, ``ends_match`` and
    ``result``, and its game's own details (see its ``history`` module)."""
    return list(_walk(game))


def hand_history(game: Game, number: int) -> Any | None:
    """Hand ``number`` (from 1) of ``game``, or ``None``; reads the log no further than its end."""
    return next((hand for hand in _walk(game) if hand.number == number), None)
