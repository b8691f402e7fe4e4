"""Names of poker hands: the categories in order, and a from-scratch classifier of at most five cards that
names a hand (``"full house, kings over nines"``) and lists its cards in reading order.

The slow, descriptive half of ``games.engine.evaluator`` (whose ``best_hand`` uses it), kept apart from the fast
ranking tables. Categories follow poker-basics-penguin.txt, "Poker hands".
"""

from __future__ import annotations

from games.engine.cards import RANK_NAMES, RANK_PLURALS, Card

CATEGORIES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""Category names indexed by ``rank >> 20``, weakest first."""


def describe(cards: tuple[Card, ...]) -> tuple[str, tuple[Card, ...], int, str]:
    """Classify at most five cards from scratch: ``(category, cards in reading order, rank, name)``, the rank
    encoded as ``evaluator.hand_rank`` encodes it (poker-basics-penguin.txt, "Poker hands").

    Independent of the evaluator's tables, so the tests can check one against the other.
    """
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda card: (-card.rank, card.suit)):
        by_rank.setdefault(card.rank, []).append(card)
    groups = sorted(by_rank.values(), key=lambda group: (len(group), group[0].rank), reverse=True)
    shape = [len(group) for group in groups]
    heads = [group[0].rank for group in groups]
    shown = tuple(card for group in groups for card in group)

    run_top = 0
    if len(cards) == 5 and shape == [1] * 5:
        if heads[0] - heads[4] == 4:
            run_top = heads[0]
        elif heads == [14, 5, 4, 3, 2]:
            run_top = 5
            shown = (*shown[1:], shown[0])
    is_flush = len(cards) == 5 and len({card.suit for card in cards}) == 1

    if run_top and is_flush:
        category, tie_ranks = "straight flush", [run_top]
        name = f"{RANK_NAMES[run_top]}-high straight flush"
    elif shape[:1] == [4]:
        category, tie_ranks = "four of a kind", heads
        name = f"four {RANK_PLURALS[heads[0]]}"
    elif shape[:2] == [3, 2]:
        category, tie_ranks = "full house", heads
        name = f"full house, {RANK_PLURALS[heads[0]]} over {RANK_PLURALS[heads[1]]}"
    elif is_flush:
        category, tie_ranks = "flush", heads
        name = f"{RANK_NAMES[heads[0]]}-high flush"
    elif run_top:
        category, tie_ranks = "straight", [run_top]
        name = f"{RANK_NAMES[run_top]}-high straight"
    elif shape[:1] == [3]:
        category, tie_ranks = "three of a kind", heads
        name = f"three {RANK_PLURALS[heads[0]]}"
    elif shape[:2] == [2, 2]:
        category, tie_ranks = "two pair", heads
        name = f"two pair, {RANK_PLURALS[heads[0]]} and {RANK_PLURALS[heads[1]]}"
    elif shape[:1] == [2]:
        category, tie_ranks = "pair", heads
        name = f"pair of {RANK_PLURALS[heads[0]]}"
    else:
        category, tie_ranks = "high card", heads
        name = f"high card, {RANK_NAMES[heads[0]]}" if heads else "no cards"

    rank = CATEGORIES.index(category) << 20
    for position, tie_rank in enumerate(tie_ranks):
        rank |= (tie_rank - 1) << (16 - 4 * position)
    return category, shown, rank, name
