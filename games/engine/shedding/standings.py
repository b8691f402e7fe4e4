"""Palace's finishing order, read off the match's log, and the rating ladder a match counts for.

The rules rank every seat when the match ends (``ending.end_match``: out first, then by cards left, then the
resigned); ``places`` reads that ``order`` and adds nothing. Palace has one ladder.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

LADDER = "palace"
LADDERS = {LADDER: "Palace"}
"""This game's rating ladders and their titles for people."""


def ladder(options: Mapping[str, Any]) -> str:
    """The ladder a match counts for: Palace's only one, whatever its options."""
    return LADDER


def places(events: Iterable[Mapping[str, Any]]) -> tuple[int, ...] | None:
    """Each seat's finishing place (1 first, no ties), from the match's engine events in log order (stored
    JSON); ``None`` before ``match_ended``."""
    for event in events:
        if event["type"] == "match_ended":
            order = event["order"]
            return tuple(order.index(seat) + 1 for seat in range(len(order)))
    return None
