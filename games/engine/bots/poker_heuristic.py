"""A five-line Palace Poker policy for the ``points`` variation: the yardstick ``basic`` must beat there.

Not registered (nobody seats it): the arena (``benchmarks/bench_arena.py``) plays it against ``basic``.
Under ``points`` (palace-poker.txt, "Palace Poker without money") every buy and bet is free and a bet is
decided at once, so the whole policy is: in a discard step keep only what the ``basic`` reading keeps,
or nothing before the score; attack the best target when the battle is won at least half the time; buy
while the hand would lose a showdown and fewer than three soldiers are out; discard useless soldiers;
else stay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.bots.base import ActionJSON, RandomSource, acting_seat, legal_by_type
from games.engine.bots.poker_reading import beat_rate, read_table, showdown_rate, soldiers_to_discard


class PointsHeuristicBot:
    """The five-line ``points`` heuristic (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: Mapping[str, Any], rng: RandomSource) -> ActionJSON:
        seat = acting_seat(view)
        legal, table = legal_by_type(view), read_table(view, seat)
        if view["step"] == "discard":
            drop = (
                table.me.soldiers
                if not table.opponents
                else soldiers_to_discard(table, at_least=legal["discard"]["min_cards"], keep_at_most=5)
            )
            return {"type": "discard", "cards": [card.code for card in drop]} if drop else {"type": "discard"}
        if view["battle"] is not None:
            return {"type": "call"}
        rates = {
            t["seat"]: beat_rate(table, table.opponent(t["seat"]), battle=True)
            for t in legal.get("bet", {}).get("targets", [])
        }
        if rates and max(rates.values()) >= 0.5:
            return {"type": "bet", "target": max(rates, key=rates.__getitem__)}
        if "buy" in legal and showdown_rate(table) < 0.5 and len(table.me.soldiers) < 3:
            return {"type": "buy"}
        useless = soldiers_to_discard(table, at_least=0, keep_at_most=5) if "discard" in legal else []
        if useless:
            return {"type": "discard", "cards": [card.code for card in useless]}
        return {"type": "stay"} if "stay" in legal else {"type": "fold"}
