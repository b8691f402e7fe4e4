"""A straightforward best-of-combinations poker evaluator, the benchmark's baseline.

This is the code one writes first: look at every five-card combination, classify it by sorting
ranks and counting them, and keep the best. It is correct but does all the work again for every
combination. Hands compare as tuples ``(category, tie-break ranks...)``; larger is better, with
categories 0 (high card) to 8 (straight flush). Ranking rules: poker-basics-penguin.txt,
"Poker hands". Only used by ``benchmarks/bench_evaluator.py``; the product uses
``games.engine.evaluator``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from games.engine.cards import Card

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)


def evaluate_five(cards: Sequence[Card]) -> tuple[int, ...]:
    """Classify exactly five cards: ``(category, ranks that break ties, highest first...)``."""
    ranks = sorted((card.rank for card in cards), reverse=True)
    is_flush = len({card.suit for card in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and is_flush:
        return (STRAIGHT_FLUSH, straight_top)
    counts = Counter(ranks)
    # Ranks grouped by how often they occur, bigger groups first, then higher ranks.
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [count for _, count in groups]
    ordered = [rank for rank, _ in groups]
    if shape == [4, 1]:
        return (FOUR_OF_A_KIND, *ordered)
    if shape == [3, 2]:
        return (FULL_HOUSE, *ordered)
    if is_flush:
        return (FLUSH, *ranks)
    if straight_top:
        return (STRAIGHT, straight_top)
    if shape == [3, 1, 1]:
        return (THREE_OF_A_KIND, *ordered)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *ordered)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *ordered)
    return (HIGH_CARD, *ranks)


def naive_best(cards: Sequence[Card]) -> tuple[int, ...]:
    """The best hand among all five-card combinations of ``cards`` (five or more cards)."""
    return max(evaluate_five(combo) for combo in combinations(cards, 5))
