"""What both games' tables share at the end of a hand and of the match: places from a ranking, a place in words."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... (places run from 1 to 10)."""
    return ORDINALS.get(place, f"{place}th")


def ranked(seats: Iterable[int], key: Callable[[int], Any]) -> dict[int, int]:
    """Seat -> place (from 1), best ``key`` first; seats with equal keys share the better place."""
    order = sorted(seats, key=key)
    places: dict[int, int] = {}
    for index, seat in enumerate(order):
        tied = index and key(order[index - 1]) == key(seat)
        places[seat] = places[order[index - 1]] if tied else index + 1
    return places


def result_rows(
    places: dict[int, int], names: dict[int, str], scores: dict[int, str], winners: set[int]
) -> list[dict[str, Any]]:
    """The results table's rows, best place first: ``place`` (words), ``name``, ``score`` (words), ``won``."""
    return [
        {
            "seat": seat,
            "place": ordinal(place),
            "name": names.get(seat, f"seat {seat}"),
            "score": scores[seat],
            "won": seat in winners,
        }
        for seat, place in sorted(places.items(), key=lambda item: (item[1], item[0]))
    ]


def outcome_words(places: dict[int, int], winners: set[int], seat: int | None, score: str) -> tuple[bool, str]:
    """For "My games": whether ``seat`` won, and its result in words (``1st of 2, 412 chips``; ``2nd of 3, 0
    chips``); a creator who did not sit gets ``(False, "")``."""
    if seat is None or seat not in places:
        return False, ""
    return seat in winners, f"{ordinal(places[seat])} of {len(places)}, {score}"
