"""Shared test helpers: drive the Palace shedding engine with prearranged decks and explicit actions.

With ``first_dealer`` the last seat, the deal goes to seats 0, 1, ... in order: three rounds face
down, three face up, three to the hand (palace-shedding-a.txt ¶8.4-6); the stock follows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from games.engine.cards import Card, parse_cards
from games.engine.chance import prearranged
from games.engine.protocol import Action, Event
from games.engine.shedding import PALACE as GAME
from games.engine.shedding.state import PLAY, ShedState, pack


def order_starting_with(head: Sequence[Card], pool: Iterable[Card]) -> tuple[Card, ...]:
    """An order of the multiset ``pool`` whose first cards are ``head``, the rest sorted."""
    rest = Counter(pool)
    rest.subtract(Counter(head))
    assert all(count >= 0 for count in rest.values()), "the head names a card outside the pool"
    return tuple(head) + tuple(sorted(rest.elements()))


def shuffle_with(state: ShedState, top: str) -> tuple[ShedState, tuple[Event, ...]]:
    """Apply the pending shuffle with a prearranged order starting with ``top`` (codes)."""
    request = GAME.chance_request(state)
    assert request is not None, "no shuffle is pending"
    return GAME.apply(state, prearranged(order_starting_with(parse_cards(top), request.cards)))


def deal(
    face_down: Sequence[str], face_up: Sequence[str], hands: Sequence[str], stock: str = "", **options: Any
) -> ShedState:
    """A state in the setup: seat ``i`` got ``face_down[i]``, ``face_up[i]``, ``hands[i]`` (three
    codes each) and the stock starts with ``stock``. The last seat dealt."""
    seats = len(hands)
    state = GAME.new_game({"first_dealer": seats - 1, **options}, seats)
    rows = [[r.split() for r in row] for row in (face_down, face_up, hands)]
    order = [row[seat][k] for row in rows for k in range(3) for seat in range(seats)]
    state, _ = shuffle_with(state, " ".join([*order, *stock.split()]))
    return state


def keep_all(state: ShedState) -> ShedState:
    """Every seat keeps its dealt face-up cards (in seat order); play begins."""
    for seat in range(state.seats):
        state, _ = GAME.apply(state, Action(type="choose_face_up", seat=seat, cards=state.face_up[seat]))
    assert state.phase == PLAY
    return state


def act(state: ShedState, seat: int, type_: str, **fields: Any) -> tuple[ShedState, tuple[Event, ...]]:
    """Apply one decision, with ``cards`` given as a string of codes."""
    if "cards" in fields:
        fields["cards"] = parse_cards(fields["cards"])
    return GAME.apply(state, Action(type=type_, seat=seat, **fields))


def arranged(
    state: ShedState,
    *,
    hands: Sequence[str],
    face_up: Sequence[str] | None = None,
    face_down: Sequence[str] | None = None,
    pile: str = "",
    stock: str = "",
    turn: int = 0,
    public: Sequence[str] | None = None,
) -> ShedState:
    """``state`` (in play) with the zones rearranged; every other card of the pack goes to the burned
    cards, so no card is lost or created. ``face_down`` entries may use ``-`` for a played position."""
    seats = state.seats
    face_up = face_up or [""] * seats
    face_down = face_down or [""] * seats
    public = public or [""] * seats

    def row(text: str) -> tuple[Card | None, ...]:
        return tuple(None if code == "-" else Card.parse(code) for code in text.split())

    zones = {
        "hands": tuple(tuple(sorted(parse_cards(text))) for text in hands),
        "face_up": tuple(tuple(sorted(parse_cards(text))) for text in face_up),
        "face_down": tuple(row(text) for text in face_down),
        "hand_public": tuple(tuple(sorted(parse_cards(text))) for text in public),
        "pile": parse_cards(pile),
        "stock": parse_cards(stock),
    }
    used: Counter[Card] = Counter()
    for name in ("hands", "face_up", "face_down"):
        for cards in zones[name]:
            used.update(card for card in cards if card is not None)
    used.update(zones["pile"])
    used.update(zones["stock"])
    rest = Counter(pack(state.options.decks))
    rest.subtract(used)
    assert all(count >= 0 for count in rest.values()), "a card is placed twice"
    return replace(
        state,
        **zones,
        burned=tuple(sorted(rest.elements())),
        turn=turn,
        replay=False,
        redraw_seat=None,
        redraw_cards=(),
    )


def only(events: Iterable[Event], type_: str) -> list[Event]:
    """The events of one type."""
    return [event for event in events if event.type == type_]


def codes(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


TWO_SEATS = (["3c 4c 5c", "3d 4d 5d"], ["6c 7c 8c", "6d 7d 8d"], ["9c Jc Qc", "9d Jd Qd"])
THREE_SEATS = (
    ["3c 4c 5c", "3d 4d 5d", "3h 4h 5h"],
    ["6c 7c 8c", "6d 7d 8d", "6h 7h 8h"],
    ["9c Jc Qc", "9d Jd Qd", "9h Jh Qh"],
)


def table(seats: int = 2, *, hands: Sequence[str], **zones: Any) -> ShedState:
    """A match in play at ``seats`` (2 or 3) with the zones given (see ``arranged``); options go in
    ``options``. Play began normally (every dealt face-up card kept, seat 0 first)."""
    options = zones.pop("options", {})
    state = keep_all(deal(*(TWO_SEATS if seats == 2 else THREE_SEATS), **options))
    return arranged(state, hands=hands, **zones)
