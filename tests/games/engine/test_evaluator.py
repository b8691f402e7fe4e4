"""Hand-made cases for games.engine.evaluator, named after the rule text they check.

Rule files: /work/shared/rules/poker-basics-penguin.txt ("Poker hands") and
/work/shared/rules/palace-poker.txt ("Bet (or battle)" -> "Banner Suits", "Ties", "Winning the Pot",
the example game). The example game's banner suits: Aaron clubs (8), Brad hearts (3), Christine
spades (10), Dave diamonds (J), Elena diamonds (4), Frank spades (Q); the suits of palace cards are
not given there, so the tests pick ones that fit the story.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK, Card, parse_cards
from games.engine.errors import EngineError
from games.engine.evaluator import CATEGORIES, MAX_CARDS, HandValue, best_hand, category_of, hand_rank


def rank(text: str, **options: str) -> int:
    return hand_rank(parse_cards(text), **options)


def best(text: str, **options: str) -> HandValue:
    return best_hand(parse_cards(text), **options)


# --- poker-basics-penguin.txt, "Poker hands" ---------------------------------------------------

ONE_OF_EACH_CATEGORY = [
    ("Kd Js 9c 5h 3d", "high card", "high card, king"),
    ("Ah Ac Td 7s 2c", "pair", "pair of aces"),
    ("Qs Qd 8h 8c 4s", "two pair", "two pair, queens and eights"),
    ("6s 6d 6c Ah 2d", "three of a kind", "three sixes"),
    ("9c Td Jh Qs Kd", "straight", "king-high straight"),
    ("Ah Th 7h 4h 2h", "flush", "ace-high flush"),
    ("Js Jd Jc 4h 4s", "full house", "full house, jacks over fours"),
    ("Js Jd Jc Jh 2s", "four of a kind", "four jacks"),
    ("Td Jd Qd Kd Ad", "straight flush", "ace-high straight flush"),
]


def test_poker_basics_poker_hands_categories_in_order() -> None:
    ranks = [rank(text) for text, _, _ in ONE_OF_EACH_CATEGORY]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)
    for (text, category, name), value in zip(ONE_OF_EACH_CATEGORY, ranks, strict=True):
        assert category_of(value) == category
        hand = best(text)
        assert (hand.category, hand.name, hand.rank) == (category, name, value)
    assert [category for _, category, _ in ONE_OF_EACH_CATEGORY] == list(CATEGORIES)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        # High card: the higher top card, then the second, and so on.
        ("As 9d 7c 5h 3d", "Kd Qs Jc 9h 8d"),
        ("Ad Kd 7c 5h 4s", "As Kc 7d 5s 3h"),
        # One pair: the higher pair, then the highest non-tying card.
        ("3s 3d 5c 6h 7d", "2s 2d Ac Kh Qd"),
        ("Ts Td Ac 5h 4d", "Th Tc Kc Qh Jd"),
        ("Ts Td Ac 5h 4d", "Th Tc Ad 5s 3d"),
        # Two pairs: the higher pair, then the second pair, then the odd card.
        ("Ks Kd 3c 3h 2d", "Qs Qd Jc Jh Ad"),
        ("Ks Kd 4c 4h 2d", "Kh Kc 3d 3s Ad"),
        ("Ks Kd 4c 4h 6d", "Kh Kc 4d 4s 5d"),
        # Threes: the higher triplet.
        ("4s 4d 4c 2h 3d", "3s 3d 3c Ah Kd"),
        # Straight: the higher-ranking cards.
        ("3c 4d 5h 6s 7d", "2c 3d 4h 5s 6d"),
        # Flush: the highest non-tying top card.
        ("Ah Th 7h 4h 3h", "Ad Td 7d 4d 2d"),
        ("Ah 2h 3h 4h 6h", "Kd Qd Jd 9d 8d"),
        # Full house: the higher triplet.
        ("3s 3d 3c 2h 2d", "2s 2c 2h Ah Ad"),
        # Fours: the higher four; the fifth card breaks a tie only between equal fours.
        ("3s 3d 3c 3h 2d", "2s 2c 2h 2d Ah"),
        # Straight flush: the higher-ranking cards.
        ("9s Ts Js Qs Ks", "8h 9h Th Jh Qh"),
    ],
)
def test_poker_basics_poker_hands_tie_breaks(better: str, worse: str) -> None:
    assert rank(better) > rank(worse)
    assert category_of(rank(better)) == category_of(rank(worse))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2c 3d 4h 5s 6d", "Ac Ad Kh Ks Qd"),  # straight beats two pairs
        ("2c 3d 4h 5s 6d", "Ks Kd Kc 3h 2d"),  # straight beats threes
        ("Ah Th 7h 4h 2h", "Ac Kd Qh Js Td"),  # flush beats straight
        ("2s 2d 2c 3h 3d", "Ah Kh Qh Jh 9h"),  # full house beats flush
        ("2s 2d 2c 2h 3d", "As Ad Ac Kh Kd"),  # fours beat a full house
        ("Ah 2h 3h 4h 5h", "As Ad Ac Ah Kd"),  # the lowest straight flush beats the best fours
    ],
)
def test_poker_basics_poker_hands_category_beats_category(better: str, worse: str) -> None:
    assert rank(better) > rank(worse)


def test_poker_basics_poker_hands_straight_ace_low_is_the_lowest_straight() -> None:
    wheel = best("Ah 2c 3d 4s 5s")
    assert wheel.category == "straight"
    assert wheel.name == "five-high straight"
    assert [card.code for card in wheel.cards] == ["5s", "4s", "3d", "2c", "Ah"]
    assert rank("Ah 2c 3d 4s 5s") < rank("2h 3c 4d 5s 6s")
    assert rank("Ah 2c 3d 4s 5s") > rank("Ah Ac Ad Ks Qs")  # still beats threes
    assert rank("Ah Kc Qd Js Ts") > rank("9h Kc Qd Js Ts")  # ace high: the best straight
    assert category_of(rank("2c 3d 4h 5s 7d")) == "high card"  # five in sequence, not four
    # Ace counts high or low but not both: Q K A 2 3 is no straight.
    assert category_of(rank("Qh Kc Ad 2s 3s")) == "high card"


def test_poker_basics_poker_hands_straight_flush_ace_low() -> None:
    wheel = best("Ah 2h 3h 4h 5h Kh Ks")
    assert wheel.category == "straight flush"
    assert wheel.name == "five-high straight flush"
    assert [card.code for card in wheel.cards] == ["5h", "4h", "3h", "2h", "Ah"]
    assert wheel.rank < rank("2d 3d 4d 5d 6d")
    assert wheel.rank > rank("As Ad Ac Ah Kd")
    # Seven hearts: the best five are the six-high straight flush, not the wheel or the ace flush.
    assert best("Ah 2h 3h 4h 5h 6h Kh").name == "six-high straight flush"


def test_poker_basics_poker_hands_best_five_of_seven_and_nine() -> None:
    assert best("As Ad Ac Kh Kd Ks 2c").name == "full house, aces over kings"
    assert best("As Ad Ac Kh Kd Qs Qc").name == "full house, aces over kings"
    assert best("9s 9d 8c 8h 7d 7s 2c").name == "two pair, nines and eights"
    assert [card.rank for card in best("9s 9d 8c 8h 7d 7s 2c").cards] == [9, 9, 8, 8, 7]
    assert best("As Ad Ac Ah Ks Kd Kc Kh 2c").name == "four aces"
    assert [card.rank for card in best("As Ad Ac Ah Ks Kd Kc Kh 2c").cards] == [14] * 4 + [13]
    assert best("2h 3h 9h Jh Kh 2s 2d 3c 3d").name == "full house, threes over twos"
    assert best("2h 3h 9h Jh Kh 2s 2d 4c 5d").name == "king-high flush"
    assert best("2c 3d 4h 5s 6d 7c 8d 9h Ts").name == "ten-high straight"


def test_hand_value_cards_are_ordered_groups_first_then_kickers() -> None:
    hand = best("2c Kd 7h Ks 9c 4d")
    assert [card.code for card in hand.cards] == ["Kd", "Ks", "9c", "7h", "4d"]
    assert [card.code for card in best("4h Jd 4s Jc Js").cards] == ["Jc", "Jd", "Js", "4h", "4s"]
    assert [card.code for card in best("Td 8d Kd 2d 5d").cards] == ["Kd", "Td", "8d", "5d", "2d"]
    assert [card.code for card in best("8c 9d Tc Jh Qs").cards] == ["Qs", "Jh", "Tc", "9d", "8c"]


def test_names_of_each_category() -> None:
    assert best("Kd Js 9c 5h 3d").name == "high card, king"
    assert best("6c 6d").name == "pair of sixes"
    assert best("Qs Qd 8h 8c 4s").name == "two pair, queens and eights"
    assert best("Qs Qd Qh").name == "three queens"
    assert best("9c Td Jh Qs Kd").name == "king-high straight"
    assert best("Ah Th 7h 4h 2h").name == "ace-high flush"
    assert best("Js Jd Jc 4h 4s").name == "full house, jacks over fours"
    assert best("Js Jd Jc Jh").name == "four jacks"
    assert best("Td Jd Qd Kd Ad").name == "ace-high straight flush"
    assert best("").name == "no cards"


# --- fewer than five cards --------------------------------------------------------------------


def test_palace_poker_raise_example_pair_of_aces_loses_to_three_queens() -> None:
    # palace-poker.txt, "Bet (or battle)" -> "Raise", example: Brad (banner 3 of hearts, palace
    # A A 9) battles Frank (banner queen of spades, palace Q Q 8). In the battle Brad's spades and
    # Frank's hearts do not count ("Banner Suits"): Frank's 8 is a heart here.
    brad = best("3h Ac Ad 9c", exclude_suit="s", own_suit="h")
    frank = best("Qs Qc Qd 8h", exclude_suit="h", own_suit="s")
    assert (brad.category, brad.name, len(brad.cards)) == ("pair", "pair of aces", 4)
    assert (frank.category, frank.name, len(frank.cards)) == ("three of a kind", "three queens", 3)
    assert frank.key > brad.key
    assert frank.rank == rank("Qs Qc Qd 8h", exclude_suit="h")
    assert brad.rank == rank("3h Ac Ad 9c", exclude_suit="s")


def test_fewer_than_five_cards_missing_kicker_ranks_below_any_card() -> None:
    assert rank("Ac Ad 9c") < rank("Ac Ad 9c 5h")
    assert rank("Ac Ad 9c 5h") < rank("Ac Ad 9c 5h 3s")
    assert rank("Ac Ad 9c") < rank("Ac Ad Tc")
    assert rank("Ac Ad 9c 5h 3s") < rank("Ac Ad Tc")
    assert rank("Ac") < rank("Ac 2d")
    assert rank("Kc Qd Jh Ts") < rank("Ac 2d")  # high card: the top card first
    assert rank("Ac Kd Qh Js") < rank("2c 2d")  # any pair beats any high card
    assert rank("2c 2d 2h 3s") < rank("Ac Ad Ah")  # trips: the triplet first
    assert rank("Ac Ad Ah") > rank("Kc Kd Ah As")  # threes beat two pairs, even short
    assert rank("2c 2d 2h 2s") > rank("Ac Ad Ah Kc Ks")  # four without a kicker beats a full house
    assert category_of(rank("2c 3d 4h 5s")) == "high card"  # a straight needs five cards
    assert category_of(rank("2h 3h 4h 5h")) == "high card"  # so does a flush


def test_no_cards_is_the_lowest_rank() -> None:
    assert hand_rank([]) == 0
    assert category_of(0) == "high card"
    assert min(hand_rank([card]) for card in FULL_DECK) > 0
    assert hand_rank(parse_cards("2c")) < hand_rank(parse_cards("3c"))
    empty = best_hand([])
    assert (empty.rank, empty.cards, empty.own_suit_count) == (0, (), 0)


# --- palace-poker.txt, "Bet (or battle)" -> "Banner Suits" --------------------------------------


def test_palace_poker_banner_suits_excluded_cards_do_not_count() -> None:
    # Elena (diamonds) battling Frank (spades): her spades are worthless in that battle.
    elena = "4d Kc Qs 9s 7s 5s 2s"
    assert best(elena).name == "queen-high flush"
    assert best(elena, exclude_suit="s").name == "high card, king"
    assert [card.code for card in best(elena, exclude_suit="s").cards] == ["Kc", "4d"]
    # A clubs player's heart flush is worthless against the hearts banner.
    flush = "7c Ah Jh 8h 6h 3h"
    assert best(flush).name == "ace-high flush"
    assert best(flush, exclude_suit="h").name == "high card, seven"
    assert rank(flush, exclude_suit="h") == rank("7c")
    # Against any other suit the flush stands.
    assert rank(flush, exclude_suit="d") == rank(flush)


def test_palace_poker_example_game_continued_pair_that_is_half_the_opponents_suit() -> None:
    # Round two: Dave (banner J of diamonds, palace J J 5, soldier 9) battles Christine (spades):
    # his jack of spades does not count, leaving a pair of jacks. Christine (palace 6 6 8, banner
    # 10 of spades, soldiers 7 and J) has her pair only with the six of diamonds, Dave's suit.
    dave = best("Jd Js Jh 5c 9h", exclude_suit="s", own_suit="d")
    christine = best("Ts 7h Jc 6c 6d 8h", exclude_suit="d", own_suit="s")
    assert dave.name == "pair of jacks"
    assert [card.code for card in dave.cards] == ["Jd", "Jh", "9h", "5c"]
    assert christine.name == "high card, jack"
    assert best("Ts 7h Jc 6c 6d 8h").name == "pair of sixes"
    assert dave.key > christine.key


def test_palace_poker_banner_suits_four_of_a_kind_counts_whole() -> None:
    # Round three: Dave holds all four jacks, one of them a spade, and battles Frank (spades).
    dave = best("Jd Js Jh 5c Jc", exclude_suit="s", own_suit="d")
    assert dave.name == "four jacks"
    assert [card.code for card in dave.cards] == ["Jc", "Jd", "Jh", "Js", "5c"]
    assert dave.rank == rank("Jd Js Jh 5c Jc")
    assert dave.rank == rank("Jd Js Jh 5c Jc", exclude_suit="s")
    # Frank (banner Q of spades, palace Q Q 8, soldier the 8 of clubs) has a full house, but his
    # queen of diamonds is useless against Dave: two pair.
    frank = best("Qs Qd Qc 8h 8c", exclude_suit="d", own_suit="s")
    assert best("Qs Qd Qc 8h 8c").name == "full house, queens over eights"
    assert frank.name == "two pair, queens and eights"
    assert dave.key > frank.key


def test_palace_poker_banner_suits_four_of_a_kind_kicker_from_counting_cards_only() -> None:
    # The kicker must be a card that counts: the king of spades does not, the two does.
    assert rank("9s 9h 9d 9c Ks 2d", exclude_suit="s") == rank("9s 9h 9d 9c 2d")
    assert rank("9s 9h 9d 9c Ks 2d", exclude_suit="h") == rank("9s 9h 9d 9c Ks")
    hand = best("9s 9h 9d 9c Ks 2d", exclude_suit="s")
    assert [card.code for card in hand.cards] == ["9c", "9d", "9h", "9s", "2d"]
    # No counting card left for a kicker: four nines alone, below four nines with any kicker.
    alone = best("9s 9h 9d 9c Ks", exclude_suit="s")
    assert (alone.name, len(alone.cards)) == ("four nines", 4)
    assert alone.rank == rank("9s 9h 9d 9c")
    assert rank("9s 9h 9d 9c") < rank("9s 9h 9d 9c 2d")
    # Without all four the exception does not apply: three nines less the spade are a pair.
    assert best("9s 9h 9d Kc", exclude_suit="s").name == "pair of nines"


def test_palace_poker_banner_suits_four_of_a_kind_loses_to_counting_straight_flush() -> None:
    cards = "9s 9d 9c 9h 5h 6h 7h 8h"
    assert best(cards).name == "nine-high straight flush"
    assert best(cards, exclude_suit="s").name == "nine-high straight flush"
    assert best(cards, exclude_suit="d").name == "nine-high straight flush"
    # Excluding hearts breaks the straight flush: the four nines (the heart included) are left.
    assert best(cards, exclude_suit="h").name == "four nines"
    assert rank("Th Jh Qh Kh Ah", exclude_suit="s") > rank("9s 9d 9c 9h Ad", exclude_suit="s")


# --- palace-poker.txt, "Ties" and "Winning the Pot" -----------------------------------------


def test_palace_poker_winning_the_pot_own_suit_breaks_a_tie() -> None:
    # Elena (banner J of diamonds) and Aaron (banner 5 of hearts) both show K K J 9 8; Elena's
    # hand holds three of her suit, Aaron's two. Aaron's 9 is a diamond, Elena's suit: at a
    # showdown it counts.
    elena = best("Jd Kd 8d Ks 9s", own_suit="d")
    aaron = best("5h Kh Jh Kc 9d 8c", own_suit="h")
    assert elena.rank == aaron.rank
    assert elena.name == aaron.name == "pair of kings"
    assert (elena.own_suit_count, aaron.own_suit_count) == (3, 2)
    assert elena.key > aaron.key


def test_palace_poker_ties_best_hand_takes_the_most_own_suit_cards() -> None:
    # Two pair aces and kings; the queen kicker can be either queen: the heart is chosen.
    hand = best("As Ah Ks Kh Qs Qh 2c", own_suit="h")
    assert hand.name == "two pair, aces and kings"
    assert hand.own_suit_count == 3
    assert Card.parse("Qh") in hand.cards
    assert best("As Ah Ks Kh Qs Qh 2c", own_suit="s").own_suit_count == 3
    assert best("As Ah Ks Kh Qs Qh 2c", own_suit="c").own_suit_count == 0
    assert best("As Ah Ks Kh Qs Qh 2c").own_suit_count == 0
    # The count never buys a worse hand: the best rank comes first.
    flush = best("Ah Kh Qh Jh 9h Ac Ad", own_suit="c")
    assert (flush.category, flush.own_suit_count) == ("flush", 0)


# --- errors -------------------------------------------------------------------------------


def test_duplicate_cards_are_rejected() -> None:
    for call in (hand_rank, best_hand):
        with pytest.raises(EngineError) as error:
            call(parse_cards("As Kd As"))
        assert error.value.code == "duplicate_cards"
    with pytest.raises(EngineError):
        hand_rank([Card(14, "s"), Card(14, "s")], exclude_suit="s")


def test_unknown_suits_are_rejected() -> None:
    with pytest.raises(EngineError) as error:
        rank("As Kd", exclude_suit="x")
    assert error.value.code == "invalid_suit"
    for options in ({"exclude_suit": "spades"}, {"own_suit": "S"}):
        with pytest.raises(EngineError) as error:
            best("As Kd", **options)
        assert error.value.code == "invalid_suit"


def test_best_hand_rejects_bad_input() -> None:
    with pytest.raises(EngineError) as error:
        best_hand(FULL_DECK[: MAX_CARDS + 1])
    assert error.value.code == "too_many_cards"
    with pytest.raises(EngineError) as error:
        best_hand(["As"])  # type: ignore[list-item]
    assert error.value.code == "invalid_card"


def test_category_of_rejects_non_ranks() -> None:
    for value in (-1, 9 << 20):
        with pytest.raises(EngineError) as error:
            category_of(value)
        assert error.value.code == "invalid_hand_rank"


# --- properties -----------------------------------------------------------------------------

hands = st.lists(st.sampled_from(FULL_DECK), unique=True, max_size=MAX_CARDS)
suits = st.sampled_from([None, "c", "d", "h", "s"])


def reference_rank(cards: list[Card], exclude_suit: str | None) -> int:
    """The "Banner Suits" rule spelt out: best of the counting cards, or quads plus a counting kicker."""
    counting = [card for card in cards if card.suit != exclude_suit]
    value = hand_rank(counting)
    for quad_rank in {card.rank for card in cards}:
        quad = [card for card in cards if card.rank == quad_rank]
        if exclude_suit is not None and len(quad) == 4:
            kickers = [card for card in counting if card.rank != quad_rank]
            value = max([value, hand_rank(quad)] + [hand_rank([*quad, kicker]) for kicker in kickers])
    return value


@settings(max_examples=400, deadline=None)
@given(cards=hands, exclude_suit=suits, own_suit=suits)
def test_best_hand_rank_equals_hand_rank(cards: list[Card], exclude_suit: str | None, own_suit: str | None) -> None:
    hand = best_hand(cards, exclude_suit=exclude_suit, own_suit=own_suit)
    assert hand.rank == hand_rank(cards, exclude_suit=exclude_suit)
    assert hand.rank == reference_rank(cards, exclude_suit)
    assert hand.category == category_of(hand.rank)
    assert hand.key == (hand.rank, hand.own_suit_count)
    assert len(set(hand.cards)) == len(hand.cards) <= 5
    assert set(hand.cards) <= set(cards)
    assert hand_rank(hand.cards) == hand.rank
    assert hand.own_suit_count == sum(card.suit == own_suit for card in hand.cards)
    if exclude_suit is not None and any(card.suit == exclude_suit for card in hand.cards):
        assert hand.category == "four of a kind"
    counting = [card for card in cards if card.suit != exclude_suit]
    assert len(hand.cards) == min(5, len(counting)) or hand.category == "four of a kind"


@settings(max_examples=300, deadline=None)
@given(cards=hands, own_suit=suits)
def test_best_hand_own_suit_count_is_the_most_among_equal_hands(cards: list[Card], own_suit: str | None) -> None:
    hand = best_hand(cards, own_suit=own_suit)
    size = min(5, len(cards))
    most = max(
        sum(card.suit == own_suit for card in combo)
        for combo in combinations(cards, size)
        if hand_rank(combo) == hand.rank
    )
    assert hand.own_suit_count == most


@settings(max_examples=300, deadline=None)
@given(cards=hands, exclude_suit=suits, data=st.data())
def test_hand_rank_ignores_card_order_and_never_drops_with_another_card(
    cards: list[Card], exclude_suit: str | None, data: st.DataObject
) -> None:
    value = hand_rank(cards, exclude_suit=exclude_suit)
    shuffled = data.draw(st.permutations(cards))
    assert hand_rank(shuffled, exclude_suit=exclude_suit) == value
    assert hand_rank(tuple(cards), exclude_suit=exclude_suit) == value
    if len(cards) < MAX_CARDS:
        extra = data.draw(st.sampled_from([card for card in FULL_DECK if card not in cards]))
        assert hand_rank([*cards, extra], exclude_suit=exclude_suit) >= value
