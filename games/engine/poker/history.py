"""Palace Poker's log read as hands: who was dealt what, who put in what, every battle, the showdown, who won what.

``read_hands(entries, names, wild_royals=...)`` reads log entries in order, in the API's shape (``{"seq",
"action", "events": [Event.view_json(viewer), ...]}``; an entry without ``action`` is the server's and is
skipped), and returns the hands: one runs from ``hand_started`` to ``hand_ended``; the shuffles and the draw for
the first deal logged before it belong to it, and so do ``player_left`` and ``match_ended`` logged with its end.
Each step is phrased by ``games.engine.poker.phrases``. Read as staff (``STAFF``), nothing is hidden.

A called battle's loser does not show his palace (palace-poker.txt, "Call"), so the log names only the hands
that were shown; the others are evaluated here from the cards the log dealt, as the engine compares them
(``context.seat_hand``: the opponent's banner suit excluded, palace-poker.txt "Banner Suits"). So is a battle
decided by a fold, and a bet decided at once without money (palace-poker.txt, "Palace Poker without money").
A viewer who may not see a palace gets no evaluated hand for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import parse_cards
from games.engine.phrasing import Line, Names, SeatRef, Shuffle, group
from games.engine.poker.context import seat_hand
from games.engine.poker.phrases import PURPOSES, phrase

Event = Mapping[str, Any]

CHIP_KEYS = {"ante": "amount", "buy": "cost", "buy_discard": "cost", "bet": "amount", "raise": "cost", "call": "cost"}
"""Events that put chips into the pot, and the field that says how many."""
DEAL_TYPES = {"ante", "banner_dealt", "banner_rejected", "palace_dealt"}
"""Events of the deal, shown in the seats table rather than as steps of play."""


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the hand, in log order, in words. ``chips``: what it put into the pot (negative: chips
    given back); ``battle``: the number of the battle it belongs to, if any."""

    seq: int
    type: str
    seat: SeatRef | None
    line: Line
    chips: int = 0
    battle: int | None = None

    @property
    def text(self) -> str:
        return self.line.text

    @property
    def cards(self) -> tuple[str, ...]:
        return self.line.cards


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown: the palace, the five cards used and their name."""

    seat: SeatRef
    palace: tuple[str, ...]
    cards: tuple[str, ...]
    hand: str
    own_suit_cards: int


@dataclass(slots=True)
class SeatHand:
    """A seat's part in one hand. ``put_in``: chips into the pot, less chips given back; ``stack``: after the
    hand (``None`` while it goes on)."""

    seat: SeatRef
    ante: int = 0
    banner: str | None = None
    rejected: list[str] = field(default_factory=list)
    palace: tuple[str, ...] = ()
    put_in: int = 0
    won: int = 0
    stack: int | None = None

    @property
    def stack_before(self) -> int | None:
        return None if self.stack is None else self.stack - self.won + self.put_in


@dataclass(slots=True)
class BattleSide:
    """One side of a battle: palace cards, the hand they make (``hand``: its name, ``cards``: its (up to) five
    cards; ``shown``: shown at the table, else evaluated here) and the chips this side put in."""

    seat: SeatRef
    palace: tuple[str, ...] = ()
    hand: str | None = None
    cards: tuple[str, ...] = ()
    shown: bool = False
    put_in: int = 0


@dataclass(slots=True)
class Battle:
    """A bet battle. ``outcome``: ``showdown``, ``fold``, ``split``, ``both_out`` or ``""`` while undecided;
    ``captured``: the cards the winner took."""

    number: int
    attacker: BattleSide
    defender: BattleSide
    bet: int
    raises: int = 0
    outcome: str = ""
    winner: SeatRef | None = None
    loser: SeatRef | None = None
    captured: tuple[str, ...] = ()

    def side(self, seat: int | None) -> BattleSide | None:
        return next((side for side in (self.attacker, self.defender) if side.seat.number == seat), None)


@dataclass(slots=True)
class Hand:
    """One hand of a match. Built from the log and then only read. ``award``: the line that gave the pot."""

    number: int
    dealer: SeatRef | None
    first_seq: int
    last_seq: int
    seats: list[SeatHand]
    dealer_draw: list[Step] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    showdown: list[ShownHand] = field(default_factory=list)
    shuffles: list[Shuffle] = field(default_factory=list)
    pot: int | None = None
    award_reason: str = ""
    award: Line | None = None
    awards: list[tuple[SeatRef, int]] = field(default_factory=list)
    finished: bool = False

    @property
    def winners(self) -> list[SeatRef]:
        return [seat for seat, _ in self.awards]

    @property
    def ends_match(self) -> bool:
        """Whether the match ended with this hand (else a finished hand is followed by the next)."""
        return any(step.type == "match_ended" for step in self.steps)

    @property
    def result(self) -> str:
        """Who won the pot and how, in words; ``in progress`` before."""
        return "in progress" if self.award is None else self.award.text


def read_hands(entries: Iterable[Mapping[str, Any]], names: Names, *, wild_royals: bool = False) -> Iterator[Hand]:
    """Each hand of the log ``entries`` (in ``seq`` order, the API's shape) as it ends; the last may still be
    going on. ``wild_royals``: the match's ``kings_in_the_house`` option, for the hands evaluated here."""
    reader = _HandReader(names, wild_royals=wild_royals)
    for entry in entries:
        if "action" not in entry:
            continue
        for event in entry.get("events", []):
            reader.read(entry["seq"], event)
        if reader.hand is not None and reader.hand.finished:
            yield reader.hand
            reader.hand = None
    if reader.hand is not None:
        yield reader.hand


def histories(entries: Iterable[Mapping[str, Any]], names: Names, options: Mapping[str, Any]) -> Iterator[Hand]:
    """The hands, as every game's history module gives them (``games.engine.registry``), under ``options``."""
    return read_hands(entries, names, wild_royals=bool(options.get("kings_in_the_house")))


def codes(event: Event, name: str) -> tuple[str, ...]:
    """The known card codes of one card group of an event."""
    return tuple(code for code in group(event, name) if code is not None)


def chips_in(event: Event) -> int:
    """Chips the event put into the pot; negative for chips given back from it."""
    if event["type"] == "chips_returned":
        return -int(event["amount"])
    key = CHIP_KEYS.get(event["type"])
    return int(event.get(key, 0)) if key else 0


class _HandReader:
    """Reads events one by one into ``hand``, following each seat's cards (to evaluate battle hands) and the
    battle under way."""

    def __init__(self, names: Names, *, wild_royals: bool) -> None:
        self.names = names
        self.wild_royals = wild_royals
        self.hand: Hand | None = None
        self.pending_draw: list[Step] = []
        self.pending_shuffles: list[Shuffle] = []
        self.battle: Battle | None = None
        self.palace: dict[int, list[str]] = {}
        self.banners: dict[int, str] = {}
        self.soldiers: dict[int, list[str]] = {}

    def ref(self, seat: int | None) -> SeatRef | None:
        return None if seat is None else self.names.ref(seat)

    def step(self, seq: int, event: Event, battle: Battle | None = None) -> Step:
        number = None if battle is None else battle.number
        line = phrase(event, self.names)
        return Step(seq, event["type"], self.ref(event.get("seat")), line, chips_in(event), number)

    def read(self, seq: int, event: Event) -> None:
        """Add one event, logged in entry ``seq``."""
        type_, hand = event["type"], self.hand
        if type_ == "hand_started":
            self.start(seq, event)
        elif type_ == "shuffle":
            purpose = event["purpose"]
            shuffle = Shuffle(seq, event["number"], purpose, PURPOSES[purpose], codes(event, "order"))
            if hand is None:
                self.pending_shuffles.append(shuffle)
            else:
                hand.shuffles.append(shuffle)
                self.add_step(hand, self.step(seq, event))
        elif hand is None:
            self.pending_draw.append(self.step(seq, event))
        elif type_ in DEAL_TYPES:
            self.deal(hand, event)
        else:
            before = self.battle
            self.follow_cards(event)
            if type_ == "bet":
                self.open_battle(hand, event)
            told = BATTLE_STEPS.get(type_)
            if self.battle is not None and told is not None:
                told(self, self.battle, event)
            self.settle(hand, event)
            self.add_step(hand, self.step(seq, event, before or self.battle))
            if type_ in ("captured", "battle_tied"):
                self.battle = None

    def start(self, seq: int, event: Event) -> None:
        order = event["seats"]
        self.hand = Hand(
            number=event["hand"],
            dealer=self.ref(event["dealer"]),
            first_seq=seq,
            last_seq=seq,
            seats=[SeatHand(self.names.ref(seat)) for seat in order],
            dealer_draw=self.pending_draw,
            shuffles=self.pending_shuffles,
        )
        self.pending_draw, self.pending_shuffles = [], []
        self.battle = None
        self.palace, self.banners, self.soldiers = {}, {}, {seat: [] for seat in order}

    def seat_hand(self, hand: Hand, seat: int) -> SeatHand:
        found = next((row for row in hand.seats if row.seat.number == seat), None)
        if found is None:
            found = SeatHand(self.names.ref(seat))
            hand.seats.append(found)
        return found

    def deal(self, hand: Hand, event: Event) -> None:
        type_, seat = event["type"], event["seat"]
        row = self.seat_hand(hand, seat)
        if type_ == "ante":
            row.ante, row.put_in = event["amount"], row.put_in + event["amount"]
        elif type_ == "banner_dealt":
            row.banner = self.banners[seat] = codes(event, "banner")[0]
        elif type_ == "banner_rejected":
            row.rejected.extend(codes(event, "card"))
        else:
            row.palace = codes(event, "palace")
            self.palace[seat] = list(row.palace)

    def follow_cards(self, event: Event) -> None:
        """Each seat's soldiers; a seat out of the hand holds nothing."""
        type_, seat = event["type"], event["seat"]
        if type_ in ("soldier_drawn", "buy_discard", "captured"):
            self.soldiers.setdefault(seat, []).extend(codes(event, "card" if type_ != "captured" else "cards"))
            if type_ == "captured":
                self.clear(event["loser"])
        elif type_ == "discard":
            held = self.soldiers.setdefault(seat, [])
            for card in codes(event, "cards"):
                if card in held:
                    held.remove(card)
        elif type_ == "fold" or (type_ == "battle_tied" and event["outcome"] == "both_out"):
            self.clear(seat)
            self.clear(event.get("defender"))

    def clear(self, seat: int | None) -> None:
        if seat is not None:
            self.palace.pop(seat, None)
            self.banners.pop(seat, None)
            self.soldiers[seat] = []

    def open_battle(self, hand: Hand, event: Event) -> None:
        seat, target = event["seat"], event["target"]
        self.battle = Battle(
            number=len(hand.battles) + 1,
            attacker=BattleSide(self.names.ref(seat), tuple(self.palace.get(seat, ()))),
            defender=BattleSide(self.names.ref(target), tuple(self.palace.get(target, ()))),
            bet=event["amount"],
        )
        hand.battles.append(self.battle)

    def evaluate(self, battle: Battle) -> None:
        """Each side's hand as the engine compares them: its own cards, the opponent's banner suit excluded
        (palace-poker.txt, "Banner Suits"); none for a palace this viewer may not see."""
        for side, other in ((battle.attacker, battle.defender), (battle.defender, battle.attacker)):
            seat, opponent = side.seat.number, other.seat.number
            if seat not in self.banners or opponent not in self.banners or len(self.palace.get(seat, ())) != 3:
                continue
            value = seat_hand(
                parse_cards(self.palace[seat]),
                parse_cards([self.banners[seat]])[0],
                parse_cards(self.soldiers.get(seat, [])),
                exclude_suit=self.banners[opponent][1],
                wild_royals=self.wild_royals,
            )
            side.hand, side.cards = value.name, tuple(str(card) for card in value.cards)

    def settle(self, hand: Hand, event: Event) -> None:
        """Chips in and out, the showdown, the pot and the stacks at the end."""
        type_, seat, chips = event["type"], event.get("seat"), chips_in(event)
        if chips and seat is not None:
            self.seat_hand(hand, seat).put_in += chips
            side = None if self.battle is None else self.battle.side(seat)
            if side is not None:
                side.put_in += chips
        if type_ == "palace_shown" and "to" not in event:
            palace, cards = codes(event, "palace"), codes(event, "hand")
            shown = ShownHand(self.names.ref(event["seat"]), palace, cards, event["hand"], event["own_suit_cards"])
            hand.showdown.append(shown)
        elif type_ == "pot_awarded":
            hand.pot, hand.award_reason = event["pot"], event["reason"]
            hand.award = phrase(event, self.names)
            hand.awards = [(self.names.ref(int(key)), won) for key, won in event["amounts"].items()]
            for key, won in event["amounts"].items():
                self.seat_hand(hand, int(key)).won += won
        elif type_ == "hand_ended":
            hand.finished = True
            for row in hand.seats:
                row.stack = event["stacks"][row.seat.number]

    @staticmethod
    def add_step(hand: Hand, step: Step) -> None:
        hand.steps.append(step)
        hand.last_seq = step.seq


def _raised(reader: _HandReader, battle: Battle, event: Event) -> None:
    battle.raises += 1


def _folded(reader: _HandReader, battle: Battle, event: Event) -> None:
    reader.evaluate(battle)
    battle.outcome, battle.winner, battle.loser = "fold", reader.ref(event["opponent"]), reader.ref(event["seat"])


def _shown(reader: _HandReader, battle: Battle, event: Event) -> None:
    if "to" not in event:
        return
    if battle.attacker.hand is None and battle.defender.hand is None:
        # Decided without a call: under ``points`` the bet is compared at once.
        reader.evaluate(battle)
    side = battle.side(event["seat"])
    if side is not None:
        side.shown = True
        side.hand = (event.get("hand_names") or {}).get("palace", side.hand)
        side.cards = codes(event, "hand") or side.cards


def _won(reader: _HandReader, battle: Battle, event: Event) -> None:
    battle.outcome, battle.winner, battle.loser = event["by"], reader.ref(event["seat"]), reader.ref(event["loser"])


def _captured(reader: _HandReader, battle: Battle, event: Event) -> None:
    battle.captured = codes(event, "cards")


def _tied(reader: _HandReader, battle: Battle, event: Event) -> None:
    battle.outcome = event["outcome"]


BATTLE_STEPS: dict[str, Callable[[_HandReader, Battle, Event], None]] = {
    "raise": _raised,
    "call": lambda reader, battle, event: reader.evaluate(battle),
    "battle_fold": _folded,
    "palace_shown": _shown,
    "battle_won": _won,
    "captured": _captured,
    "battle_tied": _tied,
}
"""What each event of a battle under way tells of it (``battle.py``)."""
