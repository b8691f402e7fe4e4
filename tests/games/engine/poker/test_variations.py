"""Hand-made cases for the Palace Poker variation options, each named after its section.

palace-poker.txt, "Variations" (no_pot_sharing, open_market, points, kings_in_the_house), and the
places where palace-poker-hindi.txt reads differently (showdown_tie, no_limit_first_raise,
two_left_must_battle: see also test_two_left_must_battle and test_points_without_money).
"""

from __future__ import annotations

import random
from dataclasses import asdict, replace

import pytest

from games.engine.bots import get_bot
from games.engine.errors import InvalidOptions
from games.engine.poker.options import parse_options
from games.engine.protocol import SPECTATOR
from tests.games.engine.poker.helpers import GAME, only
from tests.games.engine.poker.test_rules_scenarios import award, codes, deal, legal, play, refused

# Options ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"no_pot_sharing": "yes"}, "invalid_option"),
        ({"open_market": 1}, "invalid_option"),
        ({"showdown_tie": "coin"}, "invalid_option"),
        ({"no_limit_first_raise": "any"}, "invalid_option"),
        ({"two_left_must_battle": "yes"}, "invalid_option"),
        ({"target_points": 50}, "inconsistent_options"),
        ({"points": True, "ante": 3}, "inconsistent_options"),
        ({"no_limit_first_raise": "big_bet"}, "inconsistent_options"),
        ({"points": True, "target_points": 0}, "invalid_option"),
        ({"wild": True}, "unknown_option"),
    ],
)
def test_variation_options_are_validated_palace_poker_variations(options, code):
    """palace-poker.txt, "Variations": every variation is a named option, checked at creation."""
    with pytest.raises(InvalidOptions) as info:
        GAME.normalize_options(options, 3)
    assert info.value.code == code


def test_variations_are_off_by_default_and_normalize_idempotently_palace_poker_variations():
    """palace-poker.txt, "Variations": the plain game is the default; normalized options re-parse."""
    normalized = GAME.normalize_options({}, 2)
    assert normalized["no_pot_sharing"] is False and normalized["open_market"] is False
    assert normalized["points"] is False and normalized["kings_in_the_house"] is False
    assert normalized["showdown_tie"] == "own_suit_count"
    assert normalized["no_limit_first_raise"] == "small_bet_without_soldiers"
    assert normalized["two_left_must_battle"] is False
    every = {"points": True, "target_points": 30, "open_market": True, "kings_in_the_house": True}
    every |= {"two_left_must_battle": True}
    every |= {"no_pot_sharing": True, "betting": "no_limit", "no_limit_first_raise": "big_bet"}
    once = GAME.normalize_options(every, 4)
    assert GAME.normalize_options(once, 4) == once and once["ante"] == 0
    assert GAME.view(GAME.new_game(once, 4), SPECTATOR)["options"] == once
    options = parse_options(every, 4)
    assert list(options.to_json().items()) == list(asdict(options).items()), "every option, in the fields' order"


# No Pot Sharing Rule ------------------------------------------------------------------------------


def test_same_banner_suit_players_show_down_instead_of_splitting_palace_poker_no_pot_sharing_rule():
    """palace-poker.txt, "No Pot Sharing Rule": players left sharing one banner suit show down at
    once (seats 0 and 4 are clubs); the best hand takes the whole pot."""
    hands = {0: "Qs Qd 7h", 4: "2h 3d 4s"}
    state, _ = deal(5, "Ac Ad Ah As Kc", hands=hands, no_pot_sharing=True)
    state, events = play(state, "0 stay", "1 fold", "2 fold", "3 fold")
    assert sorted(seat for seat in (e.seat for e in only(events, "palace_shown"))) == [0, 4]
    assert award(events) == ("showdown", {"0": 10})


# Open Market Rule ---------------------------------------------------------------------------------


