"""A sensible Palace (shedding game) policy read from one seat's view (``games.engine.bots.base``).

Rules relied on: palace-shedding-a.txt ¶9.2 and palace-shedding-b.txt "Setup" (three of six cards
lie face up), ¶11.6 and "Gameplay" (meet or beat the pile; several cards of one rank may go
together), ¶18-20 and "Card Value" (twos and tens go on anything); palace-shedding-b.txt "General
Strategy" (high and special cards belong face up; play the lowest card that meets the pile).

The policy:

* Setup: the three best of its six cards lie face up: twos, then tens, then aces down to threes.
* On turn: all its cards of the lowest playable rank other than two and ten; it keeps twos and tens
  for when nothing else plays: then one ten on a pile of ``BURN_PILE`` cards or more, else one two,
  else one ten. With no play it picks up (never by choice). With only face-down cards left it flips
  the first one.
* Out of turn (a redraw, a four of a kind completed): it always takes the chance, with every card
  it may add.

Deterministic: the same view gives the same action; ``rng`` is not used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.bots.base import ActionJSON, RandomSource
from games.engine.cards import Card
from games.engine.errors import EngineCode, EngineError

TWO, TEN = 2, 10
BURN_PILE = 3
"""A forced special on a pile at least this big is a ten (burn it), else a two (keep the ten)."""


def keep_value(card: Card) -> int:
    """How much a card is worth keeping for late in the game: twos, then tens, then A down to 3."""
    return {TWO: 16, TEN: 15}.get(card.rank, card.rank)


def _seat(view: Mapping[str, Any]) -> int:
    """The viewer, who must have a decision (it may be out of turn, so not ``to_act[0]``)."""
    seat = view.get("viewer")
    if not isinstance(seat, int) or isinstance(seat, bool) or not view.get("legal_actions"):
        raise EngineError(EngineCode.NO_DECISION, "this view has no decision to make: pass the view of a seat to act")
    return seat


class ShedBasicBot:
    """The ``"basic"`` Palace (shedding game) bot (see the module docstring)."""

    name = "basic"

    def choose(self, view: Mapping[str, Any], rng: RandomSource) -> ActionJSON:
        seat = _seat(view)
        legal = view["legal_actions"]
        types = {entry["type"] for entry in legal}
        if "choose_face_up" in types:
            six = [Card.parse(code) for code in legal[0]["cards"]]
            best = sorted(six, key=lambda card: (keep_value(card), card.suit), reverse=True)[:3]
            return {"type": "choose_face_up", "cards": [card.code for card in best]}
        plays = [entry for entry in legal if entry["type"] == "play"]
        if view["turn"] != seat:
            entry = max(plays, key=lambda entry: entry["max_cards"])
            return {"type": "play", "cards": list(entry["cards"])}
        if "play_face_down" in types:
            return {"type": "play_face_down"}
        if plays:
            return _on_turn(view, plays)
        return {"type": "pick_up"}


def _rank(entry: Mapping[str, Any]) -> int:
    return Card.parse(entry["cards"][0]).rank


def _on_turn(view: Mapping[str, Any], plays: list[Mapping[str, Any]]) -> ActionJSON:
    """All cards of the lowest plain rank, else one special card (see the module docstring)."""
    plain = [entry for entry in plays if _rank(entry) not in (TWO, TEN)]
    if plain:
        entry = min(plain, key=_rank)
        return {"type": "play", "cards": list(entry["cards"])}
    by_rank = {_rank(entry): entry for entry in plays}
    if TEN in by_rank and (len(view["pile"]) >= BURN_PILE or TWO not in by_rank):
        return {"type": "play", "cards": [by_rank[TEN]["cards"][0]]}
    return {"type": "play", "cards": [by_rank[TWO]["cards"][0]]}
