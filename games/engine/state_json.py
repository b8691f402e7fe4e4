"""A game state's fields as plain JSON and back, for snapshots and staff: both games' states are frozen
dataclasses of ints, strings, tuples, frozensets and cards, and differ only in which fields hold cards.

A game names its card fields with ``Codec`` pairs (``CARDS``, ``CARDS_PER_SEAT``, or its own); every other
field goes out as JSON with tuples as lists and frozensets as sorted lists, and comes back with a list as a
tuple (only the outer level: nested values a game needs as tuples or frozensets get a codec of their own).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from typing import Any, NamedTuple, TypeVar

from games.engine.cards import Card, card_codes, parse_cards

S = TypeVar("S")


class Codec(NamedTuple):
    """How one field goes to JSON (``encode``) and back (``decode``)."""

    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


CARDS = Codec(card_codes, parse_cards)
"""A tuple of cards as a list of codes."""

CARDS_PER_SEAT = Codec(
    lambda value: [card_codes(cards) for cards in value],
    lambda raw: tuple(parse_cards(cards) for cards in raw),
)
"""Per seat, a tuple of cards."""


def card_or_none(code: str | None) -> Card | None:
    """``Card.parse``, with ``None`` kept (a card slot that is empty or unknown)."""
    return None if code is None else Card.parse(code)


def code_or_none(card: Card | None) -> str | None:
    """``card.code``, with ``None`` kept."""
    return None if card is None else card.code


def plain(value: Any) -> Any:
    """``value`` as JSON: tuples as lists, frozensets as sorted lists, at any depth."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    return value


def state_to_json(state: Any, codecs: Mapping[str, Codec]) -> dict[str, Any]:
    """Every field of the dataclass ``state`` as plain JSON, by its codec if ``codecs`` has one."""
    out: dict[str, Any] = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name in codecs:
            out[f.name] = codecs[f.name].encode(value)
        else:
            out[f.name] = plain(value)
    return out


def state_from_json(blank: Callable[[Any], S], data: Mapping[str, Any], codecs: Mapping[str, Codec]) -> S:
    """Inverse of ``state_to_json``: ``blank(options)`` (the options already decoded) gives a state of the
    game's class whose fields ``data`` then sets; a field missing from ``data`` keeps ``blank``'s value.
    ``codecs`` must hold one for ``options``."""
    state = blank(codecs["options"].decode(data["options"]))
    values: dict[str, Any] = {}
    for f in fields(state):  # type: ignore[arg-type]
        if f.name == "options" or f.name not in data:
            continue
        raw = data[f.name]
        if f.name in codecs:
            values[f.name] = codecs[f.name].decode(raw)
        elif isinstance(raw, list):
            values[f.name] = tuple(raw)
        else:
            values[f.name] = raw
    return replace(state, **values)  # type: ignore[type-var]
