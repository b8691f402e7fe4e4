"""Views per viewer, legal actions (cost 0, the cards each names), timeout defaults, and the state's
JSON form (``games.engine.shedding.view``, ``legal``, ``state``)."""

from __future__ import annotations

import json

import pytest

from games.engine.errors import EngineError, IllegalAction
from games.engine.protocol import SPECTATOR, STAFF, Action
from games.engine.shedding import PALACE as GAME
from games.engine.shedding.state import ShedState
from tests.games.engine.shedding.helpers import TWO_SEATS, act, codes, deal, keep_all, table


def default(state: ShedState, seat: int) -> Action:
    action = GAME.default_action(state, seat)
    assert action.timeout and action.seat == seat
    GAME.apply(state, action)  # the default is always legal
    return action


def test_a_seat_sees_its_hand_the_public_cards_and_sizes_only_of_the_rest():
    """Hand: its owner; face up, pile, burned: everyone; face down: nobody (staff aside); the stock:
    its size only, even for staff (``state_to_json`` holds it)."""
    state = table(
        hands=["6s 9s Ks", "Qh 8h"],
        face_up=["As", "Ah"],
        face_down=["3c 4c 5c", "3d 4d 5d"],
        pile="6h",
        stock="7h Js Qs",
    )
    mine, theirs = GAME.view(state, 0), GAME.view(state, 1)
    assert mine["viewer"] == 0 and mine["kind"] == "palace"
    assert mine["seats"][0]["hand"] == ["6s", "9s", "Ks"] and theirs["seats"][0]["hand"] == [None] * 3
    assert theirs["seats"][0]["face_up"] == ["As"] and theirs["pile"] == ["6h"]
    assert mine["stock_size"] == 3 and all("stock" not in GAME.view(state, v) for v in (0, SPECTATOR, STAFF))
    assert mine["pile_top"] == {"rank": 6, "count": 1}
    spectator = GAME.view(state, SPECTATOR)
    assert spectator["legal_actions"] == [] and spectator["seats"][1]["hand"] == [None, None]
    assert GAME.view(state, STAFF)["seats"][1]["hand"] == ["8h", "Qh"]
    with pytest.raises(EngineError) as raised:
        GAME.view(state, 5)
    assert raised.value.code == "invalid_viewer"


def test_legal_actions_cost_nothing_and_name_their_cards():
    state = table(hands=["6s 6d 9s Ts", "Qh 8h"], face_down=["3c", "3d"], pile="6h", stock="7h")
    legal = [entry.to_json() for entry in GAME.legal_actions(state, 0)]
    assert legal == [
        {"type": "play", "cost": 0, "cards": ["6d", "6s"], "min_cards": 1, "max_cards": 2},
        {"type": "play", "cost": 0, "cards": ["9s"], "min_cards": 1, "max_cards": 1},
        {"type": "play", "cost": 0, "cards": ["Ts"], "min_cards": 1, "max_cards": 1},
    ]
    assert GAME.legal_actions(state, 1) == ()
    assert GAME.view(state, 0)["legal_actions"] == legal


# Timeout defaults --------------------------------------------------------------------------------


def test_the_setup_default_keeps_the_dealt_face_up_cards():
    state = deal(*TWO_SEATS)
    assert codes(default(state, 1).cards) == "6d 7d 8d"


def test_the_turn_default_plays_one_card_of_the_lowest_rank_keeping_twos_and_tens_for_last():
    state = table(hands=["Ts 2s 9s 9d Ks", "Qh"], face_down=["3c", "3d"], pile="8h", stock="7h")
    assert codes(default(state, 0).cards) in ("9d", "9s")
    state = table(hands=["Ts 2s 4s", "Qh"], face_down=["3c", "3d"], pile="Ah", stock="7h")
    assert codes(default(state, 0).cards) == "2s"


def test_the_turn_default_picks_up_when_nothing_plays_and_flips_the_first_face_down_card():
    state = table(hands=["4s", "Qh"], face_down=["3c", "3d"], pile="Ah", stock="7h")
    assert default(state, 0).type == "pick_up"
    state = table(hands=["", "Qh"], face_down=["- 3c 5c", "3d"], pile="Ah")
    action = default(state, 0)
    assert action.type == "play_face_down" and action.target == 1


def test_an_out_of_turn_seat_defaults_to_its_smallest_out_of_turn_play_and_others_have_none():
    state = table(hands=["7s 9s Ks", "Qh 8h"], face_down=["3c", "3d"], pile="6h", stock="7h Js Qs")
    state, _ = act(state, 0, "play", cards="7s")
    assert codes(default(state, 0).cards) == "7h"
    state = keep_all(deal(*TWO_SEATS))
    with pytest.raises(IllegalAction) as raised:
        GAME.default_action(state, 1)
    assert raised.value.code == "not_your_turn"


def test_a_timeout_is_logged():
    state = deal(*TWO_SEATS)
    _, events = GAME.apply(state, GAME.default_action(state, 0))
    assert events[0].type == "timeout" and events[0].data == {"action": "choose_face_up"}


# JSON --------------------------------------------------------------------------------------------


def test_the_state_round_trips_through_json_in_every_phase():
    states = [GAME.new_game({}, 3), deal(*TWO_SEATS), keep_all(deal(*TWO_SEATS, decks=2))]
    state = deal(*TWO_SEATS)
    states.append(act(state, 0, "choose_face_up", cards="6c 7c 9c")[0])
    states.append(table(hands=["", "Qh"], face_down=["- 3c 5c", "3d"], pile="Ah"))
    for state in states:
        assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
        json.dumps(GAME.view(state, STAFF))
