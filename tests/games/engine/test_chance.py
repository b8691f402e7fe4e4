"""Shuffles: drawn from the operating system's generator, uniform, and checked when applied."""

from __future__ import annotations

import math
import secrets

import pytest

from games.engine.cards import FULL_DECK
from games.engine.chance import check_shuffle, sample_shuffle
from games.engine.protocol import Action, ChanceRequest

REQUEST = ChanceRequest(purpose="banner_deal", cards=FULL_DECK, number=0)


def chi_square_threshold(df: int, z: float) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile at ``z`` standard deviations."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_shuffles_are_uniform_card_by_position_chi_square():
    """Counts of each card at each position over many SystemRandom shuffles fit a uniform law.

    The threshold sits 7 standard deviations out (p ~ 1e-12): a correct shuffle never fails it,
    while a biased one (e.g. the naive swap-with-any-position shuffle) does, by far.
    """
    shuffles = 5200
    counts = [[0] * 52 for _ in range(52)]
    index = {card: i for i, card in enumerate(FULL_DECK)}
    for _ in range(shuffles):
        for position, card in enumerate(sample_shuffle(REQUEST).cards):
            counts[index[card]][position] += 1
    expected = shuffles / 52
    statistic = sum((count - expected) ** 2 / expected for row in counts for count in row)
    assert statistic < chi_square_threshold(51 * 51, 7.0)


def test_the_chi_square_check_detects_a_biased_shuffle():
    """The same statistic on the classic broken shuffle (swap each card with any position)."""
    rng = secrets.SystemRandom()
    shuffles = 5200
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        order = list(range(52))
        for i in range(52):
            j = rng.randrange(52)
            order[i], order[j] = order[j], order[i]
        for position, card in enumerate(order):
            counts[card][position] += 1
    expected = shuffles / 52
    statistic = sum((count - expected) ** 2 / expected for row in counts for count in row)
    assert statistic > chi_square_threshold(51 * 51, 7.0)


def test_default_generator_is_the_operating_systems():
    from games.engine import chance

    assert isinstance(chance._SYSTEM, secrets.SystemRandom)


@pytest.mark.parametrize(
    "cards",
    [FULL_DECK[:-1], FULL_DECK[:-1] + FULL_DECK[:1], ()],
    ids=["missing-card", "duplicate-card", "empty"],
)
def test_a_shuffle_must_order_exactly_the_requested_cards(cards):
    with pytest.raises(Exception) as raised:
        check_shuffle(REQUEST, Action(type="shuffle", cards=cards))
    assert raised.value.code == "invalid_shuffle"
