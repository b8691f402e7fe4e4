"""games.engine.evaluator.hand_rank against independent oracles, on many seeded random hands.

The oracle for 5 to 7 cards is the ``treys`` library (a test dependency only; a lower treys score
is a better hand). For 8 and 9 cards, which treys cannot take, the oracle is the best ``hand_rank``
over every five-card combination, five-card ranks being the ones checked against treys. Ranking
rules: poker-basics-penguin.txt, "Poker hands".

Uniformly dealt hands seldom hold straight flushes, or flushes next to quads or a full house, so
each test also deals "skewed" hands from a small deck (two suits nearly whole, few ranks of the
others) where those are common.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from games.engine.cards import FULL_DECK, Card
from games.engine.evaluator import CATEGORIES, category_of, hand_rank

treys = pytest.importorskip("treys")

SEED = 20261122
UNIFORM_HANDS = 40_000  # per size, 5, 6 and 7 cards: 120,000 hands
SKEWED_HANDS = 5_000  # per size
BRUTE_FORCE_HANDS = 2_000  # per size and deck, 8 and 9 cards

SKEWED_DECK = [
    card
    for card in FULL_DECK
    if (card.suit in "hs" and (card.rank >= 9 or card.rank <= 5)) or card.rank in (2, 3, 13, 14)
]


def deal(rng: random.Random, deck: Sequence[Card], size: int, count: int) -> list[tuple[Card, ...]]:
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def order_mismatches(ours: Sequence[int], theirs: Sequence[int]) -> list[tuple[int, int]]:
    """Index pairs where ``ours`` (higher = better) and ``theirs`` (lower = better) disagree.

    Sorted by ``theirs``, every consecutive pair must compare the same way under both scores
    (equal with equal, a better treys score with a higher rank of ours); that makes the two orders
    agree on every pair of hands, ties included.
    """
    order = sorted(range(len(theirs)), key=theirs.__getitem__)
    mismatches = []
    for a, b in zip(order, order[1:], strict=False):
        their_cmp = (theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
        our_cmp = (ours[a] > ours[b]) - (ours[a] < ours[b])
        if our_cmp != -their_cmp:
            mismatches.append((a, b))
    return mismatches


def test_hand_rank_orders_5_to_7_card_hands_as_treys() -> None:
    rng = random.Random(SEED)
    hands = [hand for size in (5, 6, 7) for hand in deal(rng, FULL_DECK, size, UNIFORM_HANDS)]
    hands += [hand for size in (5, 6, 7) for hand in deal(rng, SKEWED_DECK, size, SKEWED_HANDS)]
    evaluator = treys.Evaluator()
    to_treys = {card: treys.Card.new(card.code) for card in FULL_DECK}

    ours = [hand_rank(hand) for hand in hands]
    theirs = [evaluator.evaluate([to_treys[c] for c in hand[:2]], [to_treys[c] for c in hand[2:]]) for hand in hands]

    mismatches = order_mismatches(ours, theirs)
    assert not mismatches, [(" ".join(map(str, hands[i])), ours[i], theirs[i]) for pair in mismatches[:3] for i in pair]

    # treys' class names, lower-cased, are our categories; it calls the ace-high straight flush a royal flush.
    def treys_category(score: int) -> str:
        name = evaluator.class_to_string(evaluator.get_rank_class(score)).lower()
        return "straight flush" if name == "royal flush" else name

    wrong = [
        (hand, value)
        for hand, value, score in zip(hands, ours, theirs, strict=True)
        if category_of(value) != treys_category(score)
    ]
    assert not wrong, wrong[:5]
    assert {category_of(value) for value in ours} == set(CATEGORIES)


@pytest.mark.parametrize("size", [8, 9])
def test_hand_rank_of_8_and_9_cards_is_the_best_five_card_combination(size: int) -> None:
    rng = random.Random(SEED + size)
    hands = deal(rng, FULL_DECK, size, BRUTE_FORCE_HANDS) + deal(rng, SKEWED_DECK, size, BRUTE_FORCE_HANDS)
    categories = set()
    for hand in hands:
        value = hand_rank(hand)
        assert value == max(hand_rank(combo) for combo in combinations(hand, 5)), " ".join(map(str, hand))
        categories.add(category_of(value))
    assert categories == set(CATEGORIES)


def banner_suits_reference(hand: Sequence[Card], exclude_suit: str) -> int:
    """palace-poker.txt, "Banner Suits", spelt out: the best of the cards that count, or four of a
    kind (all four count) with the best counting card as kicker."""
    counting = [card for card in hand if card.suit != exclude_suit]
    value = hand_rank(counting)
    for rank in {card.rank for card in hand}:
        quad = [card for card in hand if card.rank == rank]
        if len(quad) == 4:
            kickers = sorted((card for card in counting if card.rank != rank), key=lambda card: card.rank)
            value = max(value, hand_rank(quad + kickers[-1:]))
    return value


def test_hand_rank_with_an_excluded_suit_follows_the_banner_suits_rule() -> None:
    rng = random.Random(SEED + 2)
    for size in range(10):
        for hand in deal(rng, FULL_DECK, size, 2_000) + deal(rng, SKEWED_DECK, size, 2_000):
            suit = rng.choice("cdhs")
            assert hand_rank(hand, exclude_suit=suit) == banner_suits_reference(hand, suit), (hand, suit)
