"""Each game's OPTION_FIELDS (games/engine/option_fields.py) describe what its parse_options accepts: every option
of the dataclass, each bound and each choice, so a form built from them offers nothing the engine refuses."""

from __future__ import annotations

from dataclasses import fields

import pytest

from games.engine.errors import InvalidOptions
from games.engine.option_fields import BOOL, CHOICE, INT, KINDS, SEAT
from games.engine.registry import GAMES

SEATS = 4
# Options that need another to be accepted at all (parse_options' consistency checks).
NEEDS = {"target_points": {"points": True}, "no_limit_first_raise": {"betting": "no_limit"}}


def _parse(kind: str, options: dict) -> dict:
    return GAMES[kind].normalize_options(options, SEATS)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_fields_name_every_option_once(kind):
    """Given a game, its option fields name each option of its dataclass once, each with a known kind."""
    names = [field.name for field in GAMES[kind].option_fields]
    defaults = _parse(kind, {})
    assert sorted(names) == sorted(defaults) and len(set(names)) == len(names)
    assert all(field.kind in KINDS and field.label for field in GAMES[kind].option_fields)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_fields_bounds_and_choices_are_the_engines(kind):
    """Each bound is accepted and one past it refused; each choice accepted, another refused; a seat from 0 to
    seats - 1; a flag true or false; an optional option null."""
    for field in GAMES[kind].option_fields:
        base = dict(NEEDS.get(field.name, {}))
        if field.name == "big_bet":
            base["small_bet"] = 1
        if field.name == "small_bet":
            # The big bet's default is twice the small bet: at the small bet's top it must be given.
            base["big_bet"] = field.high
        accepted: list = []
        refused: list = []
        if field.kind == INT:
            accepted = [field.low, field.high]
            refused = [field.low - 1, field.high + 1]
            if field.name == "ante":
                base["starting_stack"] = 10**12
            if field.name == "starting_stack":
                base["ante"] = 0
        elif field.kind == CHOICE:
            accepted = list(field.choices)
            refused = ["no-such-choice"]
        elif field.kind == SEAT:
            accepted, refused = [0, SEATS - 1], [SEATS]
        elif field.kind == BOOL:
            accepted, refused = [True, False], ["yes"]
        if field.optional:
            accepted.append(None)
        if field.seat_allowed:
            accepted.append(SEATS - 1)
        for value in accepted:
            _parse(kind, {**base, field.name: value})
        for value in refused:
            with pytest.raises(InvalidOptions):
                _parse(kind, {**base, field.name: value})


def test_dataclass_fields_match_the_listing():
    """The poker and shedding dataclasses and their listings stay in step (a new option must be listed)."""
    from games.engine.poker.options import PokerOptions
    from games.engine.shedding.options import ShedOptions

    assert [f.name for f in fields(PokerOptions)] == [f.name for f in GAMES["palace-poker"].option_fields]
    assert [f.name for f in fields(ShedOptions)] == [f.name for f in GAMES["palace"].option_fields]
