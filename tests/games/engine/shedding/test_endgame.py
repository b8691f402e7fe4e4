"""The face-up and face-down cards, going out, the end of the match and its ranking, the stalemate
rule and two decks, one rule each (given / when / then). Tables come from ``helpers.table``."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.chance import prearranged
from games.engine.errors import IllegalAction
from games.engine.protocol import SPECTATOR, STAFF, Action
from games.engine.shedding import PALACE as GAME
from games.engine.shedding.state import FINISHED, ShedState, pack
from tests.games.engine.shedding.helpers import act, codes, only, table


def plays(state: ShedState, seat: int) -> list[str]:
    return [codes(entry.cards) for entry in GAME.legal_actions(state, seat) if entry.type == "play"]


# Face-up cards -----------------------------------------------------------------------------------


def test_a12_2_with_hand_and_stock_empty_the_face_up_cards_are_played_like_a_hand():
    """palace-shedding-a.txt ¶12.2-3 (``face_up_play: "from_table"``): no hand, no stock: he plays
    from his face-up cards, two of a rank together if he likes."""
    state = table(hands=["", "Kh Kd"], face_up=["9s 9h Qs", "Ah"], face_down=["3c 4c 5c", "3d 4d 5d"], pile="8h")
    assert plays(state, 0) == ["9h 9s", "Qs"]
    state, events = act(state, 0, "play", cards="9s 9h")
    assert events[0].data["source"] == "face_up" and codes(state.face_up[0]) == "Qs"


def test_a12_1_face_up_cards_wait_while_the_hand_holds_cards():
    """palace-shedding-a.txt ¶12.1-2 and ¶12.4: after picking up, he plays from his hand again until
    it is empty, even with the stock gone."""
    state = table(hands=["6s", "Kh Kd"], face_up=["9s 9h Qs", "Ah"], face_down=["3c 4c 5c", "3d 4d 5d"], pile="8h")
    assert plays(state, 0) == []
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play", cards="Qs")
    assert raised.value.code == "not_your_cards"
    state, _ = act(state, 0, "pick_up")
    state, _ = act(state, 1, "play", cards="Kh")
    assert plays(state, 0) == []  # 6 and 8 in hand do not beat a king; Q face up may not be played
    assert [entry.type for entry in GAME.legal_actions(state, 0)] == ["pick_up"]


def test_b_gameplay_into_hand_the_face_up_cards_are_taken_up_once_the_hand_is_empty():
    """palace-shedding-b.txt "Gameplay" (``face_up_play: "into_hand"``): with the stock gone, playing
    his last hand card makes him take up his face-up cards, known to all; after a pick-up they mix
    with the pile's cards (text a would keep them on the table)."""
    options = {"face_up_play": "into_hand"}
    state = table(
        hands=["9s", "Kh Kd"],
        face_up=["Js Qs As", "Ah"],
        face_down=["3c 4c 5c", "3d 4d 5d"],
        pile="8h",
        options=options,
    )
    state, events = act(state, 0, "play", cards="9s")
    assert only(events, "face_up_taken")[0].cards["cards"].visible_to is None
    assert codes(state.hands[0]) == "Js Qs As" and not state.face_up[0]
    assert GAME.view(state, 1)["seats"][0]["hand"] == ["Js", "Qs", "As"]
    state, _ = act(state, 1, "play", cards="Kh Kd")
    assert plays(state, 0) == ["As"]


# Face-down cards ---------------------------------------------------------------------------------

BLIND = {"hands": ["", "Kh Kd"], "face_up": ["", "Ah"], "face_down": ["9s 3s Qs", "3d 4d 5d"]}


def test_a13_face_down_cards_come_last_and_are_flipped_one_at_a_time_blind():
    """palace-shedding-a.txt ¶13.1-4: only ``play_face_down`` is open; nobody, the owner included,
    sees the cards; the flipped card that meets the pile goes on it and the turn moves on."""
    state = table(**BLIND, pile="8h")
    assert [entry.type for entry in GAME.legal_actions(state, 0)] == ["play_face_down"]
    for viewer in (0, 1, SPECTATOR):
        assert [row["card"] for row in GAME.view(state, viewer)["seats"][0]["face_down"]] == [None] * 3
    assert [row["card"] for row in GAME.view(state, STAFF)["seats"][0]["face_down"]] == ["9s", "3s", "Qs"]
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play", cards="9s")
    assert raised.value.code == "play_face_down"
    state, events = act(state, 0, "play_face_down", target=2)
    assert codes(state.pile) == "8h Qs" and state.turn == 1
    assert events[0].data["position"] == 2 and events[0].cards["cards"].visible_to is None
    assert [row["position"] for row in GAME.view(state, 0)["seats"][0]["face_down"]] == [0, 1]


