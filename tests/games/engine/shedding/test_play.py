"""Play from the hand: meeting the pile, drawing, picking up, tens, twos, fours of a kind, and the
out-of-turn plays (redraw, completing a four), one rule each (given / when / then).

Tables are arranged with ``helpers.table``: seat 0 on turn, the named zones, every other card burned.
"""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.errors import IllegalAction
from games.engine.protocol import STAFF
from games.engine.shedding import PALACE as GAME
from games.engine.shedding.state import ShedState
from tests.games.engine.shedding.helpers import act, codes, only, table

DOWN2 = ["3c 4c 5c", "3d 4d 5d"]
DOWN3 = ["3c 5c 8c", "3d 5d 8d", "3h 5h 8h"]


def plays(state: ShedState, seat: int) -> list[str]:
    return [codes(entry.cards) for entry in GAME.legal_actions(state, seat) if entry.type == "play"]


def types(state: ShedState, seat: int) -> list[str]:
    return [entry.type for entry in GAME.legal_actions(state, seat)]


# Meeting the pile --------------------------------------------------------------------------------


def test_a11_6_b_gameplay_a_play_meets_or_beats_the_top_card():
    """palace-shedding-a.txt ¶11.6 and b "Gameplay" (equal or higher): on an eight, an eight, a nine
    and an ace may go (b "Card Value": aces high), a seven may not."""
    state = table(hands=["7s 8s 9s As", "Kh"], face_down=DOWN2, pile="8h", stock="6s")
    assert plays(state, 0) == ["8s", "9s", "As"]
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play", cards="7s")
    assert raised.value.code == "does_not_beat"
    state, events = act(state, 0, "play", cards="8s")
    assert codes(state.pile) == "8h 8s" and state.turn == 1
    assert events[0].to_json(1)["cards"]["cards"]["cards"] == ["8s"]


def test_a11_7_b_gameplay_several_cards_of_one_rank_go_together_never_two_ranks():
    """palace-shedding-a.txt ¶11.2 and ¶11.7; b "Gameplay" (any number of the same card)."""
    state = table(hands=["9s 9h 9c Ks", "Kh"], face_down=DOWN2, stock="6s")
    assert plays(state, 0) == ["9c 9h 9s", "Ks"]
    for cards, code in (("9s Ks", "mixed_ranks"), ("9s 9d", "not_your_cards"), ("", "no_cards")):
        with pytest.raises(IllegalAction) as raised:
            act(state, 0, "play", cards=cards)
        assert raised.value.code == code
    state, _ = act(state, 0, "play", cards="9s 9h")
    assert codes(state.pile) == "9s 9h"


def test_a11_8_after_a_play_the_player_draws_back_up_to_three_cards():
    """palace-shedding-a.txt ¶11.8 and b "Gameplay": he draws until he holds three; the cards drawn are
    his alone to see, their number is public."""
    state = table(hands=["6s 9s Ks", "Kh"], face_down=DOWN2, stock="Js Qs Jd")
    state, events = act(state, 0, "play", cards="6s")
    assert codes(state.hands[0]) == "9s Js Ks" and codes(state.stock) == "Qs Jd"
    draw = only(events, "draw")[0]
    assert draw.data["count"] == 1 and draw.to_json(1)["cards"]["cards"]["cards"] == [None]
    assert draw.to_json(0)["cards"]["cards"]["cards"] == ["Js"]


def test_a11_8_a_player_holding_three_or_more_after_playing_draws_nothing():
    state = table(hands=["6s 9s Ks Kd Jh", "Kh"], face_down=DOWN2, stock="Js Qs")
    state, events = act(state, 0, "play", cards="6s")
    assert len(state.hands[0]) == 4 and not only(events, "draw") and len(state.stock) == 2


