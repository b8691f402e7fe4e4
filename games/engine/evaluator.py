"""Poker hand evaluation for Palace Poker: a fast ranking path and a slow descriptive one.

Two entry points share one rank encoding:

* ``hand_rank(cards)`` returns only an ``int`` and is built for speed (bots, simulations).
* ``best_hand(cards)`` returns a ``HandValue`` naming the hand and listing the cards used; it is
  what battles and showdowns report.

Hand categories and their order follow poker-basics-penguin.txt, "Poker hands"; the deck and the
ace (high, or low in ``A 2 3 4 5``, never wrapping round) follow palace-poker.txt, "The Cards" and
poker-basics-penguin.txt, "Poker hands" (Straight).

Rank encoding
-------------
A rank is a non-negative ``int``; a larger int is a better hand, equal ints are equal hands::

    rank = category << 20 | n1 << 16 | n2 << 12 | n3 << 8 | n4 << 4 | n5

``category`` is 0 high card, 1 pair, 2 two pair, 3 three of a kind, 4 straight, 5 flush,
6 full house, 7 four of a kind, 8 straight flush (see ``CATEGORIES``). ``n1 .. n5`` are 4-bit
"nibbles", each a card rank minus one (two -> 1 ... ace -> 13) or 0 for "no card", listing the
ranks that break ties inside the category in the order they are compared:

==================  ==================================================
category            nibbles n1, n2, ...
==================  ==================================================
high card, flush    the ranks, highest first
pair                the pair, then up to three kickers, highest first
two pair            the high pair, the low pair, the kicker
three of a kind     the triplet, then up to two kickers
straight (flush)    the top card of the run (five for ``5 4 3 2 A``)
full house          the triplet, the pair
four of a kind      the quads, the kicker
==================  ==================================================

Unused nibbles are 0. Hands of fewer than five cards are normal in Palace Poker (a player starts
with a banner and three palace cards: palace-poker.txt, "The Deal"; the battle rule can leave even
fewer: "Banner Suits"). They rank by the same categories (straights and flushes need five cards)
and a missing kicker is a 0 nibble, below any real card: ``A A 9 5`` < ``A A 9 5 3`` and
``A A 9`` < ``A A T``. No cards at all is rank 0, the lowest value.

How ``hand_rank`` works: one pass over the cards adds a precomputed bit per card into one integer
holding four 15-bit fields, one 13-bit rank mask per suit. Pairs, trips and quads come from
bitwise combinations of the four suit masks (a rank in two suits is at least a pair, and so on),
flushes from a per-suit bit count, and straights and the top-k kickers from tables indexed by
13-bit rank masks, precomputed when the module is imported. Under the battle rule the excluded
suit's cards go to a fifth field instead, out of the ranked four but still there for the
four-of-a-kind exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from games.engine.cards import SUITS, Card
from games.engine.errors import EngineCode, EngineError
from games.engine.hand_names import CATEGORIES, describe

__all__ = [
    "CATEGORIES",
    "HandValue",
    "MAX_CARDS",
    "best_hand",
    "category_of",
    "hand_rank",
]

MAX_CARDS = 9
"""The most cards a player can hold: banner, three palace cards and five soldiers
(palace-poker.txt, "The Deal" and "Buy")."""

_HIGH_CARD, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH = (
    category << 20 for category in range(9)
)
_RANK_LIMIT = 9 << 20

# --- precomputed tables ---------------------------------------------------------------------
# A "mask" is a 13-bit set of ranks: bit (rank - 2), so the two is bit 0 and the ace is bit 12.
# A rank's nibble in the encoding is rank - 1 == bit index + 1.

_MASKS = 1 << 13
_WHEEL = 0b1000000001111
"""A 2 3 4 5: the ace plays low, and the five is the top card (poker-basics-penguin.txt, "Poker hands")."""


def _build_tables() -> tuple[list[int], ...]:
    """Every table indexed by a 13-bit rank mask, built in one pass of increasing masks.

    ``top[k][mask]``: the ``k`` highest ranks of ``mask`` as nibbles, the first at bit ``4 * (k - 1)``;
    a mask's top-``k`` is its highest rank followed by the top-``k - 1`` of the rest, a smaller mask.
    """
    masks = range(_MASKS)
    high = [mask.bit_length() - 1 for mask in masks]  # bit of the highest rank; -1 for no rank
    nibble = [bit + 1 for bit in high]  # the highest rank as a nibble; 0 for no rank
    top_bit = [1 << bit if bit >= 0 else 0 for bit in high]
    rest = [mask ^ bit for mask, bit in zip(masks, top_bit, strict=True)]
    top: list[list[int]] = [[0] * _MASKS]
    for k in range(1, 6):
        below = top[k - 1]
        shift = 4 * (k - 1)
        top.append([nibble[mask] << shift | below[rest[mask]] for mask in masks])
    straight = [0] * _MASKS
    for mask in masks:
        # Bits where five ranks in a row end: the run's top card.
        runs = mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4
        if runs:
            straight[mask] = _STRAIGHT | (runs.bit_length() + 4) << 16
        elif mask & _WHEEL == _WHEEL:
            straight[mask] = _STRAIGHT | 4 << 16
    no_pair = [value or _HIGH_CARD | top5 for value, top5 in zip(straight, top[5], strict=True)]
    flush = [
        value - _STRAIGHT + _STRAIGHT_FLUSH if value else _FLUSH | top5
        for value, top5 in zip(straight, top[5], strict=True)
    ]
    two_pair_bits = [bit | top_bit[rest[mask]] if top_bit[rest[mask]] else 0 for mask, bit in enumerate(top_bit)]
    return (
        [mask.bit_count() for mask in masks],  # _POP
        top_bit,
        straight,
        no_pair,
        flush,
        [value << 12 for value in top[1]],  # _KICKER1_AT12
        [value << 8 for value in top[1]],  # _KICKER1_AT8
        [value << 8 for value in top[2]],  # _KICKER2_AT12
        [value << 4 for value in top[3]],  # _KICKER3_AT12
        [_PAIR | value << 16 for value in nibble],
        [_TRIPS | value << 16 for value in nibble],
        [_QUADS | value << 16 for value in nibble],
        [_FULL_HOUSE | value << 16 for value in nibble],
        [value << 12 for value in nibble],  # _PAIR_AT12
        [_TWO_PAIR | value << 12 if bits else 0 for value, bits in zip(top[2], two_pair_bits, strict=True)],
        two_pair_bits,
    )


(
    _POP,  # number of ranks in the mask
    _TOP_BIT,  # the mask's highest bit alone
    _STRAIGHT_VALUE,  # the best straight among the ranks, or 0
    _NO_PAIR_VALUE,  # value of distinct ranks in mixed suits: the straight, else the high card
    _FLUSH_VALUE,  # value of five or more ranks of one suit: straight flush, else flush
    _KICKER1_AT12,  # highest rank as nibble n2 (four of a kind's kicker)
    _KICKER1_AT8,  # highest rank as nibble n3 (two pair's kicker)
    _KICKER2_AT12,  # two highest ranks as n2, n3 (three of a kind's kickers)
    _KICKER3_AT12,  # three highest ranks as n2, n3, n4 (a pair's kickers)
    _PAIR_HEAD,  # category and n1 for a pair of the mask's highest rank
    _TRIPS_HEAD,  # ... three of a kind
    _QUADS_HEAD,  # ... four of a kind
    _FULL_HOUSE_HEAD,  # ... a full house's triplet
    _PAIR_AT12,  # highest rank as nibble n2 (a full house's pair)
    _TWO_PAIR_HEAD,  # category, n1, n2 for the two highest ranks as two pair
    _TWO_PAIR_BITS,  # those two ranks' bits
) = _build_tables()

_FIELD = 0x1FFF
_EXCLUDED_SHIFT = 60
_CARD_BIT = {suit: [0, 0] + [1 << (15 * index + rank - 2) for rank in range(2, 15)] for index, suit in enumerate(SUITS)}
"""``_CARD_BIT[suit][rank]``: the card's bit in ``hand_rank``'s accumulator: four 15-bit fields,
one 13-bit rank mask per suit (clubs lowest)."""
_CARD_BIT_EXCLUDING = {
    excluded: {
        suit: ([0, 0] + [1 << (_EXCLUDED_SHIFT + rank - 2) for rank in range(2, 15)] if suit == excluded else bits)
        for suit, bits in _CARD_BIT.items()
    }
    for excluded in SUITS
}
"""The same with the cards of one suit moved to a fifth field, out of the four that are ranked."""


def hand_rank(cards: Sequence[Card], *, exclude_suit: str | None = None) -> int:
    """The rank (see the module docstring) of the best poker hand in ``cards``; larger is better.

    ``cards``: a sequence (list, tuple) of distinct ``Card``, in the game 0 to ``MAX_CARDS``; the
    best five count, and fewer than five rank by the kickers they have (a missing kicker is below
    any card). Ranking: poker-basics-penguin.txt, "Poker hands".

    ``exclude_suit``: the battle rule of palace-poker.txt, "Bet (or battle)" -> "Banner Suits":
    cards of that suit (the opponent's banner suit) do not count, except that four of a kind in
    ``cards`` (which always includes one card of that suit) counts whole, its kicker taken from the
    other suits. The result is the better of the best hand without that suit and such quads.

    Raises ``EngineError``: ``duplicate_cards`` if a card repeats, ``invalid_suit`` for an unknown
    ``exclude_suit``. Elements that are not ``Card`` fail with ``AttributeError`` or ``KeyError``:
    this fast path does not check them (``best_hand`` does).
    """
    if exclude_suit is None:
        card_bit = _CARD_BIT
    elif exclude_suit in _CARD_BIT_EXCLUDING:
        card_bit = _CARD_BIT_EXCLUDING[exclude_suit]
    else:
        raise EngineError(EngineCode.INVALID_SUIT, f"no such suit: {exclude_suit!r} (expected one of {SUITS!r})")
    acc = 0
    for card in cards:
        acc += card_bit[card.suit][card.rank]
    n = len(cards)
    if acc.bit_count() != n:
        raise EngineError(EngineCode.DUPLICATE_CARDS, "the same card appears twice in the hand")
    c = acc & _FIELD
    d = acc >> 15 & _FIELD
    h = acc >> 30 & _FIELD
    s = acc >> 45 & _FIELD
    ranks = c | d | h | s

    if exclude_suit is not None and acc >> _EXCLUDED_SHIFT:
        excluded = acc >> _EXCLUDED_SHIFT
        n -= _POP[excluded]
        # Four of a kind counts whole (palace-poker.txt, "Banner Suits"): its rank is in the excluded
        # suit and in all three others. Only a straight flush of the other suits beats it.
        quads = excluded & ((c & d & (h | s)) | (h & s & (c | d)))
        if quads:
            top = _TOP_BIT[quads]
            value = _QUADS_HEAD[quads] | _KICKER1_AT12[ranks ^ top]
            for mask in (c, d, h, s):
                if _POP[mask] > 4 and _FLUSH_VALUE[mask] > value:
                    value = _FLUSH_VALUE[mask]
            return value

    duplicates = n - _POP[ranks]
    if n > 4 and (_POP[c] > 4 or _POP[d] > 4 or _POP[h] > 4 or _POP[s] > 4):
        # At most one suit can hold five of nine cards.
        flush = c if _POP[c] > 4 else d if _POP[d] > 4 else h if _POP[h] > 4 else s
        value = _FLUSH_VALUE[flush]
        if value >= _STRAIGHT_FLUSH or duplicates < 3:
            # A full house or four of a kind needs at least three repeated ranks.
            return value
        pairs = (c & d) | (h & s) | ((c | d) & (h | s))
        trips = (c & d & (h | s)) | (h & s & (c | d))
        quads = c & d & h & s
        if quads:
            return _QUADS_HEAD[quads] | _KICKER1_AT12[ranks ^ _TOP_BIT[quads]]
        if trips:
            top = _TOP_BIT[trips]
            if pairs ^ top:
                return _FULL_HOUSE_HEAD[trips] | _PAIR_AT12[pairs ^ top]
        return value
    if not duplicates:
        return _NO_PAIR_VALUE[ranks]
    if duplicates == 1:
        # One pair: the only rank held an even number of times.
        pair = ranks ^ c ^ d ^ h ^ s
        return _STRAIGHT_VALUE[ranks] or _PAIR_HEAD[pair] | _KICKER3_AT12[ranks ^ pair]
    # Ranks held in at least two suits, at least three suits.
    pairs = (c & d) | (h & s) | ((c | d) & (h | s))
    trips = (c & d & (h | s)) | (h & s & (c | d))
    if trips:
        quads = c & d & h & s
        if quads:
            return _QUADS_HEAD[quads] | _KICKER1_AT12[ranks ^ _TOP_BIT[quads]]
        top = _TOP_BIT[trips]
        if pairs ^ top:
            return _FULL_HOUSE_HEAD[trips] | _PAIR_AT12[pairs ^ top]
        return _STRAIGHT_VALUE[ranks] or _TRIPS_HEAD[trips] | _KICKER2_AT12[ranks ^ top]
    if pairs & (pairs - 1):
        return _STRAIGHT_VALUE[ranks] or _TWO_PAIR_HEAD[pairs] | _KICKER1_AT8[ranks ^ _TWO_PAIR_BITS[pairs]]
    return _STRAIGHT_VALUE[ranks] or _PAIR_HEAD[pairs] | _KICKER3_AT12[ranks ^ pairs]


def category_of(rank: int) -> str:
    """The category name (one of ``CATEGORIES``) of a rank from ``hand_rank``/``best_hand``.

    Raises ``EngineError`` (``invalid_hand_rank``) for an int outside the encoding's range.
    """
    if not 0 <= rank < _RANK_LIMIT:
        raise EngineError(EngineCode.INVALID_HAND_RANK, f"not a hand rank: {rank!r}")
    return CATEGORIES[rank >> 20]


# --- the descriptive path -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandValue:
    """A player's best hand as shown at a battle or showdown.

    ``rank``: as ``hand_rank`` of the same input. ``own_suit_count``: how many of ``cards`` are of
    the player's own banner suit (0 when none was given), the tie-break of palace-poker.txt,
    "Ties" and "Winning the Pot". ``cards``: the (up to) five cards used, in reading order (the
    groups first, bigger then higher, then kickers high to low; straights from the top card, the
    wheel as ``5 4 3 2 A``). ``category``: one of ``CATEGORIES``. ``name``: e.g.
    ``"two pair, queens and eights"``.
    """

    rank: int
    own_suit_count: int
    cards: tuple[Card, ...]
    category: str
    name: str

    @property
    def key(self) -> tuple[int, int]:
        """``(rank, own_suit_count)``: compare two players' hands with this; larger wins."""
        return (self.rank, self.own_suit_count)


def best_hand(cards: Sequence[Card], *, exclude_suit: str | None = None, own_suit: str | None = None) -> HandValue:
    """The best hand in ``cards`` with the cards that make it, named.

    ``cards`` and ``exclude_suit`` as for ``hand_rank`` (palace-poker.txt, "Banner Suits"), and
    ``result.rank == hand_rank(cards, exclude_suit=exclude_suit)``. ``own_suit``: the player's
    banner suit; among all card sets reaching the best rank the one with the most cards of that
    suit is chosen (palace-poker.txt, "Ties" and "Winning the Pot"), so ``result.key`` decides a
    battle or showdown. It checks every five-card combination: meant for a few calls per battle.

    Raises ``EngineError``: ``invalid_card`` for an element that is not a ``Card``,
    ``duplicate_cards``, ``too_many_cards`` (beyond ``MAX_CARDS``), ``invalid_suit`` for an unknown
    ``exclude_suit`` or ``own_suit``.
    """
    cards = tuple(cards)
    for card in cards:
        if not isinstance(card, Card):
            raise EngineError(EngineCode.INVALID_CARD, f"not a card: {card!r}")
    for suit in (exclude_suit, own_suit):
        if suit is not None and suit not in _CARD_BIT:
            raise EngineError(EngineCode.INVALID_SUIT, f"no such suit: {suit!r} (expected one of {SUITS!r})")
    if len(cards) > MAX_CARDS:
        raise EngineError(EngineCode.TOO_MANY_CARDS, f"a hand has at most {MAX_CARDS} cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise EngineError(EngineCode.DUPLICATE_CARDS, "the same card appears twice in the hand")

    ordered = sorted(cards, key=lambda card: (-card.rank, card.suit))
    usable = [card for card in ordered if card.suit != exclude_suit]
    candidates: list[tuple[Card, ...]] = list(combinations(usable, 5)) if len(usable) > 5 else [tuple(usable)]
    if exclude_suit is not None:
        for rank in sorted({card.rank for card in cards}, reverse=True):
            quad = tuple(card for card in ordered if card.rank == rank)
            if len(quad) == 4:
                kickers = [card for card in usable if card.rank != rank]
                candidates.extend([(*quad, kicker) for kicker in kickers] or [quad])

    best = (-1, -1)
    chosen: tuple[Card, ...] = ()
    for candidate in candidates:
        key = (hand_rank(candidate), sum(card.suit == own_suit for card in candidate))
        if key > best:
            best, chosen = key, candidate
    category, shown, rank, name = describe(chosen)
    return HandValue(rank=rank, own_suit_count=best[1], cards=shown, category=category, name=name)
