"""palace-poker.txt, Variations, "Palace Poker without money" (the ``points`` option): how a bet is
decided and when the winner scores.

Banners in these tables come in canonical deck order: seat 0 holds 2c, seat 1 2d, seat 2 2h. In a
battle each side's cards of the other's banner suit do not count ("Banner Suits").
"""

from __future__ import annotations

import pytest

from tests.games.engine.poker.helpers import GAME, only
from tests.games.engine.poker.test_rules_scenarios import codes, deal, legal, play, refused

POINTS = {"points": True, "ante": 0}
STRONG, WEAK = "Ah As 7h", "3h 4s 8s"  # a pair of aces; nothing, in either battle


def test_a_bet_is_decided_at_once_and_the_defender_sees_first_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money": the defender looks at the attacker's cards
    and declares who is out, with no calling or raising.

    Given three players without money, when seat 0 bets against seat 1 and holds the better hand,
    then nobody answers: the battle is decided in the same action, the defender has seen the
    attacker's palace cards and the attacker has not seen his; seat 0 takes his discard step and
    the turn then passes on."""
    state, _ = deal(3, hands={0: STRONG, 1: WEAK}, **POINTS)
    state, events = play(state, "0 bet 1")
    assert [event.type for event in events][:2] == ["bet", "palace_shown"]
    assert not only(events, "call") and state.battle is None
    (shown,) = only(events, "palace_shown")
    assert (shown.seat, shown.data["to"], shown.cards["palace"].visible_to) == (0, 1, frozenset({0, 1}))
    assert state.known[0] == {1} and state.known[1] == frozenset()
    assert only(events, "battle_won")[0].seat == 0 and not state.in_hand[1]
    assert (state.step, state.actor) == ("discard", 0) and set(legal(state, 0)) == {"discard"}
    assert refused(state, "1 fold") == "not_your_turn" and refused(state, "0 call") == "action_not_allowed"
    state, _ = play(state, "0 keep")
    assert (state.step, state.turn) == ("turn", 2)


def test_a_defender_who_wins_shows_his_cards_after_seeing_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money" with "Call": the defender sees the attacker's
    palace cards first; when his hand is better he shows his own so the attacker can confirm.

    Given two players without money, when seat 0 bets against seat 1 who holds the better hand,
    then seat 0's palace is shown to seat 1 first, then seat 1's to seat 0, and seat 1 wins."""
    state, _ = deal(2, hands={0: WEAK, 1: STRONG}, **POINTS)
    state, events = play(state, "0 bet 1")
    assert [(event.seat, event.data["to"]) for event in only(events, "palace_shown")] == [(0, 1), (1, 0)]
    assert only(events, "battle_won")[0].seat == 1 and (state.step, state.actor) == ("discard", 1)


def test_no_answer_is_offered_after_a_bet_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money": no calling or raising, so a bet offers no
    ``fold``, ``call`` or ``raise`` to anyone; the bet itself takes no amount.

    Given two players without money, when seat 0 bets, then no seat has a battle answer."""
    state, _ = deal(2, hands={0: STRONG, 1: WEAK}, **POINTS)
    assert refused(state, "0 bet 1 5") == "invalid_amount"
    state, _ = play(state, "0 bet 1")
    offered = {action.type for seat in range(2) for action in GAME.legal_actions(state, seat)}
    assert offered == {"discard"}


@pytest.mark.parametrize(("discarded", "points"), [("", 8), ("2d", 9), ("9c 2d", 10)])
def test_winner_of_the_last_battle_discards_before_the_score_palace_poker_without_money(discarded, points):
    """palace-poker.txt, "Palace Poker without money" (10 minus the soldiers that end up in the
    winner's hand) with "Fold" (a battle winner can discard as many as he wants).

    Given two players without money, seat 0 holding a bought 9c, when he wins the last battle
    (taking the 2d banner), then the hand is not scored yet; when he then discards ``discarded``,
    then he scores 10 minus the soldiers he kept."""
    state, _ = deal(2, hands={0: STRONG, 1: WEAK}, stock="9c", **POINTS)
    state, _ = play(state, "0 buy", "0 keep", "1 stay")
    state, events = play(state, "0 bet 1")
    assert not only(events, "points_scored") and not only(events, "hand_ended")
    assert (state.step, state.actor) == ("discard", 0) and codes(state.soldiers[0]) == ["9c", "2d"]
    state, events = play(state, f"0 discard {discarded}" if discarded else "0 keep")
    (scored,) = only(events, "points_scored")
    assert (scored.seat, scored.data["points"], scored.data["reason"]) == (0, points, "last_player")
    assert state.scores == (points, 0)


def test_winner_with_more_than_five_soldiers_keeps_at_most_five_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money" (scores range from 5 to 10) with "Buy" (five
    soldiers at most).

    Given seat 0 with five bought soldiers, when he wins the last battle (six soldiers), then
    keeping all is refused; when he discards one, then he scores 5."""
    state, _ = deal(2, hands={0: STRONG, 1: WEAK}, stock="9c 9h 5c 6h 3c", **POINTS)
    for _ in range(5):
        state, _ = play(state, "0 buy", "0 keep", "1 stay")
    state, _ = play(state, "0 bet 1")
    assert len(state.soldiers[0]) == 6 and refused(state, "0 keep") == "too_many_soldiers"
    state, events = play(state, "0 discard 3c")
    assert only(events, "points_scored")[0].data["points"] == 5


def test_timeout_of_the_last_discard_step_keeps_no_soldier_palace_poker_without_money():
    """palace-poker.txt, "Palace Poker without money": the last player's discard step comes just
    before his score, 10 minus the soldiers he keeps; a timeout there keeps none.

    Given seat 0 who won the last battle with a bought 9c and the captured 2d, when his deadline
    passes, then the default discards both and he scores 10."""
    state, _ = deal(2, hands={0: STRONG, 1: WEAK}, stock="9c", **POINTS)
    state, _ = play(state, "0 buy", "0 keep", "1 stay", "0 bet 1")
    default = GAME.default_action(state, 0)
    assert (default.type, codes(default.cards), default.timeout) == ("discard", ["9c", "2d"], True)
    state, events = GAME.apply(state, default)
    assert only(events, "points_scored")[0].data["points"] == 10


def test_timeout_of_a_discard_step_before_more_play_keeps_soldiers_palace_poker_without_money():
    """A timeout in a discard step keeps the soldiers (dropping the lowest beyond five) while the
    hand goes on: only the last player's step before the score discards them all.

    Given three players without money, when seat 0 wins a battle against seat 1, then the
    default of his discard step keeps the captured 2d."""
    state, _ = deal(3, hands={0: STRONG, 1: WEAK}, **POINTS)
    state, _ = play(state, "0 bet 1")
    default = GAME.default_action(state, 0)
    assert (default.type, default.cards) == ("discard", ())
