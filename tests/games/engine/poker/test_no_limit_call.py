"""palace-poker.txt, "Call": the Dave/Christine no-limit example.

Dave has three soldiers, Christine one; 5/10 no-limit; Dave bets 100 (at least 20). Christine calls
for 90 (two soldiers fewer, 10 less); with four soldiers she would call for 105.
"""

from __future__ import annotations

import random

import pytest

from games.engine.chance import sample_shuffle
from games.engine.poker.legal import legal_actions
from tests.games.engine.poker.helpers import GAME, act, only

CHRISTINE, DAVE = 0, 1


def heads_up_with_soldiers(christine_buys: int, dave_buys: int):
    """Christine acts first (Dave deals); both buy (keeping every card) until they hold the given soldiers."""
    rng = random.Random(7)
    state = GAME.new_game({"betting": "no_limit", "small_bet": 5, "big_bet": 10, "first_dealer": DAVE}, 2)
    while GAME.chance_request(state):
        state, _ = GAME.apply(state, sample_shuffle(GAME.chance_request(state), rng))
    wanted = {CHRISTINE: christine_buys, DAVE: dave_buys}
    while (
        GAME.to_act(state) != (DAVE,)
        or len(state.soldiers[DAVE]) < dave_buys
        or (len(state.soldiers[CHRISTINE]) < christine_buys)
    ):
        (seat,) = GAME.to_act(state)
        if len(state.soldiers[seat]) < wanted[seat]:
            state, _ = act(state, seat, "buy")
            state, _ = act(state, seat, "discard")
        else:
            state, _ = act(state, seat, "stay")
    return state


@pytest.mark.parametrize(("christine_soldiers", "call"), [(1, 90), (4, 105), (3, 100)])
def test_no_limit_call_is_the_bet_shifted_by_face_up_difference(christine_soldiers, call):
    state = heads_up_with_soldiers(christine_soldiers, 3)
    bet = {a.type: a for a in legal_actions(state, DAVE)}["bet"]
    assert (bet.min_amount, bet.cost) == (20, 20), "Dave needs at least (3 soldiers + 1) x 5"
    state, _ = act(state, DAVE, "bet", target=CHRISTINE, amount=100)
    offered = {a.type: a.cost for a in legal_actions(state, CHRISTINE)}
    assert offered["call"] == call
    _, events = act(state, CHRISTINE, "call")
    (called,) = only(events, "call")
    assert called.data == {"cost": call, "all_in": False}
    (award,) = only(events, "pot_awarded")
    assert award.data["pot"] == 2 * 2 + 5 * (christine_soldiers + 3) + 100 + call


def test_no_limit_bet_below_the_minimum_is_refused():
    state = heads_up_with_soldiers(1, 3)
    with pytest.raises(Exception) as raised:
        act(state, DAVE, "bet", target=CHRISTINE, amount=15)
    assert raised.value.code == "invalid_amount"


def test_no_limit_raise_is_at_least_a_big_bet_for_a_defender_with_soldiers_palace_poker_raise():
    state = heads_up_with_soldiers(1, 3)
    state, _ = act(state, DAVE, "bet", target=CHRISTINE, amount=100)
    raise_ = {a.type: a for a in legal_actions(state, CHRISTINE)}["raise"]
    assert raise_.min_amount == 10 and raise_.cost == 90 + 10
    assert raise_.max_amount == state.stacks[CHRISTINE] - 90
    with pytest.raises(Exception) as raised:
        act(state, CHRISTINE, "raise", amount=9)
    assert raised.value.code == "invalid_amount"
    state, _ = act(state, CHRISTINE, "raise", amount=50)
    assert state.battle.owed == 50 and state.battle.responder == DAVE
