"""The Palace Poker search's own parts: what it reads of the opponent (games/engine/bots/poker_inference.py),
what a hand is worth to the match (poker_match.py), and the candidates it weighs (poker_search.py).

Rules: palace-poker.txt, "Bet (or battle)", "Winning the Pot", "Palace Poker without money", as the engine
implements them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from games.engine.bots.poker_basic import PokerBasicBot
from games.engine.bots.poker_inference import _meets, read_opponent
from games.engine.bots.poker_match import chips_match_value, points_match_value
from games.engine.bots.poker_search import PokerSearchRules
from games.engine.bots.search import shuffled, to_action
from games.engine.poker import PALACE_POKER
from games.engine.poker.state import FINISHED, PokerState
from games.engine.protocol import Action


def _heads_up(options: dict[str, Any], seed: int, matches: int) -> Iterator[tuple[PokerState, int, dict[str, Any]]]:
    """``(state, seat, view)`` at every decision of ``matches`` heads-up matches between two ``basic`` bots."""
    rng, bot = random.Random(seed), PokerBasicBot()
    for _ in range(matches):
        state = PALACE_POKER.new_game(options, 2)
        while not PALACE_POKER.is_over(state):
            request = PALACE_POKER.chance_request(state)
            if request is not None:
                state, _ = PALACE_POKER.apply(state, Action(type="shuffle", cards=tuple(shuffled(request.cards, rng))))
                continue
            seat = PALACE_POKER.to_act(state)[0]
            view = PALACE_POKER.view(state, seat)
            yield state, seat, view
            state, _ = PALACE_POKER.apply(state, to_action(seat, bot.choose(view, rng)))


@pytest.mark.parametrize("options", [{"max_hands": 8}, {"points": True, "target_points": 40}], ids=["money", "points"])
def test_the_reading_of_basic_holds_for_its_real_cards(options):
    """Given heads-up matches of two ``basic`` bots, when the seat to act reads its opponent from its view,
    then the opponent's real cards meet nearly every constraint (each is reckoned so that the real deal
    meets it), while uniform deals of the hidden cards miss them often (the reading says something)."""
    rules, rng = PokerSearchRules(), random.Random(1)
    real = uniform = checked = 0
    for state, seat, view in _heads_up(options, seed=2, matches=4):
        reading = read_opponent(view, seat)
        if reading is None:
            continue
        for constraint in reading.constraints:
            real += _meets(constraint, state, reading.seat, seat)
            uniform += _meets(constraint, rules._deal(view, seat, rng), reading.seat, seat)
            checked += 1
    assert checked > 40
    assert real >= 0.9 * checked
    assert uniform <= 0.8 * checked


def test_the_points_race_is_fair_between_equals_and_settled_at_the_target():
    assert points_match_value(0, 0, 100) == pytest.approx(0.5)
    assert points_match_value(40, 70, 100) + points_match_value(70, 40, 100) == pytest.approx(1.0)
    assert points_match_value(70, 40, 100) > points_match_value(60, 40, 100) > points_match_value(40, 40, 100)
    assert points_match_value(100, 95, 100) == 1.0
    assert points_match_value(95, 100, 100) == 0.0
    # 9 points instead of 10 leaves him a hand more to win from 0: a fold against one soldier is worth something
    assert points_match_value(0, 9, 100) > points_match_value(0, 10, 100)


def test_the_chip_race_counts_only_the_sign_after_the_last_hand():
    assert chips_match_value(1, 0, 5) == 1.0
    assert chips_match_value(0, 0, 5) == 0.5
    assert chips_match_value(-1, 0, 5) == 0.0
    assert chips_match_value(0, 10, 5) == pytest.approx(0.5)
    assert 0.5 < chips_match_value(20, 10, 5) < chips_match_value(20, 2, 5) < 1.0
    assert chips_match_value(-20, 10, 5) == pytest.approx(1 - chips_match_value(20, 10, 5))


def test_the_reward_is_the_chance_to_win_the_match_where_its_end_is_in_sight():
    """Given a heads-up money match in its last hand, when a rollout ends that hand with the seat ahead by
    a chip, then its reward is a won match (1), where the hand's chips alone would say about half."""
    root, seat, _view = next(_heads_up({"max_hands": 1}, seed=3, matches=1))
    other = 1 - seat
    ahead = replace(root, stacks=tuple(1001 if s == seat else 999 for s in range(2)), phase=FINISHED, winners=(seat,))
    assert PokerSearchRules().reward(root, ahead, seat) == 1.0
    assert PokerSearchRules().reward(root, ahead, other) == 0.0
    assert PokerSearchRules(match_aware=False).reward(root, ahead, seat) == pytest.approx(0.5, abs=0.02)


def test_under_points_folding_is_weighed_when_the_other_holds_soldiers():
    """Given heads-up ``points`` turns, when the search lists its candidates, then ``fold`` is among them
    exactly when the opponent holds soldiers (he would score 10 less them, palace-poker.txt, "Palace Poker
    without money")."""
    rules, rng, seen = PokerSearchRules(), random.Random(4), {True: 0, False: 0}
    for _state, seat, view in _heads_up({"points": True, "target_points": 40}, seed=5, matches=3):
        if view["step"] != "turn":
            continue
        opponent = view["seats"][1 - seat]
        holds = bool(opponent["soldiers"])
        assert ({"type": "fold"} in rules.candidates(view, rng)) == holds
        seen[holds] += 1
    assert seen[True] > 0 and seen[False] > 0
