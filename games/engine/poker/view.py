"""What one viewer may know of a Palace Poker state (palace-poker.txt, "Call" and "Stay").

A seat sees his own palace cards, the palace cards of an opponent he called in a battle, those of
a caller who beat him, and every palace card shown at a showdown. Banners, soldiers and the
banner-deal rejects are face up. Nobody, staff included, gets the order or content of the stock
from a view; staff also see every palace card and the face-down discard pile.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import card_codes
from games.engine.poker.legal import legal_actions, seat_to_act
from games.engine.poker.state import PokerState
from games.engine.protocol import STAFF, Viewer, check_viewer


def may_see_palace(state: PokerState, owner: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` may know ``owner``'s palace cards now."""
    if viewer == STAFF or viewer == owner:
        return True
    if state.shown and state.shown[owner]:
        return True
    return isinstance(viewer, int) and bool(state.known) and viewer in state.known[owner]


def view(state: PokerState, viewer: Viewer) -> dict[str, Any]:
    """The state as plain JSON for ``viewer`` (a seat, ``"spectator"`` or ``"staff"``).

    Shape: ``kind``, ``phase``, ``hand``, ``dealer``, ``pot``, ``to_act`` (seats), ``step``,
    ``battle`` (attacker, defender, bet, responder, owed, raises) or ``None``, ``stock_size``,
    ``discard_size``, ``set_aside`` (codes), ``seats`` (each ``seat``, ``stack``, ``in_match``, ``resigned``,
    ``in_hand``, ``banner``, ``soldiers``, ``palace`` as codes, or ``null`` per card the viewer may
    not know), ``legal_actions`` (the viewer's), ``winners``, ``options`` and, under the ``points``
    variation, ``scores`` (per seat). The discard pile's top card is never shown (the
    ``open_market`` buyer learns it by buying it). Raises
    ``EngineError("invalid_viewer")``.
    """
    viewer = check_viewer(viewer, state.seats)
    seat_rows = []
    for seat in range(state.seats):
        palace = state.palace[seat] if state.palace else ()
        banner = state.banners[seat] if state.banners else None
        row: dict[str, Any] = {
            "seat": seat,
            "stack": state.stacks[seat],
            "in_match": state.in_match[seat],
            "resigned": seat in state.resigned,
            "in_hand": bool(state.in_hand and state.in_hand[seat]) and state.hand_number > 0,
            "put_in": state.put_in[seat] if state.put_in else 0,
            "banner": None if banner is None else banner.code,
            "soldiers": card_codes(state.soldiers[seat]) if state.soldiers else [],
            "palace": card_codes(palace) if may_see_palace(state, seat, viewer) else [None] * len(palace),
        }
        if state.dealer_cards:
            row["dealer_cards"] = card_codes(state.dealer_cards[seat])
        seat_rows.append(row)
    battle = state.battle
    acting = seat_to_act(state)
    out: dict[str, Any] = {
        "kind": "palace-poker",
        "phase": state.phase,
        "hand": state.hand_number,
        "dealer": state.dealer,
        "pot": state.pot,
        "to_act": [] if acting is None else [acting],
        "step": state.step,
        "awaiting_shuffle": state.chance,
        "battle": None
        if battle is None
        else {
            "attacker": battle.attacker,
            "defender": battle.defender,
            "bet": battle.bet,
            "responder": battle.responder,
            "owed": battle.owed,
            "raises": battle.raises,
            "put_in": list(battle.put_in),
        },
        "stock_size": len(state.stock),
        "discard_size": len(state.discards),
        "set_aside": card_codes(state.set_aside),
        "seats": seat_rows,
        "legal_actions": [a.to_json() for a in legal_actions(state, viewer)] if isinstance(viewer, int) else [],
        "winners": list(state.winners),
        "options": state.options.to_json(),
    }
    if state.options.points:
        out["scores"] = list(state.scores)
    if viewer == STAFF:
        out["discards"] = card_codes(state.discards)
    return out
