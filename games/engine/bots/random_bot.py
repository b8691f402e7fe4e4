"""The baseline bot: a uniformly random legal action type with uniformly random legal fields.

It reads only ``view["legal_actions"]`` (``games.engine.protocol.LegalAction.to_json``), so it
plays any game whose views carry them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.bots.base import ActionJSON, RandomSource, acting_seat


class RandomBot:
    """``choose``: pick one legal action uniformly, then its fields.

    ``cards`` (discard): a uniform count in ``min_cards..max_cards``, then that many distinct cards;
    ``target`` (bet): a uniform target; ``amount`` (bet, raise): uniform in
    ``min_amount..max_amount`` (a single value in limit).
    """

    name = "random"

    def choose(self, view: Mapping[str, Any], rng: RandomSource) -> ActionJSON:
        acting_seat(view)
        legal = rng.choice(view["legal_actions"])
        action: ActionJSON = {"type": legal["type"]}
        if "cards" in legal:
            pool = list(legal["cards"])
            count = rng.randint(legal["min_cards"], legal["max_cards"])
            picked = []
            for _ in range(count):
                card = rng.choice(pool)
                pool.remove(card)
                picked.append(card)
            if picked:
                action["cards"] = picked
        if legal.get("targets"):
            action["target"] = rng.choice(legal["targets"])["seat"]
        if legal.get("min_amount") is not None:
            action["amount"] = rng.randint(legal["min_amount"], legal["max_amount"])
        return action
