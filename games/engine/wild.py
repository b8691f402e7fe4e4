"""Semi-wild royals for the Palace Poker variation "Kings in the House" (or "Royal Palace").

Source: palace-poker.txt, "Variations", "Kings in the House Rule". Only the palace cards of the
player's own banner suit can be wild, and only the king, queen and jack:

* the king stands for any card from two to king, of any suit;
* the queen for any card from two to queen of a suit of its own colour (clubs and spades are
  black, diamonds and hearts red);
* the jack for any card from two to jack of its own suit;
* each of the three may stand for an ace (of a suit it may take) only inside a wheel, the
  straight or straight flush ``5 4 3 2 A``; the ace itself is never wild.

Decisions where the text is silent: a wild card may also stand for itself; it never stands for a
card its owner already holds or another of his wild cards stands for (no duplicated cards, so no
five of a kind); the battle rule (palace-poker.txt, "Banner Suits") applies to the card it stands
for, so standing for a card of the opponent's banner suit only helps a four of a kind. The hand
value is the best over every choice, with the most own-suit cards (as they stand) among the best.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product

from games.engine.cards import Card
from games.engine.evaluator import HandValue, best_hand, hand_rank

__all__ = ["best_wild_hand", "substitutes", "wild_cards"]

WILD_RANKS = (11, 12, 13)
ACE = 14
WHEEL = (ACE, 2, 3, 4, 5)
_STRAIGHT = 4
_STRAIGHT_FLUSH = 8
_COLOUR = {"c": "cs", "s": "cs", "d": "dh", "h": "dh"}


def wild_cards(palace: Iterable[Card], own_suit: str) -> tuple[Card, ...]:
    """The palace cards that are wild: king, queen or jack of the owner's banner suit."""
    return tuple(card for card in palace if card.suit == own_suit and card.rank in WILD_RANKS)


def substitutes(card: Card) -> tuple[Card, ...]:
    """Every card the wild ``card`` may stand for, itself included; aces last (wheel only)."""
    if card.rank == 13:
        suits, top = "cdhs", 13
    elif card.rank == 12:
        suits, top = _COLOUR[card.suit], 12
    elif card.rank == 11:
        suits, top = card.suit, 11
    else:
        return (card,)
    plain = tuple(Card(rank, suit) for rank in range(top, 1, -1) for suit in suits)
    return plain + tuple(Card(ACE, suit) for suit in suits)


def _wheel(cards: Sequence[Card], exclude_suit: str | None, own_suit: str | None) -> tuple[int, int] | None:
    """The best wheel in ``cards`` (straight flush or straight), counting no excluded suit."""
    usable = [card for card in cards if card.suit != exclude_suit]
    best: tuple[int, int] | None = None
    for suit in "cdhs":
        if all(Card(rank, suit) in usable for rank in WHEEL):
            key = (_STRAIGHT_FLUSH << 20 | 4 << 16, 5 if suit == own_suit else 0)
            best = key if best is None or key > best else best
    if best is not None:
        return best
    ranks = {card.rank for card in usable}
    if not set(WHEEL) <= ranks:
        return None
    own = sum(any(card.rank == rank and card.suit == own_suit for card in usable) for rank in WHEEL)
    return (_STRAIGHT << 20 | 4 << 16, own)


def best_wild_hand(
    cards: Sequence[Card],
    *,
    wild: Iterable[Card],
    exclude_suit: str | None = None,
    own_suit: str | None = None,
) -> HandValue:
    """The best hand of ``cards`` when the cards in ``wild`` (some of ``cards``) are semi-wild.

    ``exclude_suit`` and ``own_suit`` as for ``evaluator.best_hand``; the result's ``key`` compares
    as there. ``cards`` of the result are the real cards used (a wild card as itself), ``name`` and
    ``category`` describe the hand they stand for. Without wild cards this is ``best_hand``.
    """
    cards = tuple(cards)
    wild = tuple(card for card in wild if card in cards and card.rank in WILD_RANKS)
    if not wild:
        return best_hand(cards, exclude_suit=exclude_suit, own_suit=own_suit)
    naturals = tuple(card for card in cards if card not in wild)
    taken = set(naturals)
    options = [[sub for sub in substitutes(card) if sub not in taken] for card in wild]
    # First pass: the best rank, from the fast ranking (aces only through a wheel).
    ranked: list[tuple[int, tuple[Card, ...]]] = []
    for choice in product(*options):
        if len(set(choice)) != len(choice):
            continue
        plain = tuple(sub for sub, card in zip(choice, wild, strict=True) if not _as_ace(sub, card))
        rank = hand_rank((*naturals, *plain), exclude_suit=exclude_suit)
        if len(plain) < len(choice):
            wheel = _wheel((*naturals, *choice), exclude_suit, own_suit)
            if wheel is not None:
                rank = max(rank, wheel[0])
        ranked.append((rank, choice))
    top = max(rank for rank, _ in ranked)
    # Second pass: among the choices reaching it, the most own-suit cards.
    best: tuple[tuple[int, int], HandValue] | None = None
    seen: set[frozenset[Card]] = set()
    for rank, choice in ranked:
        if rank != top or frozenset(choice) in seen:
            continue
        seen.add(frozenset(choice))
        value = _value(naturals, wild, choice, exclude_suit, own_suit, top)
        if value is not None and (best is None or value.key > best[0]):
            best = (value.key, value)
    if best is None:  # pragma: no cover - the top rank is reached by some choice
        raise AssertionError("no choice reaches the best rank")
    return best[1]


def _as_ace(sub: Card, card: Card) -> bool:
    return sub.rank == ACE and card.rank != ACE


def _value(
    naturals: tuple[Card, ...],
    wild: tuple[Card, ...],
    choice: tuple[Card, ...],
    exclude_suit: str | None,
    own_suit: str | None,
    top: int,
) -> HandValue | None:
    """The hand of one choice of substitutes if it reaches rank ``top``, with real cards shown."""
    back = {sub: card for sub, card in zip(choice, wild, strict=True)}
    plain = tuple(sub for sub, card in back.items() if not _as_ace(sub, card))
    found: HandValue | None = None
    value = best_hand((*naturals, *plain), exclude_suit=exclude_suit, own_suit=own_suit)
    if value.rank == top:
        found = value
    if len(plain) < len(choice):
        wheel = _wheel((*naturals, *choice), exclude_suit, own_suit)
        if wheel is not None and wheel[0] == top and (found is None or wheel[1] > found.own_suit_count):
            found = _wheel_value((*naturals, *choice), exclude_suit, own_suit, wheel)
    if found is None:
        return None
    shown = tuple(back.get(card, card) for card in found.cards)
    return HandValue(
        rank=found.rank, own_suit_count=found.own_suit_count, cards=shown, category=found.category, name=found.name
    )


def _wheel_value(
    cards: tuple[Card, ...], exclude_suit: str | None, own_suit: str | None, wheel: tuple[int, int]
) -> HandValue:
    """The five cards of the best wheel in ``cards`` (one exists), described by ``best_hand``."""
    usable = [card for card in cards if card.suit != exclude_suit]
    for five in combinations(usable, 5):
        if {card.rank for card in five} != set(WHEEL):
            continue
        value = best_hand(five, own_suit=own_suit)
        if value.key == wheel:
            return value
    raise AssertionError("no wheel of that value")  # pragma: no cover
