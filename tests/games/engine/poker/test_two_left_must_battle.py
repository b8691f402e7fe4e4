"""palace-poker-hindi.txt, "जीतना" (winning the pot), first paragraph, second sentence: two players
left must battle to decide the winner (the ``two_left_must_battle`` option, ``games.engine.poker.two_left``).

Banners come in canonical deck order: seat 0 holds 2c, seat 1 2d, seat 2 2h. In a battle each
side's cards of the other's banner suit do not count (palace-poker.txt, "Banner Suits").
"""

from __future__ import annotations

import random

import pytest

from games.engine.bots import get_bot
from games.engine.protocol import Action
from tests.games.engine.poker.helpers import GAME, only
from tests.games.engine.poker.test_rules_scenarios import award, deal, legal, play, refused

MUST = {"two_left_must_battle": True}
STRONG, WEAK = "Ah As 7h", "3h 4s 8s"  # a pair of aces; nothing, in either battle


def test_option_is_off_by_default_palace_poker_hindi_winning():
    """palace-poker.txt, "Stay" is the default: two players left may stay and end the hand quietly."""
    assert GAME.normalize_options({}, 2)["two_left_must_battle"] is False
    state, _ = deal(2)
    state, events = play(state, "0 stay", "1 stay")
    assert award(events)[0] == "showdown"


def test_last_two_may_not_stay_or_discard_on_their_turn_palace_poker_hindi_winning():
    """palace-poker-hindi.txt, "जीतना": the last two must battle.

    Given two players of different banner suits with the option, when seat 0 is on turn, then he
    is offered buy, bet and fold, and a Stay is refused; when he holds a soldier on his next turn,
    then a Discard turn is refused too (both are quiet turns)."""
    state, _ = deal(2, stock="9c 8d", **MUST)
    assert set(legal(state, 0)) == {"buy", "bet", "fold"}
    assert refused(state, "0 stay") == "must_battle"
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep")
    assert set(legal(state, 0)) == {"buy", "bet", "fold"}
    assert refused(state, "0 discard 9c") == "must_battle" and refused(state, "0 stay") == "must_battle"


def test_the_hand_of_the_last_two_ends_in_a_battle_palace_poker_hindi_winning():
    """palace-poker-hindi.txt, "जीतना": the battle decides the winner, who takes the pot.

    Given two players with the option, when seat 0 bets and seat 1 calls, then the better hand
    (seat 0) is the last player and takes the pot."""
    state, _ = deal(2, hands={0: STRONG, 1: WEAK}, **MUST)
    state, events = play(state, "0 bet 1", "1 call")
    assert award(events) == ("last_player", {"0": 4 + 5 + 5})


def test_a_fold_on_ones_turn_concedes_to_the_other_palace_poker_hindi_winning():
    """palace-poker.txt, "Fold" (the second: a player may always leave the hand) under the option:
    folding stays open to the last two and concedes the pot to the other, with no showdown.

    Given two players with the option, when seat 0 folds on his turn, then seat 1 takes the pot."""
    state, _ = deal(2, **MUST)
    state, events = play(state, "0 fold")
    assert award(events) == ("last_player", {"1": 4}) and not only(events, "palace_shown")


@pytest.mark.parametrize(("option", "ended"), [(False, True), (True, False)])
def test_quiet_turns_before_two_were_left_do_not_end_their_hand_palace_poker_hindi_winning(option, ended):
    """palace-poker.txt, "Stay" (a run of Stay/Discard/Fold by everyone ends the hand) against
    palace-poker-hindi.txt, "जीतना" (the last two must battle).

    Given three players, when seats 0 and 1 stay and seat 2 folds, then without the option the run
    is complete and the hand ends in a showdown; with it the run starts again, and seat 0, on
    turn, must battle."""
    state, _ = deal(3, two_left_must_battle=option)
    state, events = play(state, "0 stay", "1 stay", "2 fold")
    assert bool(only(events, "pot_awarded")) is ended
    if not ended:
        assert state.turn == 0 and "stay" not in legal(state, 0) and not state.quiet


def test_a_player_who_cannot_pay_the_bet_may_still_stay_palace_poker_hindi_winning():
    """palace-poker.txt, "Bet (or battle)" (the bet is paid in full) under the option: a player
    who cannot pay a bet keeps every choice of a turn.

    Given two players left with 1 chip each after the ante (the bet costs 5), when both stay,
    then the hand ends in a showdown as without the option."""
    state, _ = deal(2, starting_stack=3, **MUST)
    assert "bet" not in legal(state, 0) and "stay" in legal(state, 0)
    state, events = play(state, "0 stay", "1 stay")
    assert award(events)[0] == "showdown"


def test_a_timeout_of_the_last_two_bets_the_minimum_palace_poker_hindi_winning():
    """palace-poker-hindi.txt, "जीतना": the last two must battle, so a turn timeout bets the
    minimum against the other instead of staying (a fold would end the hand without a battle).

    Given two players with the option, when seat 0's deadline passes, then a bet of one small bet
    against seat 1 is applied and seat 1 answers it."""
    state, _ = deal(2, **MUST)
    default = GAME.default_action(state, 0)
    assert (default.type, default.target, default.amount, default.timeout) == ("bet", 1, None, True)
    state, events = GAME.apply(state, default)
    assert only(events, "bet")[0].data == {"target": 1, "amount": 5} and GAME.to_act(state) == (1,)
    assert GAME.default_action(state, 1).type == "fold"


def test_without_money_the_last_two_bet_and_it_is_decided_palace_poker_hindi_winning():
    """palace-poker-hindi.txt, "जीतना" with palace-poker.txt, "Palace Poker without money": a free
    bet can always be paid, so the last two never stay; a timeout's bet is decided at once.

    Given two players without money and the option, when seat 0 stays, then it is refused; when
    his deadline passes, then the bet is decided and seat 0 (the better hand) takes his discard
    step before he scores."""
    state, _ = deal(2, hands={0: STRONG, 1: WEAK}, points=True, ante=0, **MUST)
    assert refused(state, "0 stay") == "must_battle"
    state, events = GAME.apply(state, GAME.default_action(state, 0))
    assert only(events, "battle_won")[0].seat == 0 and (state.step, state.actor) == ("discard", 0)


@pytest.mark.parametrize("points", [False, True])
def test_basic_bot_never_passes_as_one_of_the_last_two_palace_poker_hindi_winning(points):
    """palace-poker-hindi.txt, "जीतना": the bot follows the option. Given the bot on turn with a
    weak hand, as one of the last two, when it chooses, then it bets or buys (both legal)."""
    options = {"points": points, "ante": 0} if points else {}
    state, _ = deal(2, hands={0: WEAK, 1: STRONG}, **options, **MUST)
    for seed in range(3):
        choice = get_bot("palace-poker", "basic").choose(GAME.view(state, 0), random.Random(seed))
        assert choice["type"] in {"bet", "buy"}
        GAME.apply(state, Action.from_json({**choice, "seat": 0}))
