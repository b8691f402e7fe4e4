"""Palace Poker's table: each seat's banner, palace and soldiers as the viewer may see them, the pot and the
battle, and the words of its buttons and its log."""

from __future__ import annotations

from typing import Any

from games.engine.poker.game import ACTION_TYPES
from web.tables import TableKind, controls, selectable_cards

LABELS = {
    "buy": "Buy a soldier",
    "buy_discard": "Buy the discard pile's top card",
    "discard": "Discard the selected soldiers",
    "bet": "Bet against {target}",
    "stay": "Stay",
    "fold": "Fold",
    "call": "Call",
    "raise": "Raise",
}

PHRASES = {
    "dealer_card": "{seat} draws for the deal",
    "dealer_chosen": "{seat} deals",
    "hand_started": "Hand {hand} begins; {dealer} deals",
    "ante": "{seat} antes {amount}",
    "banner_dealt": "{seat}'s banner card",
    "banner_rejected": "{seat}'s banner card is set aside",
    "palace_dealt": "{seat} gets three palace cards",
    "buy": "{seat} buys a soldier for {cost}",
    "buy_discard": "{seat} buys the discard pile's top card for {cost}",
    "soldier_drawn": "{seat} draws a soldier",
    "discard": "{seat} discards",
    "stay": "{seat} stays",
    "fold": "{seat} folds",
    "bet": "{seat} bets {amount} against {target}",
    "call": "{seat} calls for {cost}",
    "raise": "{seat} raises by {amount}, paying {cost}",
    "battle_fold": "{seat} folds the battle to {opponent}",
    "battle_won": "{seat} wins the battle against {loser}",
    "battle_tied": "{seat} and {defender} tie the battle",
    "palace_shown": "{seat} shows the palace cards: {hand}",
    "captured": "{seat} captures {loser}'s cards",
    "pot_awarded": "The pot of {pot} is awarded",
    "chips_returned": "{amount} chips go back to {seat}",
    "hand_ended": "Hand {hand} ends",
    "player_left": "{seat} leaves the match",
    "points_scored": "{seat} scores {points}",
    "match_ended": "The match ends; {winners} won",
    "stock_rebuilt": "The stock is rebuilt from the discards",
    "stock_exhausted": "The stock runs out",
}


def table_context(detail: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The template's dict ``t``: ``me`` (the viewer's seat, or ``None``), ``others``, ``pot``, ``battle``..."""
    state = detail["state"]
    viewer = detail["viewer"]
    legal = detail.get("legal_actions", [])
    to_act = set(detail.get("to_act", []))
    seats = []
    for row in state["seats"]:
        seats.append(
            {
                **row,
                "name": names[row["seat"]],
                "dealer": row["seat"] == state["dealer"],
                "to_act": row["seat"] in to_act,
                "score": state["scores"][row["seat"]] if "scores" in state else None,
            }
        )
    me = next((row for row in seats if row["seat"] == viewer), None)
    battle = state.get("battle")
    return {
        "me": me,
        "others": [row for row in seats if row is not me],
        "seats": seats,
        "hand": state["hand"],
        "phase": state["phase"],
        "pot": state["pot"],
        "stock_size": state["stock_size"],
        "discard_size": state["discard_size"],
        "battle": None
        if battle is None
        else {**battle, "attacker_name": names[battle["attacker"]], "defender_name": names[battle["defender"]]},
        "winners": [names[seat] for seat in state["winners"]],
        "points": state["options"]["points"],
        "selectable": selectable_cards(legal),
        "controls": controls(legal, TABLE, names),
    }


TABLE = TableKind(
    template="web/poker/table.html",
    table_context=table_context,
    labels=LABELS,
    phrases=PHRASES,
    action_types=ACTION_TYPES,
)