def test_a11_9_b_gameplay_a_player_who_cannot_play_picks_up_the_pile_and_his_turn_ends():
    """palace-shedding-a.txt ¶11.9-10 and b "Gameplay": he takes the whole pile, without drawing; the
    next player starts a new pile with anything; everyone saw the cards he took."""
    state = table(hands=["6s 7s", "3h"], face_down=DOWN2, pile="9h Ah", stock="Js")
    assert types(state, 0) == ["pick_up"]
    state, events = act(state, 0, "pick_up")
    assert codes(state.hands[0]) == "6s 7s 9h Ah" and not state.pile and state.turn == 1
    assert events[0].cards["cards"].visible_to is None and len(state.stock) == 1
    assert GAME.view(state, 1)["seats"][0]["hand"] == ["9h", "Ah", None, None]
    assert plays(state, 1) == ["3h"]


def test_b_must_play_if_able_forbids_picking_up_while_a_play_is_possible():
    """palace-shedding-b.txt "Other Misc. Rules", first bullet (option ``must_play_if_able``, on)."""
    state = table(hands=["6s 2s", "3h"], face_down=DOWN2, pile="9h", stock="Js")
    assert "pick_up" not in types(state, 0)
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "pick_up")
    assert raised.value.code == "must_play"


def test_without_must_play_if_able_a_player_may_pick_up_by_choice_but_not_an_empty_pile():
    options = {"must_play_if_able": False}
    state = table(hands=["6s Ks", "3h"], face_down=DOWN2, pile="9h", stock="Js", options=options)
    assert types(state, 0) == ["play", "pick_up"]
    state, _ = act(state, 0, "pick_up")
    assert codes(state.hands[0]) == "6s 9h Ks"
    with pytest.raises(IllegalAction) as raised:
        act(state, 1, "pick_up")
    assert raised.value.code == "empty_pile"


# Tens, twos, fours -------------------------------------------------------------------------------


def test_a18_b_card_value_a_ten_goes_on_anything_burns_the_pile_and_its_player_plays_again():
    """palace-shedding-a.txt ¶18.1-3 and b "Card Value": a ten on an ace burns the pile; the same player
    starts a new pile; he draws only when his turn ends (b "Gameplay": draw at the end of the turn)."""
    state = table(hands=["Ts 4s 6s", "Kh"], face_down=DOWN2, pile="9h Ah", stock="Js Qs")
    state, events = act(state, 0, "play", cards="Ts")
    assert not state.pile and all(card in state.burned for card in parse_cards("9h Ah Ts"))
    assert only(events, "burn")[0].data == {"reason": "ten"}
    assert state.turn == 0 and state.replay and len(state.hands[0]) == 2 and len(state.stock) == 2
    assert plays(state, 0) == ["4s", "6s"]
    state, _ = act(state, 0, "play", cards="4s")
    assert codes(state.hands[0]) == "6s Js Qs" and state.turn == 1


def test_b_card_value_draw_before_replay_draws_after_a_ten_before_playing_again():
    """palace-shedding-b.txt "Card Value", the NOTE (option ``draw_before_replay``)."""
    state = table(
        hands=["Ts 4s 6s", "Kh"], face_down=DOWN2, pile="9h", stock="Js Qs", options={"draw_before_replay": True}
    )
    state, _ = act(state, 0, "play", cards="Ts")
    assert codes(state.hands[0]) == "4s 6s Js" and state.turn == 0


def test_a_player_whose_hand_a_ten_empties_draws_before_playing_again_while_the_stock_lasts():
    """The texts are silent: with nothing in hand and cards in the stock he draws back up to three."""
    state = table(hands=["Ts", "Kh"], face_up=["Ac Ad Ah", "Kd"], face_down=DOWN2, stock="Js Qs")
    state, events = act(state, 0, "play", cards="Ts")
    assert codes(state.hands[0]) == "Js Qs" and state.turn == 0 and only(events, "draw")


def test_a20_a_two_goes_on_anything_and_the_next_player_may_play_anything_on_it():
    """palace-shedding-a.txt ¶20.1-2 (``two_effect: "next_player_any"``, the default)."""
    state = table(hands=["2s 6s 7s", "3h"], face_down=DOWN2, pile="Ah", stock="Js Qs")
    state, _ = act(state, 0, "play", cards="2s")
    assert state.turn == 1 and codes(state.pile) == "Ah 2s"
    assert plays(state, 1) == ["3h"]
    state, _ = act(state, 1, "play", cards="3h")
    assert codes(state.pile) == "Ah 2s 3h"


