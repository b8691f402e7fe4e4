"""The game interface that every Palace game implements, and the records it exchanges.

The server only loads, applies and stores: a game module is a pure function library over
immutable states (the shape of scalachess's ``Game.apply`` and OpenSpiel's chance nodes).

Flow of one step::

    state = game.new_game(options, seats=6)
    while not game.is_over(state):
        request = game.chance_request(state)
        if request is not None:                  # chance's turn: a shuffle
            action = sample_shuffle(request, rng)  # games.engine.chance, secrets.SystemRandom
        else:
            seat = game.to_act(state)[0]
            action = <a decision of that seat, checked against game.legal_actions(state, seat)>
        state, events = game.apply(state, action)

Randomness never happens inside ``apply``: every shuffle is an ``Action`` of type ``shuffle`` that
carries the resulting order, so the action log is the whole history and replay never re-rolls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from games.engine.cards import Card, card_codes, parse_cards
from games.engine.errors import EngineCode, EngineError
from games.engine.fairness import SeedDraw, is_hex
from games.engine.master_seed import MASTER_BYTES
from games.engine.option_fields import OptionField

JSON: TypeAlias = Any

SPECTATOR = "spectator"
"""Viewer who sits at no seat: sees only public cards."""
STAFF = "staff"
"""Viewer who audits the game: sees every card, the stock's order included."""

Viewer: TypeAlias = int | str
"""A seat number (0..n-1), ``SPECTATOR`` or ``STAFF``."""

PUBLIC: None = None
"""``CardGroup.visible_to`` value for cards every viewer may see."""


def check_viewer(viewer: object, seats: int) -> Viewer:
    """Validate a viewer value; raises ``EngineError("invalid_viewer")``."""
    if viewer == SPECTATOR or viewer == STAFF:
        return viewer
    if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < seats:
        return viewer
    raise EngineError(EngineCode.INVALID_VIEWER, f"viewer must be a seat 0..{seats - 1}, {SPECTATOR!r} or {STAFF!r}")


def may_see(visible_to: frozenset[int] | None, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see cards with this visibility (``None`` = everyone)."""
    if viewer == STAFF or visible_to is None:
        return True
    return isinstance(viewer, int) and viewer in visible_to


@dataclass(frozen=True, slots=True)
class CardGroup:
    """Cards inside an event, with who may see them.

    ``visible_to``: ``None`` for everyone, else the set of seats (staff always see; an empty set
    means staff only). ``hand``: an optional hand description (``"three queens"``) that is as
    secret as the cards it describes.
    """

    cards: tuple[Card, ...]
    visible_to: frozenset[int] | None = PUBLIC
    hand: str | None = None

    def to_json(self, viewer: Viewer = STAFF) -> JSON:
        """``{"cards": ["As", ...], "hand": ...}``; cards the viewer may not see become ``null``."""
        if may_see(self.visible_to, viewer):
            out: dict[str, JSON] = {"cards": card_codes(self.cards)}
            if self.hand is not None:
                out["hand"] = self.hand
        else:
            out = {"cards": [None] * len(self.cards)}
        if viewer == STAFF:
            out["visible_to"] = "all" if self.visible_to is None else sorted(self.visible_to)
        return out


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, as the log records it.

    ``type``: snake_case name (``"bet"``, ``"palace_dealt"``...); ``seat``: the seat it concerns or
    ``None``; ``data``: public JSON fields (amounts in chips); ``cards``: named card groups, each
    with its own visibility, so the log is redacted per viewer without re-deriving the rules.
    """

    type: str
    seat: int | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)
    cards: Mapping[str, CardGroup] = field(default_factory=dict)

    def to_json(self, viewer: Viewer = STAFF) -> JSON:
        """The event as ``viewer`` may see it (``STAFF``: everything, with each group's visibility)."""
        out: dict[str, JSON] = {"type": self.type, "seat": self.seat, **dict(self.data)}
        if self.cards:
            out["cards"] = {name: group.to_json(viewer) for name, group in self.cards.items()}
        return out

    def view_json(self, viewer: Viewer) -> JSON:
        """The event in the API's v1 shape for ``viewer``: card groups flattened.

        ``{"type", "seat", **data, "cards": {"<group>": ["As", null, ...]}}``: each group a list of codes, or
        ``null`` per card the viewer may not see. A group no player ever sees (``visible_to`` empty: a
        shuffle's order, face-down cards) is left out of a player's ``cards`` and only counted, in
        ``"unseen": {"<group>": n}``, rather than sent as a list of nulls. A hand description the viewer may
        see goes in ``"hand_names": {"<group>": "three queens"}``. Staff also get ``"visible_to": {"<group>":
        "all" | [seats]}``. ``cards``, ``unseen``, ``hand_names`` and ``visible_to`` appear only when not empty.
        ``to_json(STAFF)`` stays the stored form (``from_json`` reads it back).
        """
        out: dict[str, JSON] = {"type": self.type, "seat": self.seat, **dict(self.data)}
        cards: dict[str, JSON] = {}
        hidden: dict[str, int] = {}
        hands: dict[str, str] = {}
        for name, group in self.cards.items():
            if may_see(group.visible_to, viewer):
                cards[name] = card_codes(group.cards)
                if group.hand is not None:
                    hands[name] = group.hand
            elif group.visible_to == frozenset():
                hidden[name] = len(group.cards)
            else:
                cards[name] = [None] * len(group.cards)
        for key, value in (("cards", cards), ("unseen", hidden), ("hand_names", hands)):
            if value:
                out[key] = value
        if viewer == STAFF and self.cards:
            out["visible_to"] = {
                name: "all" if group.visible_to is None else sorted(group.visible_to)
                for name, group in self.cards.items()
            }
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Event:
        """Inverse of ``to_json(STAFF)``: a stored event, ready to be redacted for any viewer."""
        data = dict(data)
        type_, seat = data.pop("type"), data.pop("seat")
        cards = {
            name: CardGroup(
                cards=parse_cards(raw["cards"]),
                visible_to=None if raw["visible_to"] == "all" else frozenset(raw["visible_to"]),
                hand=raw.get("hand"),
            )
            for name, raw in data.pop("cards", {}).items()
        }
        return cls(type=type_, seat=seat, data=data, cards=cards)


