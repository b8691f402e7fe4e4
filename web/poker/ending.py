"""Palace Poker at the end of a hand and of the match: the hand's history (``games.engine.poker.history``) and
the ``match_ended`` event (``games.engine.poker.events``) as the table shows them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.poker.history import Battle, Hand
from web.ending import outcome_words, ranked, result_rows

OUTCOME_STEPS = frozenset({"pot_awarded", "points_scored", "player_left"})
"""The steps of a hand whose lines say who won it (and who left the match with it), in the game's own words."""
HOW = {"fold": "by a fold", "showdown": "with the better hand", "split": "tied", "both_out": "tied: both out"}
"""How a battle was decided (``history.Battle.outcome``), in words."""


def _battle(battle: Battle) -> dict[str, Any]:
    sides = [
        {"name": side.seat.name, "hand": side.hand, "won": battle.winner == side.seat}
        for side in (battle.attacker, battle.defender)
    ]
    return {
        "number": battle.number,
        "attacker": battle.attacker.seat.name,
        "defender": battle.defender.seat.name,
        "bet": battle.bet,
        "sides": sides,
        "winner": None if battle.winner is None else battle.winner.name,
        "how": HOW.get(battle.outcome, ""),
        "captured": list(battle.captured),
    }


def hand_end(hand: Hand) -> dict[str, Any]:
    """The template's ``end``: the hand's ``number``, the ``lines`` that say who won it, the ``showdown``
    (each hand shown: ``name``, ``hand`` (its name), ``cards`` (its five or fewer), ``won``), its last
    ``battle`` (both sides' hands as the viewer may know them, the winner, how, the cards captured) and each
    winner's ``stack`` after it."""
    winners = {seat.number for seat in hand.winners}
    stacks = {row.seat.number: row.stack for row in hand.seats}
    return {
        "number": hand.number,
        "lines": [step.line for step in hand.steps if step.type in OUTCOME_STEPS],
        "showdown": [
            {
                "name": shown.seat.name,
                "hand": shown.hand,
                "cards": list(shown.cards),
                "won": shown.seat.number in winners,
            }
            for shown in hand.showdown
        ],
        "battle": _battle(hand.battles[-1]) if hand.battles and not hand.showdown else None,
        "winners": [{"name": seat.name, "won": won, "stack": stacks.get(seat.number)} for seat, won in hand.awards],
        "ends_match": hand.ends_match,
    }


def _measure(event: Mapping[str, Any]) -> tuple[list[int], str]:
    return (event["scores"], "points") if event.get("scores") is not None else (event["stacks"], "chips")


def _places(event: Mapping[str, Any]) -> tuple[dict[int, int], set[int], dict[int, str]]:
    measure, unit = _measure(event)
    winners = set(event["winners"])
    places = ranked(range(len(measure)), key=lambda seat: (seat not in winners, -measure[seat]))
    return places, winners, {seat: f"{value} {unit}" for seat, value in enumerate(measure)}


def results(event: Mapping[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The match's results from its ``match_ended`` event: ``rows`` (place, name, chips or points, won), the
    winners first, then by chips (or points) left."""
    places, winners, scores = _places(event)
    return {"rows": result_rows(places, names, scores, winners), "hands": event["hands"]}


def outcome(event: Mapping[str, Any], seat: int | None) -> tuple[bool, str]:
    """Whether ``seat`` won the match, and its place and final chips (or points) in words."""
    places, winners, scores = _places(event)
    return outcome_words(places, winners, seat, scores.get(seat, "") if seat is not None else "")
