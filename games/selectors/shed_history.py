"""The history of a shedding game (kind ``"palace"``) for staff review, read from its log.

A shedding match is one deal (``games.engine.shedding``, decision 2), so a game has one history:
the draw for the first dealer and the shuffles, each seat's dealt cards (face down, face up, hand:
staff see them all), the sealed face-up choices, then every decision in log order with what it
caused (plays onto the pile, burns, draws, pick-ups with the pile's cards, blind face-down flips),
and the finishing order. The log holds staff JSON (``games.engine.protocol.Event.to_json``), so
nothing is hidden here; this module only reads it in ``seq`` order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Event, Game
from games.selectors.hand_history import SeatRef, Shuffle, codes_text, group_codes, seat_refs

SETUP_TYPES = {"deal_started", "dealt", "stock_placed", "face_up_chosen", "face_up_set", "first_player"}
"""Events of the deal and of the setup, before the first turn."""
END_REASONS = {
    "last_player": "the last player left holding cards loses",
    "first_out": "the first player out wins",
    "stalemate": "stalemate (turn limit reached)",
    "resigned": "the others resigned",
}


@dataclass(frozen=True, slots=True)
class ShedStep:
    """One engine event, in log order: its log entry ``seq``, seat, a sentence and its cards."""

    seq: int
    type: str
    seat: SeatRef | None
    text: str
    cards: tuple[str, ...] = ()


@dataclass(slots=True)
class ShedSeat:
    """A seat's cards: as dealt (``face_up_dealt`` is the middle row), as chosen for the face-up
    row, and what went from the dealt face-up row into the hand. ``place``: finishing place;
    ``cards_left``: cards held when the match ended."""

    seat: SeatRef
    face_down: tuple[str, ...] = ()
    face_up_dealt: tuple[str, ...] = ()
    hand_dealt: tuple[str, ...] = ()
    face_up: tuple[str, ...] = ()
    to_hand: tuple[str, ...] = ()
    place: int | None = None
    cards_left: int | None = None


@dataclass(slots=True)
class ShedTurn:
    """One decision of the play phase (one log entry) and the events it caused, in order.

    ``number``: the decision's number in the match, from 1; ``action``: the action type as
    submitted (``play``, ``pick_up``, ``play_face_down``); ``timeout``: applied by the server.
    """

    number: int
    seq: int
    seat: SeatRef | None
    action: str
    timeout: bool = False
    steps: list[ShedStep] = field(default_factory=list)


@dataclass(slots=True)
class ShedHistory:
    """A shedding game as staff review it. Built from the log and then only read."""

    dealer: SeatRef | None = None
    first_seq: int | None = None
    last_seq: int | None = None
    seats: list[ShedSeat] = field(default_factory=list)
    shuffles: list[Shuffle] = field(default_factory=list)
    dealer_draw: list[ShedStep] = field(default_factory=list)
    setup: list[ShedStep] = field(default_factory=list)
    first_player: SeatRef | None = None
    stock: int | None = None
    turns: list[ShedTurn] = field(default_factory=list)
    order: list[SeatRef] = field(default_factory=list)
    end_reason: str = ""
    finished: bool = False

    @property
    def dealt(self) -> bool:
        return bool(self.seats)

    @property
    def plays(self) -> list[ShedStep]:
        """Every play onto the pile (from the hand, the face-up row or blind), in order."""
        return [step for turn in self.turns for step in turn.steps if step.type == "play"]

    @property
    def result(self) -> str:
        if not self.finished:
            return "in progress" if self.dealt else "not dealt yet"
        order = ", ".join(f"{place}. {seat}" for place, seat in enumerate(self.order, start=1))
        return f"{order} ({END_REASONS.get(self.end_reason, self.end_reason)})"


def shed_history(game: Game) -> ShedHistory:
    """The history of the shedding game ``game``, as far as its log goes."""
    reader = _ShedReader(seat_refs(game))
    entries = Event.objects.filter(game=game).order_by("seq").values_list("seq", "payload")
    for seq, payload in entries.iterator():
        if "action" not in payload:
            continue
        reader.entry(seq, payload["action"])
        for raw in payload.get("events", []):
            reader.read(seq, raw)
    return reader.history


class _ShedReader:
    """Reads log entries and their engine events one by one into ``history``."""

    def __init__(self, refs: dict[int, SeatRef]) -> None:
        self.refs = refs
        self.history = ShedHistory()
        self.turn: ShedTurn | None = None
        self.decisions = 0

    def ref(self, seat: int | None) -> SeatRef | None:
        return None if seat is None else self.refs.get(seat, SeatRef(seat, f"seat {seat}"))

    def row(self, seat: int) -> ShedSeat:
        found = next((row for row in self.history.seats if row.seat.number == seat), None)
        if found is None:
            found = ShedSeat(self.ref(seat))  # type: ignore[arg-type]
            self.history.seats.append(found)
        return found

    def entry(self, seq: int, action: dict[str, Any]) -> None:
        """A new log entry: a play decision opens a turn; anything else closes the open one."""
        history = self.history
        if history.first_seq is None:
            history.first_seq = seq
        history.last_seq = seq
        self.turn = None
        if action.get("type") in ("play", "pick_up", "play_face_down") and history.first_player is not None:
            self.decisions += 1
            self.turn = ShedTurn(
                number=self.decisions,
                seq=seq,
                seat=self.ref(action.get("seat")),
                action=action["type"],
                timeout=bool(action.get("timeout")),
            )
            history.turns.append(self.turn)

    def read(self, seq: int, raw: dict[str, Any]) -> None:
        """Add one staff-JSON engine event, logged in entry ``seq``."""
        type_, seat, history = raw["type"], raw.get("seat"), self.history
        step = self.step(seq, raw)
        if type_ == "shuffle":
            history.shuffles.append(Shuffle(seq, raw.get("number", 0), raw.get("purpose", ""), step.cards))
            history.dealer_draw.append(step)
        elif type_ in ("dealer_card", "dealer_chosen", "dealer_draw_restarted"):
            history.dealer_draw.append(step)
            if type_ == "dealer_chosen":
                history.dealer = self.ref(seat)
        elif type_ in SETUP_TYPES:
            self.setup(raw)
            history.setup.append(step)
        elif self.turn is not None:
            self.turn.steps.append(step)
        else:
            history.setup.append(step)
        if type_ == "match_ended":
            history.finished = True
            history.end_reason = raw.get("reason", "")
            history.order = [self.ref(number) for number in raw.get("order", [])]  # type: ignore[misc]
            for place, number in enumerate(raw.get("order", []), start=1):
                self.row(number).place = place
            for key, count in raw.get("cards_left", {}).items():
                self.row(int(key)).cards_left = count

    def setup(self, raw: dict[str, Any]) -> None:
        type_, seat, history = raw["type"], raw.get("seat"), self.history
        if type_ == "deal_started":
            history.dealer = self.ref(seat)
            for number in raw.get("seats", []):
                self.row(number)
        elif type_ == "dealt":
            row = self.row(seat)
            row.face_down = group_codes(raw, "face_down")
            row.face_up_dealt = group_codes(raw, "face_up")
            row.hand_dealt = group_codes(raw, "hand")
        elif type_ == "stock_placed":
            history.stock = raw.get("size")
        elif type_ == "face_up_set":
            row = self.row(seat)
            row.face_up, row.to_hand = group_codes(raw, "face_up"), group_codes(raw, "to_hand")
        elif type_ == "first_player":
            history.first_player = self.ref(seat)

    def step(self, seq: int, raw: dict[str, Any]) -> ShedStep:
        groups = raw.get("cards", {})
        cards = next((tuple(c for c in group["cards"] if c is not None) for group in groups.values()), ())
        return ShedStep(seq=seq, type=raw["type"], seat=self.ref(raw.get("seat")), text=_text(raw), cards=cards)


def _text(raw: dict[str, Any]) -> str:
    """A sentence for one event (its seat is shown beside it)."""
    type_ = raw["type"]
    if type_ == "shuffle":
        purpose = str(raw.get("purpose", "")).replace("_", " ")
        return f"shuffle #{raw.get('number', 0)} for the {purpose} ({raw.get('size')} cards)"
    if type_ == "resigned":
        return f"resigns with {raw['cards_left']} cards left: ranked last"
    if type_ == "dealer_card":
        return f"draws {codes_text(group_codes(raw, 'card'))} for the deal"
    if type_ == "dealer_chosen":
        return "deals (high card)"
    if type_ == "dealer_draw_restarted":
        return f"draw for the deal restarts among seats {raw.get('contenders')}"
    if type_ == "deal_started":
        return f"deals, from seat {', '.join(str(s) for s in raw.get('seats', []))}"
    if type_ == "dealt":
        down, up, hand = (codes_text(group_codes(raw, group)) for group in ("face_down", "face_up", "hand"))
        return f"dealt face down {down}, face up {up}, hand {hand}"
    if type_ == "stock_placed":
        return f"stock of {raw.get('size')} cards"
    if type_ == "face_up_chosen":
        return f"chooses {codes_text(group_codes(raw, 'cards'))} to lie face up (sealed)"
    if type_ == "face_up_set":
        text = f"face up: {codes_text(group_codes(raw, 'face_up'))}"
        to_hand = group_codes(raw, "to_hand")
        return f"{text}; into the hand: {codes_text(to_hand)}" if to_hand else text
    if type_ == "first_player":
        return f"plays first ({str(raw.get('rule', '')).replace('_', ' ')})"
    if type_ == "play":
        where = raw.get("source", "hand")
        if where == "face_down":
            text = f"flips face-down card {raw.get('position')} blind: {codes_text(group_codes(raw, 'cards'))}, played"
        else:
            text = f"plays {codes_text(group_codes(raw, 'cards'))} from the {where.replace('_', '-')}"
        return f"{text} (out of turn: {raw.get('kind')})" if raw.get("out_of_turn") else text
    if type_ == "face_down_failed":
        hidden = " (kept hidden from the table)" if raw.get("hidden") else ""
        return (
            f"flips face-down card {raw.get('position')} blind: {codes_text(group_codes(raw, 'card'))}, fails{hidden}"
        )
    if type_ == "burn":
        return (
            f"burns the pile ({str(raw.get('reason', '')).replace('_', ' ')}): {codes_text(group_codes(raw, 'cards'))}"
        )
    if type_ == "draw":
        return f"draws {codes_text(group_codes(raw, 'cards'))} ({raw.get('stock')} left in the stock)"
    if type_ == "pick_up":
        return f"picks up the pile: {codes_text(group_codes(raw, 'cards'))}"
    if type_ == "face_up_taken":
        return f"takes the face-up cards into the hand: {codes_text(group_codes(raw, 'cards'))}"
    if type_ == "player_out":
        return f"is out, place {raw.get('place')}"
    if type_ == "timeout":
        return f"timed out; the server plays {raw.get('action')}"
    if type_ == "match_ended":
        return f"match ended: {END_REASONS.get(raw.get('reason', ''), raw.get('reason'))}, order {raw.get('order')}"
    fields = ", ".join(f"{key}={value}" for key, value in raw.items() if key not in ("type", "seat", "cards"))
    return f"{type_.replace('_', ' ')}{': ' + fields if fields else ''}"
