"""Palace Poker game options: stakes, betting structure, match length.

Source: palace-poker.txt, "Banner Cards" (ante), "Bet (or battle)" and "Raise" (limit and no-limit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from games.engine.errors import InvalidOptions

BETTING_STRUCTURES = ("limit", "no_limit")
MIN_SEATS = 2
MAX_SEATS = 10
MAX_SOLDIERS = 5


@dataclass(frozen=True, slots=True)
class PokerOptions:
    """Validated options of one Palace Poker match. Amounts are chips.

    ``betting``: ``"limit"`` or ``"no_limit"``; ``small_bet`` / ``big_bet``: the stakes (5/10 in the
    text's example); ``ante``: paid by every player before the banner deal, default half the small
    bet rounded down (palace-poker.txt, "Banner Cards"); ``starting_stack``: chips per player;
    ``first_dealer``: a seat, or ``None`` to draw for the deal by high card (palace-poker.txt,
    "The Deal"); ``max_hands``: the match ends after that many hands (``None``: only when one
    player holds every chip); ``max_raises``: raises per battle (palace-poker.txt, "Raise": three).
    """

    betting: str = "limit"
    small_bet: int = 5
    big_bet: int = 10
    ante: int = 2
    starting_stack: int = 1000
    first_dealer: int | None = None
    max_hands: int | None = None
    max_raises: int = 3

    def to_json(self) -> dict[str, Any]:
        """Plain JSON of every option."""
        return asdict(self)


_FIELDS = set(PokerOptions.__dataclass_fields__)


def _int(raw: Mapping[str, Any], key: str, default: int, *, low: int, high: int) -> int:
    value = _optional_int(raw, key, default, low=low, high=high)
    return default if value is None else value


def _optional_int(raw: Mapping[str, Any], key: str, default: int | None, *, low: int, high: int) -> int | None:
    value = raw.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidOptions("invalid_option", f"option {key!r} must be an integer from {low} to {high}")
    return value


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> PokerOptions:
    """Validate raw JSON options for a table of ``seats`` players.

    Raises ``InvalidOptions`` with code ``unknown_option``, ``invalid_option``, ``invalid_seats`` or
    ``inconsistent_options`` (e.g. a big bet below the small bet, a starting stack below the ante).
    """
    if raw is not None and not isinstance(raw, Mapping):
        raise InvalidOptions("invalid_option", "options must be a JSON object")
    raw = dict(raw or {})
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("invalid_seats", f"Palace Poker takes {MIN_SEATS} to {MAX_SEATS} players")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise InvalidOptions("unknown_option", f"unknown Palace Poker options: {sorted(unknown)}")
    betting = raw.get("betting", "limit")
    if betting not in BETTING_STRUCTURES:
        raise InvalidOptions("invalid_option", f"option 'betting' must be one of {list(BETTING_STRUCTURES)}")
    small = _int(raw, "small_bet", 5, low=1, high=10**9)
    big = _int(raw, "big_bet", 2 * small, low=1, high=10**9)
    ante = _int(raw, "ante", small // 2, low=0, high=10**9)
    stack = _int(raw, "starting_stack", 200 * small, low=1, high=10**12)
    first_dealer = _optional_int(raw, "first_dealer", None, low=0, high=seats - 1)
    max_hands = _optional_int(raw, "max_hands", None, low=1, high=10**6)
    max_raises = _int(raw, "max_raises", 3, low=0, high=100)
    if big < small:
        raise InvalidOptions("inconsistent_options", "the big bet cannot be smaller than the small bet")
    if stack <= ante:
        raise InvalidOptions("inconsistent_options", "the starting stack must be larger than the ante")
    return PokerOptions(
        betting=betting,
        small_bet=small,
        big_bet=big,
        ante=ante,
        starting_stack=stack,
        first_dealer=first_dealer,
        max_hands=max_hands,
        max_raises=max_raises,
    )
