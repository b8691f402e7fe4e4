"""Palace's table (the shedding game): the viewer's hand, face-up and face-down cards, the other seats as he
may see them, the pile, and the words of its buttons."""

from __future__ import annotations

from typing import Any

from games.engine.shedding.game import ACTION_TYPES
from web.shedding import ending
from web.tables import TableKind, controls, selectable_cards

LABELS = {
    "choose_face_up": "Put the selected cards face up",
    "play": "Play the selected cards",
    "pick_up": "Pick up the pile",
}
HELP = {
    "choose_face_up": "The cards you selected go face up on your face-down cards; the others stay in your hand.",
    "play": "Play the selected cards, all of one rank, onto the pile: they must match or beat its top card "
    "(a two or a ten goes on anything).",
    "pick_up": "Take the whole pile into your hand; your turn ends.",
}
"""Each button's one-line explanation (palace-shedding-a.txt, palace-shedding-b.txt), in our words."""


def table_context(detail: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The template's dict ``t``: ``me`` (the viewer's seat, or ``None``), ``others``, ``pile``, ``turn``..."""
    state = detail["state"]
    viewer = detail["viewer"]
    legal = detail.get("legal_actions", [])
    to_act = set(detail.get("to_act", []))
    blind = {action["type"] for action in legal} >= {"play_face_down"}
    seats = []
    for row in state["seats"]:
        seats.append({**row, "name": names[row["seat"]], "to_act": row["seat"] in to_act})
    me = next((row for row in seats if row["seat"] == viewer), None)
    pile = state["pile"]
    result = state.get("result")
    return {
        "me": me,
        "others": [row for row in seats if row is not me],
        "seats": seats,
        "phase": state["phase"],
        "turn_name": None if state["turn"] is None else names[state["turn"]],
        "pile": pile,
        "pile_top": pile[-4:],
        "pile_hidden": max(0, len(pile) - 4),
        "stock_size": state["stock_size"],
        "burned": len(state["burned"]),
        "order": [names[seat] for seat in result["order"]] if result else [],
        "selectable": selectable_cards(legal),
        "face_down_playable": blind,
        "controls": controls(legal, TABLE, names),
    }


TABLE = TableKind(
    template="web/shedding/table.html",
    table_context=table_context,
    labels=LABELS,
    resign_words=" and are ranked last",
    # Drawn as the face-down cards themselves: the player clicks the one to turn over.
    hidden_controls=frozenset({"play_face_down"}),
    action_types=ACTION_TYPES,
    help=HELP,
    rules_template="web/shedding/rules.html",
    glossary_template="web/shedding/_glossary.html",
    common_options=("first_dealer", "first_player", "finish", "max_turns"),
    hand_end=None,
    results=ending.results,
    outcome=ending.outcome,
)
