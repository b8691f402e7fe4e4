"""The basic Palace Poker bot's rules, one hand-made scenario each (given / when / then).

Decks are prearranged: the last seat deals, so seat 0 gets the first banner and palace card and
plays first; palace cards are dealt one at a time in seat order; the named stock cards follow.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from games.engine.bots import BOTS
from games.engine.bots.poker_reading import beat_rate, completions, read_table
from games.engine.chance import sample_shuffle
from games.engine.evaluator import hand_rank
from games.engine.poker import PALACE_POKER as GAME
from games.engine.poker.state import PokerState
from games.engine.protocol import Action
from tests.games.engine.poker.helpers import shuffle_with

BASIC = BOTS["basic"]


def deal(banners: str, *palaces: str, stock: str = "", **options: Any) -> PokerState:
    """One seat per palace (three codes each), seat 0 first to play, with the given banners in seat order."""
    seats = len(palaces)
    state = GAME.new_game({"starting_stack": 200, "first_dealer": seats - 1, "max_hands": 1, **options}, seats)
    state, _ = shuffle_with(state, banners)
    dealt = [card for cards in zip(*(palace.split() for palace in palaces), strict=True) for card in cards]
    state, _ = shuffle_with(state, " ".join([*dealt, *stock.split()]))
    return state


def heads_up(banners: str, palace0: str, palace1: str, stock: str = "", **options: Any) -> PokerState:
    return deal(banners, palace0, palace1, stock=stock, **options)


def choice(state: PokerState, seat: int) -> dict[str, Any]:
    assert GAME.to_act(state) == (seat,)
    return BASIC.choose(GAME.view(state, seat), random.Random(0))


def then(state: PokerState, seat: int, type_: str, **fields: Any) -> PokerState:
    state, _ = GAME.apply(state, Action(type=type_, seat=seat, **fields))
    return state


def test_attacks_with_a_strong_hand():
    """palace-poker.txt, "Bet (or battle)": with three aces (none of the opponent's suit) it bets
    against the only opponent; in limit the bet is fixed, so it names no amount."""
    state = heads_up("As 2h", "Ad Ac Kd", "7c 4d 9s")
    assert choice(state, 0) == {"type": "bet", "target": 1}


def test_bets_more_than_the_minimum_with_a_monster_in_no_limit():
    """palace-poker.txt, "Bet (or battle)": in no-limit the formula is only the minimum."""
    state = heads_up("As 2h", "Ad Ac Kd", "7c 4d 9s", betting="no_limit")
    body = choice(state, 0)
    assert body["type"] == "bet" and body["target"] == 1 and body["amount"] > 5


def test_does_not_attack_with_nothing():
    """With seven-high it does not bet: it buys (a soldier is cheap) or stays."""
    state = heads_up("2s 9h", "7c 4d 3h", "Ad Ac Kd")
    assert choice(state, 0)["type"] in {"buy", "stay"}


def test_the_opponents_banner_suit_does_not_count_in_its_estimate():
    """palace-poker.txt, "Banner Suits": a pair whose second card is of the opponent's banner suit
    is no pair in a battle against him, though it still counts at a showdown."""
    state = heads_up("Ks 9h", "Kh 8c 4d", "2c 3c 5d")
    table = read_table(GAME.view(state, 0), 0)
    opponent = table.opponent(1)
    assert beat_rate(table, opponent, battle=True) < beat_rate(table, opponent, battle=False)


def test_folds_trash_to_an_attack():
    """palace-poker.txt, "Fold": attacked with nine-high (its nine of spades does not count
    against a spade banner), it folds rather than pay."""
    state = then(heads_up("As 2h", "Ad Ac Kd", "7c 4d 9s"), 0, "bet", target=1)
    assert choice(state, 1) == {"type": "fold"}


def test_raises_an_attack_with_a_strong_hand():
    """palace-poker.txt, "Raise": attacked while holding three kings, it raises."""
    state = then(heads_up("As 2h", "7c 4d 9d", "Kh Kd Kc"), 0, "bet", target=1)
    assert choice(state, 1) == {"type": "raise"}


def test_calls_a_cheap_attack_with_a_fair_hand():
    """palace-poker.txt, "Call": with a pair of jacks against a lone banner, the price of a call
    (5 chips for a pot of 9) is low enough."""
    state = then(heads_up("3s 2h", "7c 4d 9d", "Jh Jd 6c"), 0, "bet", target=1)
    assert choice(state, 1)["type"] in {"call", "raise"}


def test_keeps_a_soldier_that_makes_two_pair():
    """palace-poker.txt, "Buy": after buying, a soldier that pairs its banner is kept."""
    state = then(heads_up("9s 2h", "Kd Kh 5c", "7c 4d 3h", stock="9d"), 0, "buy")
    assert choice(state, 0) == {"type": "discard"}


def test_discards_a_soldier_that_does_nothing():
    """palace-poker.txt, "Buy": a soldier that neither makes nor draws to a hand only raises the
    cost of every battle ("Bet (or battle)", "Call": one small bet per face-up card): it goes."""
    state = then(heads_up("9s 2h", "Kd Kh 5c", "7c 4d 3h", stock="3c"), 0, "buy")
    assert choice(state, 0) == {"type": "discard", "cards": ["3c"]}


def test_keeps_at_most_five_soldiers_after_a_capture():
    """palace-poker.txt, "Fold": the winner takes the loser's banner and soldiers as soldiers and
    keeps at most five; it keeps the ones that help."""
    state = deal("As 2h 3c", "Ad Ac Kd", "7c 4d 9s", "Tc Jc 8c", stock="Kc 8d 6h 5s 3d Qh")
    for _ in range(3):
        state = then(then(state, 0, "buy"), 0, "discard")
        state = then(then(state, 1, "buy"), 1, "discard")
        state = then(state, 2, "stay")
    state = then(state, 0, "bet", target=1)
    state = then(state, 1, "fold")
    discard = GAME.view(state, 0)["legal_actions"][0]
    assert discard["type"] == "discard" and len(discard["cards"]) == 7 and discard["min_cards"] == 2
    body = choice(state, 0)
    assert len(body["cards"]) >= 2
    assert "Kc" not in body["cards"], "the king makes a full house with the three aces"


def exact_beat_rate(table, opponent, *, battle: bool) -> float:
    """``beat_rate`` by enumerating every completion of the opponent's hidden palace cards."""
    mine = hand_rank(table.me.known, exclude_suit=opponent.banner.suit if battle else None)
    score = total = 0.0
    for hidden in combinations(table.unseen, opponent.hidden):
        theirs = hand_rank([*opponent.known, *hidden], exclude_suit=table.me.banner.suit if battle else None)
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        total += 1
    return score / total


@pytest.mark.parametrize("seed", range(6))
def test_the_estimate_is_close_to_an_exact_count(seed):
    """The quasi-random completions (``poker_reading.completions``) estimate the share of the
    opponent's possible palace cards that the bot's hand beats within 0.1 of the exact share,
    with and without the battle rule (palace-poker.txt, "Banner Suits")."""
    rng = random.Random(seed)
    state = GAME.new_game({"first_dealer": 1, "max_hands": 1}, 2)
    while (request := GAME.chance_request(state)) is not None:
        state, _ = GAME.apply(state, sample_shuffle(request, rng))
    for _ in range(rng.randint(0, 4)):  # a few soldiers each, kept
        for seat in (0, 1):
            state = then(then(state, seat, "buy"), seat, "discard")
    table = read_table(GAME.view(state, 0), 0)
    opponent = table.opponent(1)
    for battle in (True, False):
        estimate = beat_rate(table, opponent, battle=battle)
        assert estimate == beat_rate(table, opponent, battle=battle), "the estimate is deterministic"
        assert abs(estimate - exact_beat_rate(table, opponent, battle=battle)) < 0.1


def test_completions_draw_distinct_cards_from_the_pool():
    for pool, hidden in [(40, 3), (5, 3), (3, 3), (44, 2), (10, 1)]:
        draws = completions(pool, hidden, 48)
        assert len(draws) == 48
        assert all(len(set(draw)) == hidden and all(0 <= i < pool for i in draw) for draw in draws)
    assert completions(40, 0, 48) == ((),)


def test_counts_its_wild_king_under_kings_in_the_house():
    """palace-poker.txt, Variations, "Kings in the House Rule": the king of one's own banner suit in
    the palace stands for any card up to king: Kh 7d 4d under a 9h banner is a pair of nines, not
    king high."""
    plain = heads_up("9h 2s", "Kh 7d 4d", "7c 5d 3s")
    wild = heads_up("9h 2s", "Kh 7d 4d", "7c 5d 3s", kings_in_the_house=True)
    plain_table, wild_table = read_table(GAME.view(plain, 0), 0), read_table(GAME.view(wild, 0), 0)
    assert wild_table.wild and not plain_table.wild
    for battle in (True, False):
        rate_plain = beat_rate(plain_table, plain_table.opponent(1), battle=battle)
        rate_wild = beat_rate(wild_table, wild_table.opponent(1), battle=battle)
        assert rate_wild > rate_plain + 0.2, (battle, rate_plain, rate_wild)


def test_fears_the_opponents_hidden_wild_royals_under_kings_in_the_house():
    """The same rule for the opponent: any of his unseen palace cards may be a royal of his banner
    suit, so a middling hand beats him less often with the variation than without."""
    plain = heads_up("Qd 2s", "Qc 8h 4h", "7c 5d 3c")
    wild = heads_up("Qd 2s", "Qc 8h 4h", "7c 5d 3c", kings_in_the_house=True)
    plain_table, wild_table = read_table(GAME.view(plain, 0), 0), read_table(GAME.view(wild, 0), 0)
    rate_plain = beat_rate(plain_table, plain_table.opponent(1), battle=False)
    rate_wild = beat_rate(wild_table, wild_table.opponent(1), battle=False)
    assert rate_wild < rate_plain, (rate_plain, rate_wild)
