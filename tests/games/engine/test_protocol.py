"""The records the engine exchanges: cards, actions and events as JSON, and per-viewer redaction."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import FULL_DECK, SORT_KEY, Card, format_cards, parse_cards
from games.engine.errors import EngineError
from games.engine.protocol import SPECTATOR, STAFF, Action, CardGroup, Event, check_viewer
from games.engine.registry import get_game


def test_cards_are_written_rank_then_suit_with_t_for_ten():
    assert format_cards(parse_cards("As Td 9c 2h")) == "As Td 9c 2h"
    assert Card.parse("10h") == Card(10, "h")
    assert str(Card(12, "s")) == "Qs"


def test_the_sort_key_orders_cards_as_cards_order_themselves():
    rng = random.Random("sort")
    for _ in range(200):
        cards = rng.sample(FULL_DECK * 2, rng.randint(0, 104))
        assert sorted(cards, key=SORT_KEY) == sorted(cards)
    assert format_cards(sorted(parse_cards("As 2h Td 2c Ts"), key=SORT_KEY)) == "2c 2h Td Ts As"


@pytest.mark.parametrize("code", ["", "A", "1s", "Ax", "Asd", "ZZ", None, 5])
def test_bad_card_codes_raise_invalid_card(code):
    with pytest.raises(EngineError) as raised:
        Card.parse(code)
    assert raised.value.code == "invalid_card"


def test_actions_round_trip_through_json():
    action = Action(type="bet", seat=2, target=4, amount=30)
    assert Action.from_json(action.to_json()) == action
    discard = Action(type="discard", seat=1, cards=parse_cards("As 2d"), timeout=True)
    assert Action.from_json(discard.to_json()) == discard
    assert discard.to_json() == {"type": "discard", "seat": 1, "cards": ["As", "2d"], "timeout": True}


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"type": 3},
        {"type": "bet", "target": "2"},
        {"type": "bet", "amount": True},
        {"type": "discard", "cards": "As"},
        {"type": "discard", "cards": ["Xx"]},
        {"type": "stay", "colour": "red"},
        "stay",
    ],
)
def test_malformed_actions_are_refused_with_a_code(raw):
    with pytest.raises(EngineError) as raised:
        Action.from_json(raw)
    assert raised.value.code in {"invalid_action", "invalid_card"}


def test_events_redact_cards_per_viewer():
    event = Event(
        type="palace_shown",
        seat=1,
        data={"to": 3},
        cards={"palace": CardGroup(parse_cards("Qd Qc 8s"), frozenset({1, 3}), hand="three queens")},
    )
    assert event.to_json(3)["cards"]["palace"] == {"cards": ["Qd", "Qc", "8s"], "hand": "three queens"}
    assert event.to_json(0)["cards"]["palace"] == {"cards": [None, None, None]}, "the hand name is secret too"
    assert event.to_json(SPECTATOR)["cards"]["palace"] == {"cards": [None, None, None]}
    assert event.to_json(STAFF)["cards"]["palace"]["visible_to"] == [1, 3]
    assert event.to_json(0)["to"] == 3


def test_viewers_are_seats_spectators_or_staff():
    assert check_viewer(0, 2) == 0
    for bad in (2, -1, True, "root", None):
        with pytest.raises(EngineError) as raised:
            check_viewer(bad, 2)
        assert raised.value.code == "invalid_viewer"


def test_registry_knows_palace_poker_and_refuses_other_kinds():
    assert get_game("palace-poker").kind == "palace-poker"
    with pytest.raises(EngineError) as raised:
        get_game("hearts")
    assert raised.value.code == "unknown_kind"


@pytest.mark.parametrize(
    ("options", "seats", "code"),
    [
        ({}, 1, "invalid_seats"),
        ({}, 11, "invalid_seats"),
        ({"colour": "red"}, 2, "unknown_option"),
        ({"betting": "pot_limit"}, 2, "invalid_option"),
        ({"small_bet": 0}, 2, "invalid_option"),
        ({"small_bet": 10, "big_bet": 5}, 2, "inconsistent_options"),
        ({"ante": 50, "starting_stack": 50}, 2, "inconsistent_options"),
        ({"first_dealer": 2}, 2, "invalid_option"),
        ({"max_hands": "3"}, 2, "invalid_option"),
    ],
)
def test_bad_options_are_refused_with_a_code(options, seats, code):
    with pytest.raises(EngineError) as raised:
        get_game("palace-poker").new_game(options, seats)
    assert raised.value.code == code


def test_ante_defaults_to_half_the_small_bet_rounded_down_palace_poker_banner_cards():
    state = get_game("palace-poker").new_game({"small_bet": 5}, 2)
    assert state.options.ante == 2 and state.options.big_bet == 10


def test_stored_events_round_trip_and_redact_like_the_original():
    event = Event(
        type="palace_shown",
        seat=1,
        data={"to": 3},
        cards={
            "palace": CardGroup(parse_cards("Qd Qc 8s"), frozenset({1, 3}), hand="three queens"),
            "banner": CardGroup(parse_cards("As")),
        },
    )
    stored = Event.from_json(event.to_json(STAFF))
    assert stored == event
    for viewer in (0, 1, 3, SPECTATOR, STAFF):
        assert stored.to_json(viewer) == event.to_json(viewer)
