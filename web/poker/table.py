"""Palace Poker's table: each seat's banner, palace and soldiers as the viewer may see them, the pot and the
battle, and the words of its buttons."""

from __future__ import annotations

from typing import Any

from games.engine.poker.game import ACTION_TYPES
from web.poker import ending
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
HELP = {
    "buy": "Pay {cost} for the stock's top card: it joins your soldiers, face up (five at most); you may then "
    "discard some.",
    "buy_discard": "Open market: pay {cost} for the discard pile's top card as a new soldier.",
    "discard": "Throw the soldiers you selected away, face down. Select none to keep every soldier.",
    "bet": "Attack {target} for {cost}: the defender folds, calls or raises; in a called battle the better hand "
    "wins, neither side counting cards of the other's banner suit, and the loser is out of the hand.",
    "stay": "Do nothing this turn. When everyone in a row stays, discards or folds, the hand ends in a showdown.",
    "fold": "Leave this hand: your palace cards are discarded; in a battle, the other side takes your banner "
    "and soldiers.",
    "call": "Pay {cost} to answer the bet: the two hands are compared and the weaker one is out of the hand.",
    "raise": "Pay {cost}: the call and a raise; the other side must fold, call or raise again.",
}
"""Each button's one-line explanation (palace-poker.txt, "The Play"), in our words."""


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
    resign_words=": you fold this hand and take no further part",
    action_types=ACTION_TYPES,
    help=HELP,
    rules_template="web/poker/rules.html",
    glossary_template="web/poker/_glossary.html",
    common_options=("betting", "small_bet", "starting_stack", "max_hands", "first_dealer", "points"),
    hand_end=ending.hand_end,
    hand_end_template="web/poker/_hand_end.html",
    results=ending.results,
    outcome=ending.outcome,
)
