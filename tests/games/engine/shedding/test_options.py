"""Options of the shedding game: defaults from text a, every disagreement a named option, clear
errors for unknown or inconsistent ones (``games.engine.shedding.options``)."""

from __future__ import annotations

import pytest

from games.engine.errors import InvalidOptions
from games.engine.shedding import PALACE as GAME

DEFAULTS = {
    "decks": 1,
    "first_dealer": None,
    "first_player": "lowest_face_up",
    "setup_deal": "face_up",
    "must_play_if_able": True,
    "two_effect": "next_player_any",
    "redraw": True,
    "out_of_turn_four": False,
    "face_up_play": "from_table",
    "hide_failed_blind_card": False,
    "draw_before_replay": False,
    "finish": "last_player_loses",
    "max_turns": 1000,
}


def test_the_defaults_follow_text_a_and_must_play_if_able_is_on():
    """palace-shedding-a.txt is the default text; must_play_if_able (b "Other Misc. Rules") is on."""
    assert GAME.kind == "palace"
    assert GAME.normalize_options(None, 2) == DEFAULTS
    assert GAME.normalize_options({}, 5) == DEFAULTS


def test_six_to_ten_players_get_two_decks_by_default():
    """palace-shedding-a.txt ¶4.1 and ¶5.1: one deck for 2 to 5 players; b header: more decks for more."""
    assert GAME.normalize_options({}, 6)["decks"] == 2
    assert GAME.normalize_options({}, 10)["decks"] == 2
    assert GAME.normalize_options({"decks": 2}, 2)["decks"] == 2


def test_every_option_is_normalized_as_given():
    options = {
        "decks": 2,
        "first_dealer": 2,
        "first_player": 1,
        "setup_deal": "hand",
        "must_play_if_able": False,
        "two_effect": "play_again",
        "redraw": False,
        "out_of_turn_four": True,
        "face_up_play": "into_hand",
        "hide_failed_blind_card": True,
        "draw_before_replay": True,
        "finish": "first_out_wins",
        "max_turns": 50,
    }
    assert GAME.normalize_options(options, 3) == options
    assert GAME.new_game(options, 3).options.to_json() == options


@pytest.mark.parametrize(
    ("options", "seats", "code"),
    [
        ({}, 1, "invalid_seats"),
        ({}, 11, "invalid_seats"),
        ({"colour": "red"}, 2, "unknown_option"),
        ({"decks": 3}, 2, "invalid_option"),
        ({"decks": True}, 2, "invalid_option"),
        ({"decks": 1}, 6, "inconsistent_options"),
        ({"first_player": "highest"}, 2, "invalid_option"),
        ({"first_player": 2}, 2, "invalid_option"),
        ({"first_player": True}, 2, "invalid_option"),
        ({"first_dealer": -1}, 2, "invalid_option"),
        ({"setup_deal": "table"}, 2, "invalid_option"),
        ({"must_play_if_able": "yes"}, 2, "invalid_option"),
        ({"two_effect": "skip"}, 2, "invalid_option"),
        ({"redraw": 1}, 2, "invalid_option"),
        ({"face_up_play": "direct"}, 2, "invalid_option"),
        ({"finish": "first_out_loses"}, 2, "invalid_option"),
        ({"max_turns": 0}, 2, "invalid_option"),
        ({"max_turns": "50"}, 2, "invalid_option"),
    ],
)
def test_unknown_or_inconsistent_options_are_refused(options, seats, code):
    with pytest.raises(InvalidOptions) as raised:
        GAME.normalize_options(options, seats)
    assert raised.value.code == code
    with pytest.raises(InvalidOptions):
        GAME.new_game(options, seats)


def test_options_must_be_an_object():
    with pytest.raises(InvalidOptions) as raised:
        GAME.normalize_options(["decks"], 2)  # type: ignore[arg-type]
    assert raised.value.code == "invalid_option"
