"""Palace Poker's finishing order, read off the match's log, and the rating ladder a match counts for.

The rules give a finished match its ``winners`` (``ending.end_hand``: the most chips, or points under
``points``, among the seats still in) and tell who left it: ``player_left`` (no chips, at a hand's end) and
``resigned``. ``places`` orders every seat by those facts alone, in three bands: the seats still in by the
match's measure (the winners first), then the seats that ran out of chips (the later hand above the earlier;
seats out at the same hand tie), then the seats that resigned (the last to resign above the first, as the
shedding game ranks them, README "Rules decisions", "Resigning").

``ladder``: with money the order measures chips won; under ``points`` (palace-poker.txt, "Palace Poker without
money") it measures hands won with few soldiers, where betting wins nothing: the two are rated apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

CHIPS_LADDER = "palace-poker"
POINTS_LADDER = "palace-poker-points"
LADDERS = {CHIPS_LADDER: "Palace Poker (chips)", POINTS_LADDER: "Palace Poker (points)"}
"""This game's rating ladders and their titles for people."""


def ladder(options: Mapping[str, Any]) -> str:
    """The ladder a match with ``options`` (the engine's, normalized) counts for."""
    return POINTS_LADDER if options.get("points") else CHIPS_LADDER


def places(events: Iterable[Mapping[str, Any]]) -> tuple[int, ...] | None:
    """Each seat's finishing place (1 first; seats that tie share the better place, as 1, 2, 2, 4), from the
    match's engine events in log order (stored JSON, ``Event.to_json``). ``None`` before ``match_ended``."""
    hands = 0
    left: dict[int, int] = {}
    resigned: list[int] = []
    for event in events:
        kind = event["type"]
        if kind == "hand_ended":
            hands += 1
        elif kind == "player_left":
            left[event["seat"]] = hands
        elif kind == "resigned":
            resigned.append(event["seat"])
        elif kind == "match_ended":
            measure = event.get("scores") or event["stacks"]
            keys = []
            for seat in range(len(event["stacks"])):
                if seat in resigned:
                    keys.append((0, resigned.index(seat)))
                elif seat in left:
                    keys.append((1, left[seat]))
                else:
                    keys.append((2, measure[seat]))
            return tuple(1 + sum(other > key for other in keys) for key in keys)
    return None