def test_b_card_value_with_play_again_the_player_of_a_two_plays_again_on_it():
    """palace-shedding-b.txt "Card Value", second bullet (``two_effect: "play_again"``); with
    ``draw_before_replay`` he first draws (the NOTE)."""
    state = table(
        hands=["2s 6s 7s", "3h"], face_down=DOWN2, pile="Ah", stock="Js Qs", options={"two_effect": "play_again"}
    )
    state, _ = act(state, 0, "play", cards="2s")
    assert state.turn == 0 and state.replay and plays(state, 0) == ["6s", "7s"] and len(state.hands[0]) == 2
    options = {"two_effect": "play_again", "draw_before_replay": True}
    state = table(hands=["2s 6s 7s", "3h"], face_down=DOWN2, pile="Ah", stock="Js Qs", options=options)
    state, _ = act(state, 0, "play", cards="2s")
    assert state.turn == 0 and codes(state.hands[0]) == "6s 7s Js"


def test_a16_all_four_of_a_rank_in_one_play_burns_the_pile_and_the_player_goes_again():
    """palace-shedding-a.txt ¶16.1-4."""
    state = table(hands=["9s 9h 9c 9d 6s", "3h"], face_down=DOWN2, pile="5h", stock="Js")
    state, events = act(state, 0, "play", cards="9s 9h 9c 9d")
    assert not state.pile and state.turn == 0 and only(events, "burn")[0].data == {"reason": "four_of_a_kind"}


def test_a17_b_four_of_a_rank_on_top_from_several_plays_burns_and_the_completer_goes_again():
    """palace-shedding-a.txt ¶17.1-2; b "Other Misc. Rules", second bullet (even by several players):
    on two sevens seat 0 adds a third, seat 1 the fourth; seat 1 burns the pile and plays again."""
    state = table(3, hands=["7s 6s", "7d Ah", "Kd"], face_down=DOWN3, pile="4h 7h 7c", stock="Js Qs Jd")
    state, _ = act(state, 0, "play", cards="7s")
    assert codes(state.pile) == "4h 7h 7c 7s" and state.turn == 1
    state, events = act(state, 1, "play", cards="7d")
    assert not state.pile and state.turn == 1 and state.replay and only(events, "burn")


def test_a17_a_two_between_breaks_a_four():
    state = table(hands=["7s 6s", "Kh"], face_down=DOWN2, pile="7h 7c 2h 7d", stock="Js")
    state, events = act(state, 0, "play", cards="7s")
    assert not only(events, "burn") and state.turn == 1


def test_ten_and_twos_are_playable_on_anything_even_when_nothing_else_is():
    state = table(hands=["3s Ts 2s", "Kh"], face_down=DOWN2, pile="Ah", stock="Js")
    assert plays(state, 0) == ["2s", "Ts"]


# Out of turn: redraw (text a) --------------------------------------------------------------------


def test_a19_a_player_who_draws_the_rank_he_just_played_may_add_it_before_the_next_player_plays():
    """palace-shedding-a.txt ¶19.1 (option ``redraw``, on): seat 0 plays a seven and draws a seven;
    he joins ``to_act`` beside seat 1 (who is on turn); adding it leaves the turn with seat 1 and he
    draws again. Only he and staff see that he may: the others' views show seat 1 alone."""
    state = table(hands=["7s 9s Ks", "Qh 8h"], face_down=DOWN2, pile="6h", stock="7h Js Qs")
    state, _ = act(state, 0, "play", cards="7s")
    assert GAME.to_act(state) == (1, 0)
    assert GAME.view(state, 1)["to_act"] == [1] and GAME.view(state, 0)["to_act"] == [1, 0]
    assert GAME.view(state, STAFF)["to_act"] == [1, 0]
    assert plays(state, 0) == ["7h"]
    state, events = act(state, 0, "play", cards="7h")
    assert events[0].data["kind"] == "redraw" and events[0].data["out_of_turn"] is True
    assert codes(state.pile) == "6h 7s 7h" and state.turn == 1 and codes(state.hands[0]) == "9s Js Ks"
    assert GAME.to_act(state) == (1,)


