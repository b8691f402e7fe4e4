"""Resigning in Palace Poker (``games.engine.poker.resign``; the README's decisions list, "Resigning").

palace-poker.txt, "Fold" (the second: a player who must leave the table folds) and "Fold" (the first: the
attacker takes a folding defender's banner and soldiers); the match rules of ``ending`` (a player with no
chips leaves; the match ends when one player is left). Given/when/then with prearranged decks.
"""

from __future__ import annotations

import random

import pytest

from games.engine.chance import sample_shuffle
from games.engine.errors import EngineError
from games.engine.protocol import Action
from tests.games.engine.poker.helpers import GAME, only
from tests.games.engine.poker.test_rules_scenarios import deal, play

BANNERS = "Ac Kd Qh Js"  # four suits: anybody may bet against anybody


def resign(state, seat: int, **fields):
    return GAME.apply(state, Action(type="resign", seat=seat, **fields))


def test_fold_second_a_player_who_resigns_on_his_turn_folds_and_leaves_the_match():
    """palace-poker.txt, "Fold" (the second): given three players and seat 0 on turn, when he resigns, then
    his cards go to the discard pile, the turn passes to seat 1, and he never acts again in the match."""
    state, _ = deal(3, BANNERS, max_hands=3)
    assert GAME.to_act(state) == (0,)
    pot = state.pot
    state, events = resign(state, 0)
    assert [event.type for event in events][:2] == ["resigned", "fold"]
    assert not state.in_match[0] and not state.in_hand[0] and state.resigned == (0,)
    assert state.banners[0] is None and len(state.discards) == 4
    assert GAME.to_act(state) == (1,) and state.pot == pot, "the chips he put in stay in the pot"
    assert GAME.legal_actions(state, 0) == ()


def test_winning_the_pot_a_resignation_out_of_turn_leaves_the_last_player_the_pot_and_the_match():
    """palace-poker.txt, "Winning the Pot" (the last player takes it) and the match rules: given two players
    and seat 0 on turn, when seat 1 resigns out of turn, then seat 0 takes the pot and, alone in the match,
    wins it; seat 1's stack stays his, out of play."""
    state, _ = deal(2, BANNERS, max_hands=5)
    stack = state.stacks[1]
    state, events = resign(state, 1)
    assert only(events, "pot_awarded")[0].data["reason"] == "last_player"
    assert GAME.is_over(state) and state.winners == (0,)
    assert state.stacks[1] == stack, "nobody takes a resigned player's stack"


def test_fold_first_a_defender_who_resigns_in_a_battle_folds_it():
    """palace-poker.txt, "Fold" (the first): given seat 0 betting against seat 1 of three, when seat 1
    resigns instead of answering, then seat 0 takes his banner as a soldier and owes his discard step."""
    state, _ = deal(3, BANNERS, max_hands=3)
    state, _ = play(state, "0 bet 1")
    state, events = resign(state, 1)
    assert [event.type for event in events][:2] == ["resigned", "battle_fold"]
    assert [card.code for card in only(events, "captured")[0].cards["cards"].cards] == ["Kd"]
    assert state.step == "discard" and state.actor == 0


def test_raise_an_attacker_who_resigns_while_the_defender_answers_gets_back_no_chips_but_his_uncalled_raise():
    """palace-poker.txt, "Raise" and "Fold": given seat 1 raising seat 0's bet and seat 0 re-raising, when
    seat 0 resigns while seat 1 is to answer, then seat 0 loses the battle (seat 1 takes his banner) and his
    own re-raise, which nobody called, goes back to his stack."""
    state, _ = deal(3, BANNERS, max_hands=3)
    state, _ = play(state, "0 bet 1", "1 raise", "0 raise")
    assert GAME.to_act(state) == (1,)
    before = state.stacks[0]
    state, events = resign(state, 0)
    (returned,) = only(events, "chips_returned")
    assert returned.seat == 0 and state.stacks[0] == before + returned.data["amount"]
    assert only(events, "captured")[0].seat == 1


