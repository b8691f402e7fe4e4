"""The semi-wild royals of palace-poker.txt, "Kings in the House Rule" (``games.engine.wild``).

Hand-made cases for each line of the rule, then a brute force over every substitution (and every
five-card choice) on random hands, battle exclusion included.
"""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from games.engine.cards import FULL_DECK, Card, parse_cards
from games.engine.evaluator import best_hand, hand_rank
from games.engine.wild import best_wild_hand, substitutes, wild_cards


def wild_value(cards: str, palace: str, own: str, exclude: str | None = None):
    return best_wild_hand(
        parse_cards(cards), wild=wild_cards(parse_cards(palace), own), exclude_suit=exclude, own_suit=own
    )


def test_only_own_suit_royals_of_the_palace_are_wild_palace_poker_kings_in_the_house_rule():
    """palace-poker.txt, "Kings in the House Rule": K, Q, J of one's own suit held in the palace;
    not the ace, not other suits, not the banner or soldiers."""
    assert wild_cards(parse_cards("Kc Qc Jc"), "c") == parse_cards("Kc Qc Jc")
    assert wild_cards(parse_cards("Ac Kd Tc"), "c") == ()
    # Kc as the banner (not in the palace) is not wild: the pair of nines stays a pair.
    assert wild_value("9h 9s 2d Kc", "9h 9s 2d", "c").category == "pair"
    assert wild_value("9h 9s 2d Kc", "9h 9s Kc", "c").category == "three of a kind"


def test_king_any_suit_queen_own_colour_jack_own_suit_palace_poker_kings_in_the_house_rule():
    """palace-poker.txt, "Kings in the House Rule": the king stands for K and below of any suit,
    the queen for Q and below of its colour, the jack for J and below of its own suit."""
    assert {card.suit for card in substitutes(Card.parse("Kc"))} == set("cdhs")
    assert max(card.rank for card in substitutes(Card.parse("Kc")) if card.rank != 14) == 13
    assert {card.suit for card in substitutes(Card.parse("Qc"))} == {"c", "s"}
    assert max(card.rank for card in substitutes(Card.parse("Qc")) if card.rank != 14) == 12
    assert {card.suit for card in substitutes(Card.parse("Jc"))} == {"c"}
    # Four hearts and a wild Qc: no heart flush (wrong colour); with a wild Kc: a flush.
    assert wild_value("2h 5h 8h Th Qc", "Qc 2h 5h", "c").category != "flush"
    assert wild_value("2h 5h 8h Th Kc", "Kc 2h 5h", "c").category == "flush"
    # Four spades and a wild Qc: the queen becomes a spade (same colour).
    assert wild_value("2s 5s 8s Ts Qc", "Qc 2s 5s", "c").category == "flush"
    # The jack stays in its suit: four clubs make a flush with it, four spades do not.
    assert wild_value("2c 5c 8c Tc Jc", "Jc 2c 5c", "c").category == "flush"
    assert wild_value("2s 5s 8s Ts Jc", "Jc 2s 5s", "c").category != "flush"


def test_royals_are_aces_only_in_a_wheel_palace_poker_kings_in_the_house_rule():
    """palace-poker.txt, "Kings in the House Rule": the ace is never wild, and the royals may be an
    ace only to complete A-2-3-4-5."""
    # With 2-5 the king would rather be a six than the ace of a wheel.
    run = wild_value("2h 3d 4s 5c Kc", "Kc 2h 3d", "c")
    assert run.name == "six-high straight" and set(run.cards) == set(parse_cards("2h 3d 4s 5c Kc"))
    # No pair of aces from a wild king: it becomes a king (pair of kings with the Kd).
    assert wild_value("Ah Kd 7s 4c Kc", "Kc Ah 7s", "c").name == "pair of kings"
    # The ace itself is not wild.
    assert wild_value("Ac 9h 9s", "Ac 9h 9s", "c").category == "pair"


@pytest.mark.parametrize("exclude", [None, "d"])
def test_without_wild_cards_it_is_best_hand(exclude):
    cards = parse_cards("Ah Ad 9c 9s 2d 7c")
    assert best_wild_hand(cards, wild=(), exclude_suit=exclude, own_suit="c") == best_hand(
        cards, exclude_suit=exclude, own_suit="c"
    )


# Brute force --------------------------------------------------------------------------------------

_COLOURS = {"c": "cs", "s": "cs", "d": "dh", "h": "dh"}


def _stands_for(card: Card) -> list[Card]:
    """Independent of the module: K any suit to K, Q own colour to Q, J own suit to J, or an ace."""
    suits, top = {13: ("cdhs", 13), 12: (_COLOURS[card.suit], 12), 11: (card.suit, 11)}[card.rank]
    return [Card(rank, suit) for suit in suits for rank in [*range(2, top + 1), 14]]


def _selections(cards: list[Card], exclude: str | None) -> list[tuple[Card, ...]]:
    usable = [card for card in cards if card.suit != exclude]
    picks = list(combinations(usable, 5)) if len(usable) > 5 else [tuple(usable)]
    if exclude is not None:
        for rank in {card.rank for card in cards}:
            quad = [card for card in cards if card.rank == rank]
            if len(quad) == 4:
                kickers = [card for card in usable if card.rank != rank]
                picks += [(*quad, kicker) for kicker in kickers] or [tuple(quad)]
    return picks


def brute_force(cards: list[Card], wild: list[Card], exclude: str | None, own: str) -> tuple[int, int]:
    naturals = [card for card in cards if card not in wild]
    best = (-1, -1)
    for choice in product(*(_stands_for(card) for card in wild)):
        if len(set(choice)) < len(choice) or set(choice) & set(naturals):
            continue
        aces = {sub for sub, card in zip(choice, wild, strict=True) if sub.rank == 14}
        for pick in _selections([*naturals, *choice], exclude):
            if aces & set(pick) and sorted(card.rank for card in pick) != [2, 3, 4, 5, 14]:
                continue
            best = max(best, (hand_rank(pick), sum(card.suit == own for card in pick)))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_best_wild_hand_equals_brute_force_over_all_substitutions(seed):
    rng = random.Random(seed)
    for _ in range(8):
        own = rng.choice("cdhs")
        exclude = rng.choice([None, *[suit for suit in "cdhs" if suit != own]])
        royals = [Card(rank, own) for rank in rng.sample([11, 12, 13], rng.choice([1, 1, 2, 2, 3]))]
        rest = [card for card in FULL_DECK if card not in royals]
        extra = rng.sample(rest, 3 - len(royals) + 1 + rng.randint(0, 2 if len(royals) < 3 else 1))
        palace = [*royals, *extra[: 3 - len(royals)]]
        cards = [*palace, *extra[3 - len(royals) :]]
        wild = list(wild_cards(palace, own))
        value = best_wild_hand(cards, wild=wild, exclude_suit=exclude, own_suit=own)
        assert value.key == brute_force(cards, wild, exclude, own), (cards, exclude, own)
        assert set(value.cards) <= set(cards)