def test_a19_the_redraw_closes_once_the_next_player_has_played():
    """The first decision applied wins: seat 1 plays first, and seat 0 may no longer add his seven."""
    state = table(hands=["7s 9s Ks", "Qh 8h"], face_down=DOWN2, pile="6h", stock="7h Js Qs")
    state, _ = act(state, 0, "play", cards="7s")
    state, _ = act(state, 1, "play", cards="8h")
    assert GAME.to_act(state) == (0,) and state.redraw_seat is None
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play", cards="7h")
    assert raised.value.code == "does_not_beat"


def test_a19_only_just_drawn_cards_of_the_rank_may_be_added_and_not_by_picking_up():
    state = table(hands=["7s 7d 9s", "Qh 8h"], face_down=DOWN2, pile="6h", stock="7h Js Qs")
    state, _ = act(state, 0, "play", cards="7s")
    assert plays(state, 0) == ["7h"]
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play", cards="7d")
    assert raised.value.code == "invalid_out_of_turn_play"
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "pick_up")
    assert raised.value.code == "not_on_turn"


def test_a19_a_redraw_that_completes_a_four_burns_and_its_player_plays_again():
    state = table(hands=["7s 9s Ks", "Qh 8h"], face_down=DOWN2, pile="7c 7d", stock="7h Js Qs")
    state, _ = act(state, 0, "play", cards="7s")
    state, events = act(state, 0, "play", cards="7h")
    assert only(events, "burn") and state.turn == 0 and state.replay


def test_without_redraw_nobody_plays_out_of_turn():
    state = table(hands=["7s 9s Ks", "Qh 8h"], face_down=DOWN2, pile="6h", stock="7h Js Qs", options={"redraw": False})
    state, _ = act(state, 0, "play", cards="7s")
    assert GAME.to_act(state) == (1,) and GAME.legal_actions(state, 0) == ()


# Out of turn: completing a four (text b) ---------------------------------------------------------


def test_b_a_player_who_can_complete_a_four_may_play_out_of_turn_skipping_the_others():
    """palace-shedding-b.txt "Other Misc. Rules", third bullet and its example: A plays three fours,
    C holds the fourth; before B plays, C plays it, the pile burns, B is skipped and C starts anew."""
    options = {"out_of_turn_four": True}
    state = table(3, hands=["4c 4d 4h Ks", "Ah Qh", "4s 9s"], face_down=DOWN3, stock="Js Qs Jd", options=options)
    state, _ = act(state, 0, "play", cards="4c 4d 4h")
    assert GAME.to_act(state) == (1, 2)
    assert GAME.view(state, 1)["to_act"] == [1] and GAME.view(state, 2)["to_act"] == [1, 2]
    assert plays(state, 2) == ["4s"]
    state, events = act(state, 2, "play", cards="4s")
    assert events[0].data["kind"] == "four" and only(events, "burn")
    assert state.turn == 2 and state.replay and GAME.to_act(state) == (2,)
    state, _ = act(state, 2, "play", cards="9s")
    assert state.turn == 0


def test_b_the_out_of_turn_four_needs_enough_cards_and_closes_when_the_next_player_plays():
    options = {"out_of_turn_four": True}
    state = table(3, hands=["4c 4d Ks", "Ah Qh", "4s 4h 9s"], face_down=DOWN3, stock="Js Qs Jd", options=options)
    state, _ = act(state, 0, "play", cards="4c 4d")
    entry = [e for e in GAME.legal_actions(state, 2) if e.type == "play"][0]
    assert (entry.min_cards, entry.max_cards) == (2, 2)
    with pytest.raises(IllegalAction) as raised:
        act(state, 2, "play", cards="4s")
    assert raised.value.code == "invalid_out_of_turn_play"
    state, _ = act(state, 1, "play", cards="Qh")
    assert GAME.to_act(state) == (2,)
    with pytest.raises(IllegalAction) as raised:
        act(state, 2, "play", cards="4s 4h")
    assert raised.value.code == "does_not_beat"