def test_a_resignation_out_of_turn_during_a_battle_leaves_the_battle_to_decide_the_hand():
    """Given seat 0 betting against seat 1 of three, when seat 2 resigns, then the battle goes on: seat 1 is
    still to answer and the hand is not over."""
    state, _ = deal(3, BANNERS, max_hands=3)
    state, _ = play(state, "0 bet 1")
    state, events = resign(state, 2)
    assert [event.type for event in events] == ["resigned", "fold"]
    assert GAME.to_act(state) == (1,) and state.step == "battle"


def test_a_seat_out_of_the_match_cannot_resign_again():
    state, _ = deal(3, BANNERS, max_hands=3)
    state, _ = resign(state, 2)
    with pytest.raises(EngineError) as info:
        resign(state, 2)
    assert info.value.code == "not_in_match"


@pytest.mark.parametrize(
    ("fields", "code"), [({"seat": 7}, "invalid_seat"), ({"seat": 0, "target": 1}, "unexpected_field")]
)
def test_a_malformed_resignation_is_refused(fields, code):
    state, _ = deal(3, BANNERS, max_hands=3)
    with pytest.raises(EngineError) as info:
        GAME.apply(state, Action(type="resign", **fields))
    assert info.value.code == code


def test_nobody_resigns_while_chance_owes_a_shuffle():
    state = GAME.new_game({"first_dealer": 1}, 2)
    with pytest.raises(EngineError) as info:
        resign(state, 0)
    assert info.value.code == "awaiting_shuffle"


def test_a_resigned_seat_is_dealt_no_more_hands_and_a_timeout_resignation_is_announced():
    """The match rules (``ending.end_hand``): given seat 2 resigning by the server's timeout in the first
    hand, when the hand ends and the next is dealt, then the timeout is logged and seat 2 gets no banner."""
    state, _ = deal(3, BANNERS, max_hands=3)
    state, events = resign(state, 2, timeout=True)
    assert [(event.type, event.seat) for event in events[:2]] == [("timeout", 2), ("resigned", 2)]
    state, _ = play(state, "0 stay", "1 stay")  # both left pass in a row: the hand ends in a showdown
    assert state.hand_number == 1 and GAME.chance_request(state) is not None
    rng = random.Random(1)
    while GAME.chance_request(state) is not None:
        state, _ = GAME.apply(state, sample_shuffle(GAME.chance_request(state), rng))
    assert state.hand_number == 2 and state.banners[2] is None and not state.in_hand[2]
    assert GAME.view(state, "spectator")["seats"][2]["resigned"] is True


@pytest.mark.parametrize("seats", [2, 3])
def test_without_money_the_last_player_who_resigns_before_his_score_ends_the_hand_unwon(seats):
    """palace-poker.txt, "Palace Poker without money": the winner of the last battle takes his discard step
    before he scores. Given seat 0 winning the battle that leaves him alone in the hand, when he resigns in that
    step, then nobody is left in the hand: it ends with no winner and no score (it once failed an assertion),
    and the match ends with one player left in it or goes on to the next hand."""
    loser = seats - 1
    state, _ = deal(seats, hands={0: "Ah As 7h", loser: "3h 4s 8s"}, points=True, ante=0, max_hands=3)
    # Three seats: seat 1 folds, then seat 2 attacks seat 0 and loses.
    state, _ = play(state, "0 bet 1") if seats == 2 else play(state, "0 stay", "1 fold", "2 bet 0")
    assert (state.step, state.actor, state.players_in_hand()) == ("discard", 0, (0,))
    state, events = resign(state, 0)
    assert [event.type for event in events][:3] == ["resigned", "fold", "hand_ended"]
    assert not only(events, "points_scored") and not only(events, "pot_awarded") and state.scores[0] == 0
    if seats == 2:
        assert GAME.is_over(state) and state.winners == (1,), "one player is left in the match"
    else:
        assert not GAME.is_over(state) and GAME.chance_request(state).purpose == "banner_deal"
