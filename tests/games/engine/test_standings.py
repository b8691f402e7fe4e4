"""Each game's finishing order read off its log, and the ladder a match counts for (``<game>/standings.py``)."""

from __future__ import annotations

from games.engine.poker.standings import ladder as poker_ladder
from games.engine.poker.standings import places as poker_places
from games.engine.registry import LADDERS
from games.engine.shedding.standings import places as shedding_places


def test_palace_places_are_the_rules_order() -> None:
    events = [{"type": "player_out", "seat": 2, "place": 1}, {"type": "match_ended", "seat": None, "order": [2, 0, 1]}]
    assert shedding_places(events) == (2, 3, 1)
    assert shedding_places(events[:1]) is None


def test_palace_poker_places_winners_then_stacks_then_busted_then_resigned() -> None:
    """ending.end_hand: the most chips among the seats still in win; a seat without chips leaves at a hand's end
    (the later hand ranks above); resigned seats are last, the last to resign first (README "Resigning")."""
    events = [
        {"type": "resigned", "seat": 4, "stack": 30},
        {"type": "player_left", "seat": 3, "reason": "no_chips"},
        {"type": "hand_ended", "seat": None, "hand": 1, "stacks": [40, 30, 20, 0, 30]},
        {"type": "player_left", "seat": 2, "reason": "no_chips"},
        {"type": "hand_ended", "seat": None, "hand": 2, "stacks": [60, 30, 0, 0, 30]},
        {"type": "match_ended", "seat": None, "winners": [0], "stacks": [60, 30, 0, 0, 30], "hands": 2},
    ]
    assert poker_places(events) == (1, 2, 3, 4, 5)


def test_palace_poker_under_points_ranks_by_score_and_shares_a_tie() -> None:
    events = [{"type": "match_ended", "seat": None, "winners": [1, 2], "stacks": [9, 9, 9], "scores": [3, 7, 7]}]
    assert poker_places(events) == (3, 1, 1)
    assert poker_ladder({"points": True}) == "palace-poker-points"
    assert poker_ladder({"points": False}) == "palace-poker"


def test_every_ladder_has_a_title() -> None:
    assert LADDERS == {
        "palace-poker": "Palace Poker (chips)",
        "palace-poker-points": "Palace Poker (points)",
        "palace": "Palace",
    }
