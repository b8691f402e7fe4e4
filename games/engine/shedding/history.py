"""The shedding game's log read as its one deal: what each seat was dealt and chose, every turn, the ranking.

A shedding match is one deal (``games.engine.shedding``, decision 2), so a game has one history:
``read_history(entries, names)`` reads log entries in order, in the API's shape (``{"seq", "action", "events":
[Event.view_json(viewer), ...]}``; an entry without ``action`` is the server's and is skipped): the draw for the
first dealer and the shuffles, each seat's dealt cards (face down, face up, hand), the sealed face-up choices,
then every decision of play with what it caused (plays onto the pile, burns, draws, pick-ups, blind face-down
flips), and the finishing order. Each step is phrased by ``games.engine.shedding.phrases``. Read as staff
(``STAFF``), nothing is hidden; another viewer's history holds only the cards he may know.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine.phrasing import Line, Names, SeatRef, Shuffle, group
from games.engine.seeding import SEED_EVENT_TYPES
from games.engine.shedding.phrases import PURPOSES, phrase
from games.engine.steps import RESIGN

Event = Mapping[str, Any]

SETUP_TYPES = {"deal_started", "dealt", "stock_placed", "face_up_chosen", "face_up_set", "first_player"}
"""Events of the deal and of the setup, before the first turn."""
DRAW_TYPES = {"shuffle", "dealer_card", "dealer_chosen", "dealer_draw_restarted"}
"""Events of the draw for the first dealer (and the shuffles, listed with it)."""
PLAY_ACTIONS = {"play", "pick_up", "play_face_down"}
"""Action types of the play phase: each is a decision, a turn of the history."""


@dataclass(frozen=True, slots=True)
class ShedStep:
    """One engine event, in log order: its log entry ``seq``, seat and line."""

    seq: int
    type: str
    seat: SeatRef | None
    line: Line

    @property
    def text(self) -> str:
        return self.line.text

    @property
    def cards(self) -> tuple[str, ...]:
        return self.line.cards


@dataclass(slots=True)
class ShedSeat:
    """A seat's cards: as dealt (``face_up_dealt`` is the middle row), as chosen for the face-up row, and what
    went from the dealt face-up row into the hand. ``place``: finishing place; ``cards_left``: cards held when
    the match ended."""

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

    ``number``: the decision's number in the match, from 1 (``None`` for a resignation, which is no turn of
    play); ``action``: the action type as submitted (``play``, ``pick_up``, ``play_face_down``, ``resign``);
    ``timeout``: applied by the server.
    """

    number: int | None
    seq: int
    seat: SeatRef | None
    action: str
    timeout: bool = False
    steps: list[ShedStep] = field(default_factory=list)


@dataclass(slots=True)
class ShedHistory:
    """A shedding game's one deal. Built from the log and then only read. ``end``: the line that ended it."""

    number: int = 1
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
    end: Line | None = None
    finished: bool = False

    @property
    def dealt(self) -> bool:
        return bool(self.seats)

    @property
    def ends_match(self) -> bool:
        """A match is one deal: no hand follows this one."""
        return True

    @property
    def plays(self) -> list[ShedStep]:
        """Every play onto the pile (from the hand, the face-up row or blind), in order."""
        return [step for turn in self.turns for step in turn.steps if step.type == "play"]

    @property
    def result(self) -> str:
        """The finishing order and why, in words; else how far the game is."""
        if self.end is not None:
            return self.end.text
        return "in progress" if self.dealt else "not dealt yet"


def histories(entries: Iterable[Mapping[str, Any]], names: Names, options: Mapping[str, Any]) -> Iterator[ShedHistory]:
    """The game's hands, as every game's history module gives them (``games.engine.registry``): its one deal
    once dealt, none before. ``options`` change nothing here."""
    history = read_history(entries, names)
    if history.dealt:
        yield history


