"""What both games' phrase tables share: a log line made of words and cards, card faces in text, seat names.

Each game's ``phrases`` module (``games.engine.poker.phrases``, ``games.engine.shedding.phrases``) turns one
event of its catalogue, as a given viewer receives it (``games.engine.protocol.Event.view_json``: a card the
viewer may not know is ``null``, a group nobody at the table sees is only counted in ``unseen``), into a
``Line``. A phrase never prints a card the viewer may not know: it says how many there are instead.

A ``Line`` is a run of ``pieces``: text, and ``Cards`` that a page may draw as cards; ``Line.text`` is the
whole line as text, with each card as its face (``10♥``). Within one line no card is listed twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
"""A suit's letter in a card code -> its symbol."""
RANK_FACES = {"T": "10"}
"""A rank's letter in a card code -> how a card shows it, where the two differ."""
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def card_face(code: str) -> str:
    """``"Th"`` -> ``"10♥"``: a card as people read it."""
    return RANK_FACES.get(code[0], code[0]) + SUIT_SYMBOLS[code[1]]


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards a line shows, by code (``"Th"``), every one known to the viewer."""

    codes: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(card_face(code) for code in self.codes)


Piece = str | Cards


@dataclass(frozen=True, slots=True)
class Line:
    """One thing that happened, in words: ``pieces`` of text and of ``Cards``, in reading order."""

    pieces: tuple[Piece, ...]

    @property
    def text(self) -> str:
        """The line as text, each card as its face: ``"alice discards 10♥ 2♣"``."""
        return "".join(str(piece) for piece in self.pieces)

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card the line shows, in order."""
        return tuple(code for piece in self.pieces if isinstance(piece, Cards) for code in piece.codes)

    def __str__(self) -> str:
        return self.text


def line(*pieces: Piece | None) -> Line:
    """A ``Line`` of ``pieces``, ``None`` and empty text left out. A line that starts with a name keeps it as
    written (names are case-sensitive)."""
    return Line(tuple(piece for piece in pieces if piece))


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat and who sits there (``name``: see ``Names``); reads as the name."""

    number: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A shuffle in a game's history: its log entry ``seq``, its ``number`` in the match, what it was for
    (``purpose``, and in words ``label``: ``"the banner deal"``) and its order, top card first (staff's alone)."""

    seq: int
    number: int
    purpose: str
    label: str
    cards: tuple[str, ...]


class Names:
    """Seat number -> the name of who sits there (the server's one naming, ``games.selectors.words.seat_name``);
    a seat it does not know reads ``seat <n>``."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        self.names = dict(names or {})

    def __call__(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.names.get(seat) or f"seat {seat}"

    def ref(self, seat: int) -> SeatRef:
        return SeatRef(seat, self(seat))

    def possessive(self, seat: int | None) -> str:
        """``alice's``; ``James'`` for a name ending in s."""
        name = self(seat)
        return f"{name}'" if name.endswith("s") else f"{name}'s"

    def several(self, seats: Iterable[int]) -> str:
        """``alice, bob and carol``."""
        return and_list([self(seat) for seat in seats])


def and_list(words: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``; ``"nobody"`` for none."""
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"


def count_words(count: int, noun: str, plural: str | None = None) -> str:
    """``3, "card"`` -> ``"three cards"``; ``1`` -> ``"one card"``; numbers above ten in digits."""
    number = NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)
    return f"{number} {noun if count == 1 else plural or noun + 's'}"


def chips(count: int) -> str:
    """``1`` -> ``"1 chip"``, ``5`` -> ``"5 chips"``."""
    return f"{count} chip" if count == 1 else f"{count} chips"


def group(event: Mapping[str, Any], name: str) -> list[str | None]:
    """The card group ``name`` of a viewer's event: codes, ``None`` for each card he may not know; empty when
    the event has no such group or he is only told its size (``unseen``)."""
    return list((event.get("cards") or {}).get(name) or [])


def known(event: Mapping[str, Any], name: str) -> Cards | None:
    """The group's cards if the viewer knows every one of them (and there is at least one), else ``None``."""
    codes = group(event, name)
    if not codes or any(code is None for code in codes):
        return None
    return Cards(tuple(code for code in codes if code is not None))


