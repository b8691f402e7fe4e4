"""What one viewer may know of a Palace (shedding game) state.

A seat sees his own hand; face-up cards, the pile and the burned cards are public; nobody, the
owner included, sees a face-down card before it is played (palace-shedding-a.txt ¶13.2;
palace-shedding-b.txt "Setup"); the stock is hidden (only its size shows). Of another player's
hand a viewer sees the cards known to all (picked up from the pile, dealt face up and exchanged
into the hand, face-up cards taken up) and ``null`` for the rest. During the setup each seat sees
only his own pending choice. ``to_act`` shows the seat on turn and, of the out-of-turn seats,
only the viewer himself: who could play out of turn would tell what he holds. Staff see every
card but the stock's order (``state_to_json`` has it).
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import card_codes
from games.engine.protocol import STAFF, Viewer, check_viewer
from games.engine.shedding.legal import legal_actions, seats_to_act
from games.engine.shedding.ranks import top_run
from games.engine.shedding.state import SETUP, ShedState


def visible_to_act(state: ShedState, viewer: Viewer) -> list[int]:
    """``to_act`` as ``viewer`` may know it (see the module docstring)."""
    seats = seats_to_act(state)
    if viewer == STAFF or state.phase == SETUP:
        return list(seats)
    return [seat for seat in seats if seat == state.turn or seat == viewer]


def _seat_row(state: ShedState, seat: int, viewer: Viewer) -> dict[str, Any]:
    owner = viewer == STAFF or viewer == seat
    hand = state.hands[seat] if state.hands else ()
    if owner:
        shown: list[str | None] = list(card_codes(hand))
    else:
        known = card_codes(state.hand_public[seat]) if state.hand_public else []
        shown = [*known, *([None] * (len(hand) - len(known)))]
    face_up = state.face_up[seat] if state.face_up else ()
    if state.phase == SETUP and state.options.setup_deal == "hand" and not owner:
        face_up_shown: list[str | None] = [None] * len(face_up)
    else:
        face_up_shown = list(card_codes(face_up))
    face_down = state.face_down[seat] if state.face_down else ()
    row: dict[str, Any] = {
        "seat": seat,
        "hand": shown,
        "hand_size": len(hand),
        "face_up": face_up_shown,
        "face_down": [
            {"position": i, "card": card.code if viewer == STAFF else None}
            for i, card in enumerate(face_down)
            if card is not None
        ],
        "cards_left": state.cards_left(seat),
        "out": seat in state.out,
        "resigned": seat in state.resigned,
        "place": state.order.index(seat) + 1
        if state.order
        else (state.out.index(seat) + 1 if seat in state.out else None),
    }
    if state.phase == SETUP:
        choice = state.choices[seat]
        row["chosen"] = choice is not None
        row["choice"] = card_codes(choice) if owner and choice is not None else None
    if state.dealer_cards:
        row["dealer_cards"] = card_codes(state.dealer_cards[seat])
    return row


def view(state: ShedState, viewer: Viewer) -> dict[str, Any]:
    """The state as plain JSON for ``viewer`` (a seat, ``"spectator"`` or ``"staff"``).

    Shape: ``kind`` (``"palace"``), ``viewer``, ``phase``, ``dealer``, ``turn``, ``replay`` (the seat
    on turn plays again), ``to_act``, ``awaiting_shuffle``, ``turns`` and ``max_turns``,
    ``stock_size``, ``pile`` (codes, top last), ``pile_top`` (``rank`` and ``count`` on top in a
    row), ``burned`` (codes), ``seats`` (each ``seat``, ``hand`` (codes or ``null``), ``hand_size``,
    ``face_up``, ``face_down`` (``position`` and ``card``: ``null`` but for staff), ``cards_left``,
    ``out``, ``resigned``, ``place``; in the setup ``chosen`` and the owner's ``choice``), ``legal_actions``
    (the viewer's), ``out_order``, ``result`` (``order`` and ``reason`` once finished) and
    ``options``. Raises ``EngineError("invalid_viewer")``.
    """
    viewer = check_viewer(viewer, state.seats)
    rank, count = top_run(state.pile)
    return {
        "kind": "palace",
        "viewer": viewer,
        "phase": state.phase,
        "dealer": state.dealer,
        "turn": state.turn,
        "replay": state.replay,
        "to_act": visible_to_act(state, viewer),
        "awaiting_shuffle": state.chance,
        "turns": state.turns,
        "max_turns": state.options.max_turns,
        "stock_size": len(state.stock),
        "pile": card_codes(state.pile),
        "pile_top": None if rank is None else {"rank": rank, "count": count},
        "burned": card_codes(state.burned),
        "seats": [_seat_row(state, seat, viewer) for seat in range(state.seats)],
        "legal_actions": [a.to_json() for a in legal_actions(state, viewer)] if isinstance(viewer, int) else [],
        "out_order": list(state.out),
        "result": {"order": list(state.order), "reason": state.end_reason} if state.order else None,
        "options": state.options.to_json(),
    }