def test_buying_the_top_discard_costs_a_big_bet_palace_poker_open_market_rule():
    """palace-poker.txt, "Open Market Rule": a player may buy the top card of the discard pile for
    one big bet; it is face down before and a face-up soldier after."""
    state, _ = deal(2, stock="9h 8c", open_market=True)
    assert "buy_discard" not in legal(state, 0)  # the discard pile is empty
    state, _ = play(state, "0 buy", "0 discard 9h")
    assert legal(state, 1)["buy_discard"].cost == 10
    assert GAME.view(state, 1)["discard_size"] == 1 and "9h" not in str(GAME.view(state, 1))
    before = state.stacks[1]
    state, events = play(state, "1 buy_discard")
    assert before - state.stacks[1] == 10 and codes(state.soldiers[1]) == ["9h"] and not state.discards
    (bought,) = only(events, "buy_discard")
    assert codes(bought.cards["card"].cards) == ["9h"] and bought.cards["card"].visible_to is None
    assert GAME.view(state, 0)["seats"][1]["soldiers"] == ["9h"]
    state, _ = play(state, "1 keep")
    assert state.step == "turn" and state.turn == 0


def test_buying_the_top_discard_needs_the_option_palace_poker_open_market_rule():
    """palace-poker.txt, "Open Market Rule" is a variation: off, the action is refused."""
    state, _ = deal(2, stock="9h 8c")
    state, _ = play(state, "0 buy", "0 discard 9h")
    assert "buy_discard" not in legal(state, 1)
    assert refused(state, "1 buy_discard") == "action_not_allowed"


# Palace Poker without money -----------------------------------------------------------------------


def test_points_game_is_free_and_scores_ten_minus_soldiers_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money": no antes, free attacks, a bet decided at
    once with nobody answering it; the winner scores 10 minus his soldiers."""
    hands = {0: "Ah As 7c", 1: "3c 4d 8s"}
    state, _ = deal(2, hands=hands, points=True, ante=0, max_hands=None, target_points=9)
    assert state.stacks == (1000, 1000) and state.pot == 0
    offered = legal(state, 0)
    assert offered["bet"].cost == 0 and offered["buy"].cost == 0
    state, events = play(state, "0 bet 1")
    assert only(events, "battle_won")[0].seat == 0 and not legal(state, 1)
    assert refused(state, "1 call") == "not_your_turn"
    state, events = play(state, "0 keep")
    (scored,) = only(events, "points_scored")
    assert scored.seat == 0 and scored.data["points"] == 9  # one soldier: the captured banner
    assert state.scores == (9, 0) and state.stacks == (1000, 1000)
    assert GAME.is_over(state) and state.winners == (0,)
    assert GAME.view(state, SPECTATOR)["scores"] == [9, 0]


def test_points_game_absolute_tie_scores_nobody_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money": an absolute tie (same hand, same count of
    own-suit cards) gives no winner and no points. Here a battle between the last two ties."""
    hands = {0: "Ah Kh Qs", 1: "As Ks Qh"}
    state, _ = deal(2, "5c 5d", hands=hands, points=True, ante=0)
    state, events = play(state, "0 bet 1")
    (scored,) = only(events, "points_scored")
    assert scored.seat is None and scored.data["points"] == 0 and state.scores == (0, 0)


def test_points_game_same_suit_end_is_a_showdown_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money": no pot-splitting, same-suit players left
    show down (seats 0 and 4 are clubs)."""
    hands = {0: "Qs Qd 7h", 4: "2h 3d 4s"}
    state, _ = deal(5, "Ac Ad Ah As Kc", hands=hands, points=True, ante=0)
    state, events = play(state, "0 stay", "1 fold", "2 fold", "3 fold")
    assert only(events, "palace_shown") and state.scores == (10, 0, 0, 0, 0)


# Kings in the House Rule --------------------------------------------------------------------------


@pytest.mark.parametrize(("variation", "winner"), [(False, 1), (True, 0)])
def test_own_suit_king_in_the_palace_is_wild_in_a_battle_palace_poker_kings_in_the_house_rule(variation, winner):
    """palace-poker.txt, "Kings in the House Rule": seat 0 (clubs banner) holds Kc in his palace;
    wild, it makes a third nine (the 9c) and beats seat 1's pair of aces."""
    hands = {0: "Kc 9h 9s", 1: "Ah As 3h"}
    state, _ = deal(2, "2c 2d", hands=hands, kings_in_the_house=variation)
    state, events = play(state, "0 bet 1", "1 call")
    (won,) = only(events, "battle_won")
    assert won.seat == winner