def size(event: Mapping[str, Any], name: str) -> int:
    """How many cards the group holds, whether the viewer knows them or not."""
    return len(group(event, name)) or int((event.get("unseen") or {}).get(name, 0))


def hand_name(event: Mapping[str, Any], name: str) -> str | None:
    """The name of the hand a group makes (``"three queens"``), if the viewer may know it."""
    return (event.get("hand_names") or {}).get(name)


def without(cards: Cards, taken: Cards) -> Cards:
    """``cards`` less one copy of each card of ``taken``: so that a line lists no card twice."""
    rest = list(cards.codes)
    for code in taken.codes:
        if code in rest:
            rest.remove(code)
    return Cards(tuple(rest))


Phrase = Callable[[Mapping[str, Any], Names], Line]
"""A phrase: one event as a viewer receives it, and the seats' names -> its line."""


def phrase_with(table: Mapping[str, Phrase], event: Mapping[str, Any], names: Names) -> Line:
    """The line of ``event`` by the phrase of its type in ``table``; raises ``KeyError`` for a type the table
    lacks (every catalogue type has one: tests/games/engine/test_phrases.py)."""
    return table[event["type"]](event, names)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(number: int) -> str:
    """``1`` -> ``"first"`` (up to ten, then ``"11th"``)."""
    if 1 <= number <= len(ORDINALS):
        return ORDINALS[number - 1]
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


# The phrases of the events both games make by the shared steps and the draw for the first deal
# (``games.engine.event_fields``): each game's table takes them with its own words for purposes and actions.


def shuffle_phrase(purposes: Mapping[str, str]) -> Phrase:
    """``shuffle``: how many cards, and what for (``purposes``: purpose -> words). Its order is never listed:
    nobody at the table sees it, and staff read it whole in the hand histories."""

    def phrase(event: Mapping[str, Any], names: Names) -> Line:
        return line(f"{count_words(event['size'], 'card').capitalize()} are shuffled for {purposes[event['purpose']]}")

    return phrase


def timeout_phrase(defaults: Mapping[str, str]) -> Phrase:
    """``timeout``: whose time ran out and what the server did for them (``defaults``: action type -> what
    the seat does, ``"stays"``)."""

    def phrase(event: Mapping[str, Any], names: Names) -> Line:
        return line(f"Time ran out for {names(event['seat'])}, who {defaults[event['action']]}")

    return phrase


def _dealer_card(event: Mapping[str, Any], names: Names) -> Line:
    card = known(event, "card")
    return line(names(event["seat"]), " draws ", card or "a card", " for the first deal")


def _dealer_draw_restarted(event: Mapping[str, Any], names: Names) -> Line:
    return line(f"The pack ran out in the draw for the first deal: {names.several(event['contenders'])} draw again")


def _dealer_chosen(event: Mapping[str, Any], names: Names) -> Line:
    return line(f"{names(event['seat'])} draws the highest card")


DEALER_DRAW_PHRASES: dict[str, Phrase] = {
    "dealer_card": _dealer_card,
    "dealer_draw_restarted": _dealer_draw_restarted,
    "dealer_chosen": _dealer_chosen,
}
"""The draw for the first deal, the same in both games (``games.engine.event_fields.DEALER_DRAW_EVENTS``)."""


def _deal_words(deal: int) -> str:
    return "the draw for the first deal" if deal == 0 else f"deal {deal}"


def _seeds_committed(event: Mapping[str, Any], names: Names) -> Line:
    return line(
        f"The seeds of {_deal_words(event['deal'])} are fixed before it is dealt: the server's is committed as "
        f"{event['commitment'][:16]}...",
        f"; the server drew the seeds of {names.several(event['drawn'])}" if event.get("drawn") else "",
    )


def _seeds_revealed(event: Mapping[str, Any], names: Names) -> Line:
    return line(f"The server's seed of {_deal_words(event['deal'])} is revealed: {event['server_seed'][:16]}...")


SEED_PHRASES: dict[str, Phrase] = {
    "seeds_committed": _seeds_committed,
    "seeds_revealed": _seeds_revealed,
}
"""Commit-reveal shuffles, the same in both games (``games.engine.event_fields.SEED_EVENTS``)."""