def test_without_out_of_turn_four_the_holder_of_the_fourth_waits_his_turn():
    state = table(3, hands=["4c 4d 4h Ks", "Ah Qh", "4s 9s"], face_down=DOWN3, stock="Js Qs Jd")
    state, _ = act(state, 0, "play", cards="4c 4d 4h")
    assert GAME.to_act(state) == (1,)
    with pytest.raises(IllegalAction) as raised:
        act(state, 2, "play", cards="4s")
    assert raised.value.code == "not_your_turn"


# Out of turn: the turn cut short ends with the draw ----------------------------------------------


def test_b_gameplay_a_turn_cut_short_by_a_four_of_twos_ends_with_the_draw_to_three():
    """palace-shedding-b.txt "Gameplay" (every turn ends drawing to three) and "Other Misc. Rules",
    third bullet; a¶11.8 (the hand is replenished after every play). Given ``play_again`` twos and
    ``out_of_turn_four``: seat 0 plays a two on an ace and is to play again, two cards left; when
    seat 2 completes four twos out of turn, the pile burns and seat 2 plays again; then seat 0's
    turn has ended, so he draws back up to three (Js) before seat 2 plays."""
    options = {"two_effect": "play_again", "out_of_turn_four": True}
    hands = ["2s 6s 7s", "Kh Qh Jh", "2c 2d 2h 9s"]
    state = table(3, hands=hands, face_down=DOWN3, pile="Ah", stock="Js Qs Jd", options=options)
    state, _ = act(state, 0, "play", cards="2s")
    assert state.turn == 0 and state.replay and codes(state.hands[0]) == "6s 7s"
    assert GAME.to_act(state) == (0, 2)

    state, events = act(state, 2, "play", cards="2c 2d 2h")

    assert [event.type for event in events] == ["play", "burn", "draw"]
    assert only(events, "draw")[0].seat == 0 and codes(state.hands[0]) == "6s 7s Js"
    assert state.turn == 2 and state.replay and codes(state.hands[2]) == "9s" and codes(state.stock) == "Qs Jd"
    state, _ = act(state, 2, "play", cards="9s")
    assert codes(state.hands[2]) == "Jd Qs" and state.turn == 0


def test_b_gameplay_the_seat_skipped_by_a_four_completed_out_of_turn_draws_as_his_turn_ends():
    """palace-shedding-b.txt "Gameplay" and "Other Misc. Rules", third bullet, with the default
    ``next_player_any`` twos: seat 1 is on turn holding two cards (as after picking up a one-card
    pile on a two-card hand, a¶11.9, under ``must_play_if_able: false``); seat 2 completes the four
    of fours before seat 1 plays. Seat 1's turn ends there, so he draws one card (Jd)."""
    options = {"out_of_turn_four": True, "must_play_if_able": False}
    state = table(
        3, hands=["Ks", "Ah Qh", "4s 9s"], face_down=DOWN3, pile="4c 4d 4h", stock="Jd Qd", turn=1, options=options
    )
    assert GAME.to_act(state) == (1, 2)

    state, events = act(state, 2, "play", cards="4s")

    assert only(events, "draw")[0].seat == 1 and codes(state.hands[1]) == "Jd Qh Ah"
    assert state.turn == 2 and codes(state.hands[0]) == "Ks", "seat 0's turn was over already: nothing changes"


def test_a11_9_a_turn_ended_by_a_pick_up_still_ends_without_a_draw_under_out_of_turn_four():
    """palace-shedding-a.txt ¶11.9-10: picking up ends the turn without the draw, whatever the options."""
    options = {"two_effect": "play_again", "out_of_turn_four": True, "must_play_if_able": False}
    state = table(3, hands=["2s 6s", "Kh Qh Jh", "9s"], face_down=DOWN3, pile="Ah", stock="Js Qs", options=options)
    state, _ = act(state, 0, "play", cards="2s")
    state, events = act(state, 0, "pick_up")
    assert codes(state.hands[0]) == "2s 6s Ah" and not only(events, "draw") and state.turn == 1