def action_for_viewer(action: Mapping[str, JSON], events: Sequence[Event], viewer: Viewer) -> JSON:
    """A logged action (``Action.to_json`` form) as ``viewer`` may see it, beside the ``events`` it produced.

    Each card the action names is shown to staff, to the seat that acted (it named cards it holds) and to
    a viewer who may see that card in one of ``events``; to anyone else it becomes ``null``, one copy for
    one copy (two decks hold each code twice). So an action never tells more than its events: a sealed
    choice (the shedding game's ``choose_face_up``, palace-shedding-a.txt ¶9) stays sealed until the event
    that turns it face up, and a shuffle's order (a staff-only event) is staff's alone: to anyone else a
    shuffle is ``{"type": "shuffle", "size": n}``, without ``cards``.
    """
    out = dict(action)
    if viewer != STAFF:
        # A deal's seeds are staff's until its ``seeds_revealed`` event publishes them, and the master seed (which
        # gives every deal's) until the whole log is (``games.selectors.export``, which shows staff's form then).
        out.pop("seeds", None)
        out.pop("master", None)
    cards = out.get("cards")
    if not cards or viewer == STAFF or (isinstance(viewer, int) and viewer == out.get("seat")):
        return out
    if out.get("type") == "shuffle":
        # No player ever sees a shuffle's order: its size, not a list of nulls.
        del out["cards"]
        out["size"] = len(cards)
        return out
    shown: dict[str, int] = {}
    for event in events:
        for group in event.cards.values():
            if may_see(group.visible_to, viewer):
                for code in card_codes(group.cards):
                    shown[code] = shown.get(code, 0) + 1
    redacted: list[str | None] = []
    for code in cards:
        if shown.get(code, 0) > 0:
            shown[code] -= 1
            redacted.append(code)
        else:
            redacted.append(None)
    out["cards"] = redacted
    return out


