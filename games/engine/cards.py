"""Playing cards: the 52-card deck and its text form.

Cards are written rank+suit as poker software does: ``As Td 9c 2h`` (``T`` for ten).
Ranks are integers 2..14 (J=11, Q=12, K=13, A=14); suits are ``c d h s``. Suits are not
ranked (palace-poker.txt, "The Cards").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from games.engine.errors import EngineCode, EngineError

RANK_CHARS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURALS = {rank: ("sixes" if rank == 6 else name + "s") for rank, name in RANK_NAMES.items()}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card of a standard deck.

    ``rank`` is 2..14 (ace high), ``suit`` one of ``"c" "d" "h" "s"``. Ordering is by rank, then
    suit letter, which is only a stable sort order: suits carry no rank in play.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (2 <= self.rank <= 14) or self.suit not in SUITS or len(self.suit) != 1:
            raise EngineError(EngineCode.INVALID_CARD, f"no such card: rank {self.rank!r} suit {self.suit!r}")

    @property
    def code(self) -> str:
        """The two-character form, e.g. ``"Td"``."""
        return RANK_CHARS[self.rank - 2] + self.suit

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read one card from its code (``"As"``, ``"Td"``; ``"10d"`` is also accepted).

        Raises ``EngineError`` with code ``invalid_card`` for anything else.
        """
        text = code.strip() if isinstance(code, str) else ""
        if text[:2] == "10":
            text = "T" + text[2:]
        if len(text) != 2 or text[0].upper() not in RANK_CHARS or text[1].lower() not in SUITS:
            raise EngineError(
                EngineCode.INVALID_CARD, f"not a card code: {code!r} (expected rank+suit such as 'As' or 'Td')"
            )
        return _DECK_BY_CODE[text[0].upper() + text[1].lower()]


SORT_KEY = attrgetter("rank", "suit")
"""``Card``'s own order (rank, then suit letter) as a key for ``sorted``: the same order, compared as tuples in C
rather than by ``Card.__lt__`` in Python (a fifth of the cost on a full deck)."""


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards from ``"As Td 9c"`` or from an iterable of codes.

    Raises ``EngineError`` (``invalid_card``) on any bad code.
    """
    codes = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(code) for code in codes)


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of ``parse_cards``: ``"As Td 9c"``."""
    return " ".join(card.code for card in cards)


def card_codes(cards: Iterable[Card]) -> list[str]:
    """Cards as a JSON-ready list of codes."""
    return [card.code for card in cards]


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))
"""The 52 cards in a fixed order (clubs 2..A, diamonds, hearts, spades)."""
_DECK_BY_CODE: dict[str, Card] = {card.code: card for card in FULL_DECK}