def test_a13_3_without_a_target_the_first_face_down_card_left_is_flipped():
    state = table(**BLIND, pile="8h")
    state, events = act(state, 0, "play_face_down")
    assert events[0].data["position"] == 0 and codes(state.pile) == "8h 9s"
    state = table(**{**BLIND, "face_down": ["- 3s Qs", "3d 4d 5d"]}, pile="8h")
    for target in (0, 3, -1):
        with pytest.raises(IllegalAction) as raised:
            act(state, 0, "play_face_down", target=target)
        assert raised.value.code == "invalid_target"


def test_a13_5_b_gameplay_a_failed_blind_card_goes_to_the_hand_with_the_pile_seen_by_all():
    """palace-shedding-a.txt ¶13.5-6 and b "Gameplay": the three does not meet the eight: he takes it
    and the pile; everyone saw both; later he plays from that hand again."""
    state = table(**BLIND, pile="6h 8h")
    state, events = act(state, 0, "play_face_down", target=1)
    failed = only(events, "face_down_failed")[0]
    assert failed.cards["card"].visible_to is None and failed.data["hidden"] is False
    assert codes(state.hands[0]) == "3s 6h 8h" and not state.pile and state.turn == 1
    assert GAME.view(state, 1)["seats"][0]["hand"] == ["3s", "6h", "8h"]
    state, _ = act(state, 1, "play", cards="Kh")
    assert [entry.type for entry in GAME.legal_actions(state, 0)] == ["pick_up"]


def test_b_gameplay_house_rule_a_failed_blind_card_may_stay_hidden_from_the_others():
    """palace-shedding-b.txt "Gameplay", the house rule (``hide_failed_blind_card``): only its owner
    sees the failed card; the pile's cards stay known to all."""
    state = table(**BLIND, pile="6h 8h", options={"hide_failed_blind_card": True})
    state, events = act(state, 0, "play_face_down", target=1)
    failed = only(events, "face_down_failed")[0]
    assert failed.to_json(1)["cards"]["card"]["cards"] == [None]
    assert failed.to_json(0)["cards"]["card"]["cards"] == ["3s"]
    assert GAME.view(state, 1)["seats"][0]["hand"] == ["6h", "8h", None]
    assert GAME.view(state, 0)["seats"][0]["hand"] == ["3s", "6h", "8h"]


def test_face_down_cards_wait_for_the_face_up_ones():
    state = table(hands=["", "Kh"], face_up=["9h", "Ah"], face_down=["9s 3s Qs", "3d 4d 5d"])
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play_face_down")
    assert raised.value.code == "face_down_not_yet"


# Going out and the end ---------------------------------------------------------------------------


def test_a22_players_drop_out_as_they_finish_and_the_last_one_left_loses():
    """palace-shedding-a.txt ¶22.1-2 (``finish: "last_player_loses"``): seat 0 goes out first, the
    match goes on; when seat 2 goes out, seat 1 is left and loses. The result lists the order."""
    down = ["- - 9s", "3d 4d 5d", "- - Qh"]
    state = table(3, hands=["", "2d", ""], face_up=["", "", ""], face_down=down, pile="8h")
    state, events = act(state, 0, "play_face_down")
    assert only(events, "player_out")[0].data == {"place": 1} and not GAME.is_over(state)
    assert state.turn == 1 and GAME.view(state, 1)["out_order"] == [0]
    state, _ = act(state, 1, "play", cards="2d")
    assert state.turn == 2
    state, events = act(state, 2, "play_face_down")
    assert GAME.is_over(state) and state.phase == FINISHED and GAME.to_act(state) == ()
    ended = only(events, "match_ended")[0]
    assert ended.data["order"] == [0, 2, 1] and ended.data["reason"] == "last_player"
    assert GAME.view(state, SPECTATOR)["result"] == {"order": [0, 2, 1], "reason": "last_player"}
    with pytest.raises(IllegalAction) as raised:
        act(state, 1, "play_face_down")
    assert raised.value.code == "game_over"


