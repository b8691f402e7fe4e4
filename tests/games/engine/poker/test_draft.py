"""The rules' mutable draft of a Palace Poker state copies a field only when the rules touch it."""

from __future__ import annotations

import random

import pytest

from games.engine.poker.state import Draft
from tests.games.engine.poker.helpers import GAME
from tests.games.engine.poker.test_properties import next_action


def a_state_in_play():
    state = GAME.new_game({"starting_stack": 200}, 3)
    rng = random.Random(11)
    for _ in range(40):
        state, _ = GAME.apply(state, next_action(state, rng))
    assert state.stock and state.palace[0], "the match should be in a hand"
    return state


def test_an_untouched_draft_freezes_to_the_same_values():
    state = a_state_in_play()
    frozen = Draft(state).freeze()
    assert frozen == state
    assert frozen.stock is state.stock and frozen.palace is state.palace


def test_a_change_reaches_the_new_state_and_leaves_the_old_one_and_the_other_fields_alone():
    state = a_state_in_play()
    draft = Draft(state)
    draft.stacks[0] -= 5
    draft.pot += 5
    draft.discards.append(draft.stock.pop(0))
    frozen = draft.freeze()
    assert frozen.stacks[0] == state.stacks[0] - 5 and frozen.pot == state.pot + 5
    assert frozen.discards == (*state.discards, state.stock[0]) and frozen.stock == state.stock[1:]
    assert isinstance(frozen.stacks, tuple) and isinstance(frozen.discards, tuple)
    assert frozen.palace is state.palace and frozen.soldiers is state.soldiers
    assert Draft(state).freeze() == state  # the old state is as it was


def test_the_states_methods_and_unknown_names_are_not_the_drafts():
    draft = Draft(a_state_in_play())
    with pytest.raises(AttributeError):
        draft.deal_order  # noqa: B018 - a method of the state would read the state, not the draft
    with pytest.raises(AttributeError):
        draft.no_such_field  # noqa: B018
    draft.no_such_field = 1
    with pytest.raises(TypeError):
        draft.freeze()