# palace-poker-hindi.txt ---------------------------------------------------------------------------


def test_showdown_tie_split_without_own_suit_count_palace_poker_hindi_winning():
    """palace-poker-hindi.txt, its showdown paragraph: a tie for top hand splits the pot (no
    own-suit count). The Elena/Aaron hands of palace-poker.txt, "Winning the Pot", split."""
    hands = {0: "Kc Ks 9h", 1: "Kh Kd 9s"}
    state, _ = deal(2, "5c Jh", hands=hands, stock="Jc 8h 8d", showdown_tie="split")
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep", "0 buy", "0 keep", "1 stay")
    state, events = play(state, "0 stay")
    reason, amounts = award(events)
    assert reason == "showdown" and set(amounts) == {"0", "1"}


def test_no_limit_first_raise_is_a_big_bet_even_without_soldiers_palace_poker_hindi_raise():
    """palace-poker-hindi.txt, "Raise": no-limit raises are at least the big bet, with no
    exception for a defender without soldiers (palace-poker.txt allows a small bet then)."""
    state, _ = deal(2, betting="no_limit", no_limit_first_raise="big_bet")
    state, _ = play(state, "0 bet 1")
    assert legal(state, 1)["raise"].min_amount == 10
    assert refused(state, "1 raise 5") == "invalid_amount"


# Bots, timeouts, stored games ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_basic_bot_answers_a_free_call_palace_poker_call(seed):
    """palace-poker.txt, "Call": a responder with an empty stack calls for nothing, and the bot's
    price of a call (chips against the pot) must not divide by zero. Seat 1 antes all of 2 chips."""
    state, _ = deal(2, hands={0: "Ah As 7c", 1: "3c 4d 8s"})
    state = replace(state, stacks=(state.stacks[0], 0))
    state, _ = play(state, "0 bet 1")
    assert legal(state, 1)["call"].cost == 0
    choice = get_bot("palace-poker", "basic").choose(GAME.view(state, 1), random.Random(seed))
    assert choice["type"] in {"call", "fold"}


def test_timeouts_under_variations_stay_or_fold_palace_poker_variations():
    """A timeout stays on a turn and folds in a battle, whatever the variations (but see
    ``two_left_must_battle`` and the last discard step of ``points`` in their own tests)."""
    state, _ = deal(2, open_market=True, kings_in_the_house=True, no_pot_sharing=True)
    assert GAME.default_action(state, 0).type == "stay"
    state, _ = play(state, "0 bet 1")
    assert GAME.default_action(state, 1).type == "fold"
    state, _ = deal(2, points=True, ante=0, open_market=True, kings_in_the_house=True)
    assert GAME.default_action(state, 0).type == "stay"


def test_a_stored_game_from_before_the_variations_still_loads():
    """Snapshots written before the variation options and ``scores`` existed load with the defaults."""
    state, _ = deal(2)
    data = GAME.state_to_json(state)
    for key in ("no_pot_sharing", "open_market", "points", "target_points", "kings_in_the_house"):
        del data["options"][key]
    del data["options"]["showdown_tie"], data["options"]["no_limit_first_raise"], data["scores"]
    del data["options"]["two_left_must_battle"]
    loaded = GAME.state_from_json(data)
    assert loaded.options == state.options and loaded.scores == ()


def test_same_suit_showdown_waits_for_the_battle_winners_discard_palace_poker_no_pot_sharing_rule():
    """palace-poker.txt, "No Pot Sharing Rule" with "Fold" (five soldiers at most): when a battle
    leaves only same-suit players, the winner first keeps or discards, then they show down.
    Seats 0 and 4 are clubs; seat 0 beats seat 1 (diamonds) when the others have folded."""
    state, _ = deal(5, "Ac Ad Ah As Kc", hands={0: "Qs Qd 7h", 4: "2h 3d 4s"}, stock="9d", no_pot_sharing=True)
    state, _ = play(state, "0 buy", "0 keep", "1 stay", "2 fold", "3 fold", "4 stay")
    state, events = play(state, "0 bet 1", "1 fold")
    assert not only(events, "pot_awarded") and state.step == "discard" and state.actor == 0
    state, events = play(state, "0 keep")
    assert award(events)[0] == "showdown"