def test_b_goal_the_first_player_out_wins_and_the_others_rank_by_cards_left():
    """palace-shedding-b.txt "Goal" (``finish: "first_out_wins"``); the text ranks nobody else: the rest
    follow by fewest cards left, ties in deal order."""
    down = ["- - 9s", "3d 4d 5d", "- 3h 4h"]
    state = table(3, hands=["", "", "Kh"], face_down=down, pile="8h", options={"finish": "first_out_wins"})
    state, events = act(state, 0, "play_face_down")
    assert GAME.is_over(state)
    assert only(events, "match_ended")[0].data["order"] == [0, 1, 2]
    assert only(events, "match_ended")[0].data["cards_left"] == {"0": 0, "1": 3, "2": 3}


def test_a_player_whose_last_card_burns_the_pile_is_out_and_the_turn_passes():
    """The texts are silent: going out on a ten or a four ends his turn; the next player starts anew."""
    state = table(3, hands=["Ts", "Kh", "Kd"], face_down=["", "3d", "3h"], pile="8h")
    state, _ = act(state, 0, "play", cards="Ts")
    assert state.out == (0,) and state.turn == 1 and not state.pile


def test_the_stalemate_rule_ends_the_match_after_max_turns_and_ranks_by_cards_left():
    """Neither text has one: after ``max_turns`` play decisions the match ends; the players still in
    rank by fewest cards left (see the package docstring)."""
    state = table(hands=["6s 7s", "Kh"], face_down=["3c", "3d"], pile="9h", stock="Js", options={"max_turns": 2})
    state, _ = act(state, 0, "pick_up")
    assert not GAME.is_over(state)
    state, events = act(state, 1, "play", cards="Kh")
    assert GAME.is_over(state) and state.end_reason == "stalemate"
    assert only(events, "match_ended")[0].data["order"] == [1, 0]


# Two decks ---------------------------------------------------------------------------------------


def test_two_decks_seat_up_to_ten_and_a_code_names_either_copy():
    """Option ``decks: 2`` (b header: more decks for more players): a code such as ``9s`` stands for
    either copy; two copies play as a pair; each code stays in play exactly twice."""
    state = table(hands=["9s 9s 4c", "Kh"], face_down=["3c", "3d"], pile="8h", stock="Js", options={"decks": 2})
    assert plays(state, 0) == ["9s 9s"]
    state, _ = act(state, 0, "play", cards="9s 9s")
    assert codes(state.pile) == "8h 9s 9s"
    assert state.all_cards() == Counter(pack(2)) and len(pack(2)) == 104
    state = GAME.new_game({"decks": 2, "first_dealer": 9}, 10)
    state, _ = GAME.apply(state, prearranged(GAME.chance_request(state).cards))
    assert [len(hand) for hand in state.hands] == [3] * 10 and len(state.stock) == 104 - 90
    assert GAME.to_act(state) == tuple(range(10))


def test_a_play_names_cards_by_code_and_a_bad_action_shape_is_refused():
    state = table(hands=["9s 4c", "Kh"], face_down=["3c", "3d"], pile="8h", stock="Js")
    action = Action.from_json({"type": "play", "seat": 0, "cards": ["9s"]})
    state2, _ = GAME.apply(state, action)
    assert codes(state2.pile) == "8h 9s"
    for bad, code in (
        (Action(type="play", seat=0, cards=action.cards, target=1), "unexpected_field"),
        (Action(type="pick_up", seat=0, cards=action.cards), "unexpected_field"),
        (Action(type="bet", seat=0), "unknown_action"),
        (Action(type="play", cards=action.cards), "not_your_turn"),
        (Action(type="choose_face_up", seat=0, cards=action.cards), "action_not_allowed"),
        (Action(type="shuffle", cards=action.cards), "no_shuffle_due"),
    ):
        with pytest.raises(IllegalAction) as raised:
            GAME.apply(state, bad)
        assert raised.value.code == code
