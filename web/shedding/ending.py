"""Palace (the shedding game) at the end of the match: its ``match_ended`` event (``games.engine.shedding.events``)
as the table shows it. A match is one deal, so its one hand ends with the match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from web.ending import outcome_words, result_rows

REASONS = {
    "last_player": "one player was left holding cards",
    "first_out": "the first player out wins",
    "stalemate": "the turn limit was reached: players are ranked by cards left",
    "resigned": "everyone else resigned",
}
"""Why a match ended (``events.END_REASONS``), in words."""


def hand_end(hand: Any) -> dict[str, Any]:
    """The template's ``end``: the deal's result line (its ``match_ended`` phrase)."""
    return {"number": hand.number, "lines": [] if hand.end is None else [hand.end], "ends_match": True}


def _left(count: int) -> str:
    return "no cards left" if not count else f"{count} card{'s' if count != 1 else ''} left"


def _places(event: Mapping[str, Any]) -> tuple[dict[int, int], set[int], dict[int, str]]:
    places = {seat: place for place, seat in enumerate(event["order"], start=1)}
    left = {int(seat): count for seat, count in event["cards_left"].items()}
    scores = {seat: _left(left.get(seat, 0)) for seat in places}
    return places, {event["order"][0]} if event["order"] else set(), scores


def results(event: Mapping[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The match's results: ``rows`` in finishing order (place, name, cards left, won) and ``why`` it ended."""
    places, winners, scores = _places(event)
    return {"rows": result_rows(places, names, scores, winners), "why": REASONS.get(event["reason"], "")}


def outcome(event: Mapping[str, Any], seat: int | None) -> tuple[bool, str]:
    """Whether ``seat`` finished first, and its place in words."""
    places, winners, scores = _places(event)
    return outcome_words(places, winners, seat, scores.get(seat, "") if seat is not None else "")
