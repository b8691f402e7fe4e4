"""Resigning in Palace, the shedding game (``games.engine.shedding.resign``; the README's decisions list,
"Resigning"): the player is out of the match for good and ranked last (palace-shedding-a.txt ¶22.1-2 and
palace-shedding-b.txt "Goal" rank the others as usual); his cards stay where they lie, as hidden as before."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import EngineError
from games.engine.protocol import SPECTATOR, Action
from games.engine.shedding.state import FINISHED, PLAY, SETUP
from tests.games.engine.shedding.helpers import GAME, THREE_SEATS, TWO_SEATS, act, deal, only, table


def resign(state, seat: int, **fields):
    return GAME.apply(state, Action(type="resign", seat=seat, **fields))


def test_a22_a_player_who_resigns_on_turn_is_passed_and_ranked_last():
    """a¶11.5 (the turn passes clockwise) and a¶22.1-2 (the last one holding cards loses), with a resigned
    player ranked below even him: given three players and seat 0 on turn, when seat 0 resigns, then seat 1
    plays next; when seat 2 resigns too, then the match ends with one player left, seat 0 ranked last."""
    state = table(3, hands=["9c", "Jd", "Qh"], stock="")
    assert GAME.to_act(state) == (0,)
    state, events = resign(state, 0)
    assert [event.type for event in events] == ["resigned"]
    assert state.resigned == (0,) and GAME.to_act(state) == (1,)
    assert GAME.legal_actions(state, 0) == ()
    state, events = resign(state, 2)
    assert state.phase == FINISHED and state.end_reason == "resigned"
    assert state.order == (1, 2, 0), "the last to resign above the first"


def test_a_player_who_resigns_out_of_turn_leaves_the_turn_where_it_is():
    state = table(3, hands=["9c", "Jd", "Qh"], stock="")
    state, _ = resign(state, 1)
    assert GAME.to_act(state) == (0,)
    state, _ = act(state, 0, "play", cards="9c")
    assert state.out == (0,), "seat 0 played his last card"
    assert state.phase == FINISHED and state.order == (0, 2, 1)


def test_a_resigned_players_cards_stay_hidden_where_they_lie():
    """Given seat 1 resigning with three hidden hand cards, when a spectator looks, then they are still
    hidden and still counted in his cards left: no card moves, none is shown."""
    state = table(3, hands=["9c Tc Kc", "Jd Kd Ad", "Qh"], stock="")
    state, _ = resign(state, 1)
    row = GAME.view(state, SPECTATOR)["seats"][1]
    assert row["hand"] == [None, None, None] and row["resigned"] is True and row["cards_left"] == 3


def test_b_setup_a_resignation_in_the_setup_turns_up_nobody_elses_choice_until_all_have_chosen():
    """palace-shedding-b.txt "Setup" (six cards to the hand, three chosen to lie face up): given three seats
    in the setup and seat 0 having chosen, when seat 2 resigns, then play waits for seat 1; once he has
    chosen, play begins without seat 2, whose six cards stay in his hand, unseen by the others."""
    state = deal(*THREE_SEATS, setup_deal="hand", first_player="left_of_dealer")
    state, _ = GAME.apply(state, Action(type="choose_face_up", seat=0, cards=state.face_up[0]))
    state, events = resign(state, 2)
    assert state.phase == SETUP and GAME.to_act(state) == (1,)
    state, events = GAME.apply(state, Action(type="choose_face_up", seat=1, cards=state.face_up[1]))
    assert state.phase == PLAY and state.turn == 0
    assert [event.seat for event in only(events, "face_up_set")] == [0, 1]
    row = GAME.view(state, 0)["seats"][2]
    assert row["face_up"] == [] and row["hand"] == [None] * 6


def test_a_resignation_that_leaves_one_player_in_the_setup_ends_the_match_and_shows_no_row():
    state = deal(*TWO_SEATS, setup_deal="hand")
    state, _ = resign(state, 0)
    assert state.phase == FINISHED and state.order == (1, 0)
    for viewer in (1, SPECTATOR):
        assert all(row["face_up"] == [] for row in GAME.view(state, viewer)["seats"])


def test_b_goal_with_first_out_wins_the_last_player_left_wins_when_the_others_resign():
    state = table(2, hands=["9c", "Jd"], stock="", options={"finish": "first_out_wins"})
    state, _ = resign(state, 0, timeout=True)
    assert state.phase == FINISHED and state.order == (1, 0)


def test_a19_a_pending_redraw_of_the_resigning_seat_closes():
    """a¶19.1 (redraw): given seat 0's chance to add a just-drawn card, when he resigns, it closes."""
    state = table(3, hands=["9c", "Jd", "Qh"], stock="")
    state = replace(state, turn=1, redraw_seat=0, redraw_cards=state.hands[0])
    state, _ = resign(state, 0)
    assert state.redraw_seat is None and GAME.to_act(state) == (1,)


def test_a_seat_no_longer_in_the_match_cannot_resign():
    state = table(3, hands=["9c", "Jd", "Qh"], stock="")
    state, _ = act(state, 0, "play", cards="9c")
    with pytest.raises(EngineError) as info:
        resign(state, 0)
    assert info.value.code == "not_in_match"
    state, _ = resign(state, 1)
    with pytest.raises(EngineError) as info:
        resign(state, 1)
    assert info.value.code == "game_over", "his resignation left one player: the match is over"


def test_every_seat_may_resign_during_the_simultaneous_setup():
    state = deal(*THREE_SEATS)
    for seat in (0, 1):
        state, _ = resign(state, seat)
    assert state.phase == FINISHED and state.order == (2, 1, 0)