def read_history(entries: Iterable[Mapping[str, Any]], names: Names) -> ShedHistory:
    """The history of the log ``entries`` (in ``seq`` order, the API's shape), as far as they go."""
    reader = _ShedReader(names)
    for entry in entries:
        if "action" not in entry:
            continue
        reader.entry(entry["seq"], entry["action"])
        for event in entry.get("events", []):
            reader.read(entry["seq"], event)
    return reader.history


def _codes(event: Event, name: str) -> tuple[str, ...]:
    return tuple(code for code in group(event, name) if code is not None)


class _ShedReader:
    """Reads log entries and their events one by one into ``history``."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.history = ShedHistory()
        self.turn: ShedTurn | None = None
        self.decisions = 0

    def row(self, seat: int) -> ShedSeat:
        found = next((row for row in self.history.seats if row.seat.number == seat), None)
        if found is None:
            found = ShedSeat(self.names.ref(seat))
            self.history.seats.append(found)
        return found

    def entry(self, seq: int, action: Mapping[str, Any]) -> None:
        """A new log entry: a play decision opens a turn; anything else closes the open one."""
        history = self.history
        if history.first_seq is None:
            history.first_seq = seq
        history.last_seq = seq
        self.turn = None
        if history.first_player is not None and action.get("type") in (*PLAY_ACTIONS, RESIGN):
            play = action["type"] in PLAY_ACTIONS
            self.decisions += play
            seat = action.get("seat")
            self.turn = ShedTurn(
                number=self.decisions if play else None,
                seq=seq,
                seat=None if seat is None else self.names.ref(seat),
                action=action["type"],
                timeout=bool(action.get("timeout")),
            )
            history.turns.append(self.turn)

    def read(self, seq: int, event: Event) -> None:
        """Add one event, logged in entry ``seq``."""
        type_, seat, history = event["type"], event.get("seat"), self.history
        if type_ in SEED_EVENT_TYPES:
            return
        step = ShedStep(seq, type_, None if seat is None else self.names.ref(seat), phrase(event, self.names))
        if type_ in DRAW_TYPES:
            history.dealer_draw.append(step)
            if type_ == "shuffle":
                purpose = event["purpose"]
                shuffle = Shuffle(seq, event["number"], purpose, PURPOSES[purpose], _codes(event, "order"))
                history.shuffles.append(shuffle)
            elif type_ == "dealer_chosen":
                history.dealer = step.seat
        elif type_ in SETUP_TYPES:
            self.setup(event)
            history.setup.append(step)
        elif self.turn is not None:
            self.turn.steps.append(step)
        else:
            history.setup.append(step)
        if type_ == "match_ended":
            self.end(event)

    def setup(self, event: Event) -> None:
        # Every event of the setup concerns a seat (``events.EVENTS``) but the stock's.
        type_, seat, history = event["type"], event.get("seat") or 0, self.history
        if type_ == "deal_started":
            history.dealer = self.names.ref(seat)
            for number in event["seats"]:
                self.row(number)
        elif type_ == "dealt":
            row = self.row(seat)
            row.face_down = _codes(event, "face_down")
            row.face_up_dealt = _codes(event, "face_up")
            row.hand_dealt = _codes(event, "hand")
        elif type_ == "stock_placed":
            history.stock = event["size"]
        elif type_ == "face_up_set":
            row = self.row(seat)
            row.face_up, row.to_hand = _codes(event, "face_up"), _codes(event, "to_hand")
        elif type_ == "first_player":
            history.first_player = self.names.ref(seat)

    def end(self, event: Event) -> None:
        history = self.history
        history.finished = True
        history.end_reason = event["reason"]
        history.end = phrase(event, self.names)
        history.order = [self.names.ref(number) for number in event["order"]]
        for place, number in enumerate(event["order"], start=1):
            self.row(number).place = place
        for key, count in event["cards_left"].items():
            self.row(int(key)).cards_left = count
