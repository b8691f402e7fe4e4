"""Cards as people read them: "As" is the ace of spades, drawn A♠ in black."""

from __future__ import annotations

from dataclasses import dataclass

RANK_WORDS = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
RANK_FACES = {"T": "10"}
SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
RED_SUITS = {"d", "h"}


@dataclass(frozen=True, slots=True)
class Face:
    """What a card shows: ``code`` ("As"), ``rank`` ("A", "10"), ``symbol`` ("♠"), ``red`` and ``words``
    ("ace of spades"); a face-down card (``code`` ``None``) shows its back."""

    code: str | None
    rank: str = ""
    symbol: str = ""
    red: bool = False
    words: str = "a face-down card"


def face(code: str | None) -> Face:
    """The face of ``code`` ("As"), or a back for ``None`` (a card the viewer may not know)."""
    if code is None:
        return Face(code=None)
    rank, suit = code[0], code[1]
    return Face(
        code=code,
        rank=RANK_FACES.get(rank, rank),
        symbol=SUIT_SYMBOLS[suit],
        red=suit in RED_SUITS,
        words=f"{RANK_WORDS[rank]} of {SUIT_WORDS[suit]}",
    )


def card_words(codes: list[str | None]) -> str:
    """``["As", None]`` -> ``"ace of spades, a face-down card"``."""
    return ", ".join(face(code).words for code in codes)
