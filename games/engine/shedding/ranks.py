"""Card ranks in the shedding game, and multiset helpers for zones that may hold two copies of a card.

Sources: palace-shedding-a.txt ¶5.2 (ranking from high to low: 2, A, K ... 3) and ¶18-20 (tens and
twos are special); palace-shedding-b.txt "Card Value" (aces high, twos reset, tens clear the pile).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from operator import attrgetter

from games.engine.cards import Card

TWO = 2
TEN = 10
FOUR_OF_A_KIND = 4

_CARD_ORDER = attrgetter("rank", "suit")


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in the canonical order (by rank, then suit letter), the order every zone but the
    stock, the pile and the face-down row keeps."""
    return sorted(cards, key=_CARD_ORDER)


def draw_value(card: Card) -> int:
    """Rank by palace-shedding-a.txt ¶5.2 (2 highest, then A down to 3): the high-card draw for the
    first dealer (¶6.1-2) and the lowest face-up card that starts play (¶10.2-4)."""
    return 15 if card.rank == TWO else card.rank


def plays_on(rank: int, pile: Sequence[Card]) -> bool:
    """Whether cards of ``rank`` meet or beat the pile (a¶11.6, a¶13.4; b "Gameplay": equal or higher).

    Anything goes on an empty pile (a¶11.10) and on a two (a¶20.2; b "Card Value"); twos and tens
    go on anything (a¶18.1, a¶20.1). A ten never stays on top: it burns the pile.
    """
    if not pile or rank in (TWO, TEN):
        return True
    top = pile[-1].rank
    return top == TWO or rank >= top


def top_run(pile: Sequence[Card]) -> tuple[int | None, int]:
    """The rank on top of the pile and how many cards of it lie on top in a row (0 when empty)."""
    if not pile:
        return None, 0
    rank = pile[-1].rank
    length = 0
    for card in reversed(pile):
        if card.rank != rank:
            break
        length += 1
    return rank, length


def timeout_key(rank: int) -> tuple[int, int]:
    """Order of the ranks a timeout plays from: 3 up to A first, then 2, then 10 (the specials last)."""
    return (1 if rank in (TWO, TEN) else 0, {TWO: 0, TEN: 1}.get(rank, rank))


def contains(pool: Iterable[Card], cards: Iterable[Card]) -> bool:
    """Whether the multiset ``cards`` is inside the multiset ``pool``."""
    need = Counter(cards)
    have = Counter(pool)
    return all(have[card] >= count for card, count in need.items())


def remove(zone: list[Card], cards: Iterable[Card]) -> None:
    """Take one copy of each of ``cards`` out of ``zone`` (the caller checked ``contains``)."""
    for card in cards:
        zone.remove(card)


def remove_known(zone: list[Card], cards: Iterable[Card]) -> None:
    """Take one copy of each of ``cards`` out of ``zone`` where it holds one (public hand cards)."""
    for card in cards:
        if card in zone:
            zone.remove(card)


def minus(pool: Iterable[Card], cards: Iterable[Card]) -> list[Card]:
    """The multiset ``pool`` without one copy of each of ``cards`` (where present), sorted."""
    rest = Counter(pool)
    rest.subtract(Counter(cards))
    return sort_cards(rest.elements())