@dataclass(frozen=True, slots=True)
class Action:
    """A decision of a seat, or a chance outcome (``seat`` is ``None`` and ``type`` is ``"shuffle"``).

    ``cards``: cards named by the action (discarded soldiers; a shuffle's order, top card first);
    ``target``: a seat (the defender of a bet); ``amount``: chips, meaning per action type as the
    game documents; ``timeout``: the server applied this default action because a deadline passed;
    ``seeds``: on the first shuffle of a deal under commit-reveal shuffles, the deal's seeds
    (``games.engine.fairness``), which the shuffle's order must follow; ``master``: on the match's first shuffle
    with seeds, the master seed they come from (hex, ``games.engine.master_seed``), which every later deal's seeds
    must come from too. Both are staff's alone (``action_for_viewer``).
    """

    type: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    target: int | None = None
    amount: int | None = None
    timeout: bool = False
    seeds: SeedDraw | None = None
    master: str | None = None

    def to_json(self) -> JSON:
        """Plain JSON with only the fields that are set."""
        out: dict[str, JSON] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = card_codes(self.cards)
        if self.target is not None:
            out["target"] = self.target
        if self.amount is not None:
            out["amount"] = self.amount
        if self.timeout:
            out["timeout"] = True
        if self.seeds is not None:
            out["seeds"] = self.seeds.to_json()
        if self.master is not None:
            out["master"] = self.master
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Action:
        """Inverse of ``to_json``; raises ``EngineError("invalid_action")`` on malformed input."""
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise EngineError(EngineCode.INVALID_ACTION, "an action is an object with a string 'type'")
        unknown = set(data) - {"type", "seat", "cards", "target", "amount", "timeout", "seeds", "master"}
        if unknown:
            raise EngineError(EngineCode.INVALID_ACTION, f"unknown action fields: {sorted(unknown)}")
        for key in ("seat", "target", "amount"):
            value = data.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise EngineError(EngineCode.INVALID_ACTION, f"'{key}' must be an integer")
        cards = data.get("cards") or []
        if not isinstance(cards, list | tuple) or not all(isinstance(code, str) for code in cards):
            raise EngineError(EngineCode.INVALID_ACTION, "'cards' must be a list of card codes such as 'As'")
        timeout = data.get("timeout", False)
        if not isinstance(timeout, bool):
            raise EngineError(EngineCode.INVALID_ACTION, "'timeout' must be a boolean")
        master = data.get("master")
        if master is not None and not is_hex(master, low=MASTER_BYTES, high=MASTER_BYTES):
            raise EngineError(EngineCode.INVALID_ACTION, f"'master' must be {MASTER_BYTES} bytes of lower-case hex")
        return cls(
            type=data["type"],
            seat=data.get("seat"),
            cards=parse_cards(cards),
            target=data.get("target"),
            amount=data.get("amount"),
            timeout=timeout,
            seeds=None if data.get("seeds") is None else SeedDraw.from_json(data["seeds"]),
            master=master,
        )


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One kind of decision open to a seat, with what it costs.

    ``cost``: chips it takes from the stack (for a ranged amount, the cost at ``min_amount``);
    ``targets``: seats it may name, with the cost against each; ``min_amount`` / ``max_amount``:
    bounds of ``Action.amount`` where the player chooses one; ``cards`` / ``min_cards`` /
    ``max_cards``: the cards it may name and how many.
    """

    type: str
    cost: int = 0
    targets: tuple[tuple[int, int], ...] = ()
    min_amount: int | None = None
    max_amount: int | None = None
    cards: tuple[Card, ...] = ()
    min_cards: int = 0
    max_cards: int = 0

    def to_json(self) -> JSON:
        """Plain JSON: ``{"type", "cost", ...}`` with only the fields that apply."""
        out: dict[str, JSON] = {"type": self.type, "cost": self.cost}
        if self.targets:
            out["targets"] = [{"seat": seat, "cost": cost} for seat, cost in self.targets]
        if self.min_amount is not None:
            out["min_amount"] = self.min_amount
            out["max_amount"] = self.max_amount
        if self.cards or self.max_cards:
            out["cards"] = card_codes(self.cards)
            out["min_cards"] = self.min_cards
            out["max_cards"] = self.max_cards
        return out


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """Chance's turn: ``cards`` (in a canonical order) must be shuffled.

    ``purpose`` names why (``"banner_deal"``, ``"stock_rebuild"``...); ``number`` counts the shuffles
    of the match from 0, so a server can substitute a prearranged order for the n-th shuffle.
    ``deal``: the deal it belongs to (0: the draw for the first dealer); ``seeds_due``: under commit-reveal
    shuffles it opens that deal and must carry the deal's seeds (``games.engine.chance.fair_shuffle``);
    ``order``: the order the deal's committed seeds give it, when they are already committed.
    """

    purpose: str
    cards: tuple[Card, ...]
    number: int
    deal: int = 0
    seeds_due: bool = False
    order: tuple[Card, ...] | None = None


class Game(Protocol):
    """What a Palace game module provides. ``State`` is the module's own frozen dataclass."""

    kind: str
    option_fields: tuple[OptionField, ...]
    """Every option ``normalize_options`` accepts, as data (``games.engine.option_fields``)."""

    def normalize_options(self, options: Mapping[str, JSON] | None, seats: int) -> dict[str, JSON]:
        """Validated options with every default filled in; raises ``InvalidOptions``."""

    def new_game(self, options: Mapping[str, JSON], seats: int) -> Any:
        """The initial state; raises ``InvalidOptions`` for bad options or seat counts."""

    def to_act(self, state: Any) -> tuple[int, ...]:
        """Seats whose decision it is (empty while chance acts or after the end)."""

    def due_to_act(self, state: Any) -> tuple[int, ...]:
        """The seats whose decision a turn deadline concerns: those the game waits for (``to_act`` less
        any seat that merely may act out of turn)."""

    def chance_request(self, state: Any) -> ChanceRequest | None:
        """The shuffle chance owes now, or ``None``."""

    def legal_actions(self, state: Any, seat: int) -> Sequence[LegalAction]:
        """The decisions open to ``seat`` now (empty if none)."""

    def apply(self, state: Any, action: Action) -> tuple[Any, tuple[Event, ...]]:
        """The next state and what happened; raises ``EngineError`` and leaves ``state`` unchanged."""

    def default_action(self, state: Any, seat: int) -> Action:
        """The action a timeout applies for ``seat``."""

    def view(self, state: Any, viewer: Viewer) -> JSON:
        """The state as ``viewer`` may know it, as plain JSON; at least ``to_act`` (the seats to act as the
        viewer may know them) and ``legal_actions`` (the viewer's, ``LegalAction.to_json``; empty for others)."""

    def is_over(self, state: Any) -> bool:
        """Whether the match has ended."""

    def state_to_json(self, state: Any) -> JSON:
        """Every field of the state as plain JSON (staff-only: it holds hidden cards)."""

    def state_from_json(self, data: JSON) -> Any:
        """Inverse of ``state_to_json``."""
