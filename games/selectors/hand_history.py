"""Hand histories for staff review: a game's log, read as staff, grouped hand by hand.

Each log entry's engine events are stored as staff JSON (``games.engine.protocol.Event.to_json``
with every card), so this module only reads them in ``seq`` order and groups them: a hand runs
from ``hand_started`` to ``hand_ended``; the shuffles and the dealer draw logged before it belong
to it, and so do ``player_left`` and ``match_ended`` logged with its end. Nothing is hidden: staff
see every card, the shuffle orders and the battle hands the table never saw.

A called battle's loser does not show his palace (palace-poker.txt, "Call"), so the log names only
the hands that were shown; the others are evaluated here from the cards the log dealt him, the
way the engine compares them (palace-poker.txt, "Banner Suits": the opponent's banner suit
excluded). A battle decided by a fold gets the same evaluation: what each side held, and so does
a bet decided at once without money (palace-poker.txt, "Palace Poker without money": no call).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import parse_cards
from games.engine.evaluator import best_hand
from games.models import Event, Game

CHIP_KEYS = {"ante": "amount", "buy": "cost", "bet": "amount", "raise": "cost", "call": "cost"}
"""Events that put chips into the pot, and the field that says how many."""
DEAL_TYPES = {"ante", "banner_dealt", "banner_rejected", "palace_dealt"}
"""Events of the deal, shown in the seats table rather than as steps of play."""
REASONS = {
    "last_player": "last player in the hand",
    "same_banner_suit": "everyone left has the same banner suit",
    "showdown": "showdown",
    "battle_tie": "tied battle between the last two",
    "uncalled_raise": "uncalled raise",
    "no_chips": "no chips left",
}


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat and who sits there: the player's name, ``bot <policy>``, or ``seat <n>``."""

    number: int
    name: str

    def __str__(self) -> str:
        return f"{self.name} (seat {self.number})"


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the hand, in log order. ``chips``: what it put into the pot (negative: chips
    given back); ``battle``: the number of the battle it belongs to, if any."""

    seq: int
    type: str
    seat: SeatRef | None
    text: str
    chips: int = 0
    cards: tuple[str, ...] = ()
    battle: int | None = None


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A shuffle (chance's action): its number in the match, purpose and order, top card first."""

    seq: int
    number: int
    purpose: str
    cards: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.purpose.replace("_", " ")


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
    """A seat's part in one hand: the deal and the chips. ``put_in``: chips into the pot, less
    chips given back; ``stack``: after the hand (``None`` while it goes on)."""

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
    """One side of a battle: palace cards, the hand they make (``shown``: shown at the table,
    else evaluated here) and the chips this side put in."""

    seat: SeatRef
    palace: tuple[str, ...] = ()
    hand: str | None = None
    shown: bool = False
    put_in: int = 0


@dataclass(slots=True)
class Battle:
    """A bet battle. ``outcome``: ``showdown``, ``fold``, ``split``, ``both_out`` or ``""`` while
    undecided; ``captured``: the cards the winner took."""

    number: int
    attacker: BattleSide
    defender: BattleSide
    bet: int
    raises: int = 0
    outcome: str = ""
    winner: SeatRef | None = None
    loser: SeatRef | None = None
    captured: tuple[str, ...] = ()


@dataclass(slots=True)
class Hand:
    """One hand of a game as staff review it. Built from the log and then only read."""

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
    awards: list[tuple[SeatRef, int]] = field(default_factory=list)
    finished: bool = False

    @property
    def winners(self) -> list[SeatRef]:
        return [seat for seat, _ in self.awards]

    @property
    def ends_match(self) -> bool:
        """Whether the match ended with this hand (else a finished hand is followed by the next)."""
        return any(step.type == "match_ended" for step in self.steps)


def hand_histories(game: Game) -> list[Hand]:
    """Every hand of ``game`` in order; the last one may still be going on."""
    return list(_walk(game))


def hand_history(game: Game, number: int) -> Hand | None:
    """Hand ``number`` (from 1) of ``game``, or ``None``; reads the log no further than its end."""
    return next((hand for hand in _walk(game) if hand.number == number), None)


def seat_refs(game: Game) -> dict[int, SeatRef]:
    """Every seat of ``game`` with the name of who sits there."""
    refs = {number: SeatRef(number, f"seat {number}") for number in range(game.seat_count)}
    for seat in game.seats.select_related("player"):
        name = seat.player.get_username() if seat.player else (f"bot {seat.bot}" if seat.bot else "")
        refs[seat.number] = SeatRef(seat.number, name or f"seat {seat.number}")
    return refs


def _walk(game: Game) -> Iterator[Hand]:
    reader = _HandReader(seat_refs(game))
    entries = Event.objects.filter(game=game).order_by("seq").values_list("seq", "payload")
    for seq, payload in entries.iterator():
        for raw in payload.get("events", []) if "action" in payload else []:
            reader.read(seq, raw)
        if reader.hand is not None and reader.hand.finished:
            yield reader.hand
            reader.hand = None
    if reader.hand is not None:
        yield reader.hand


def group_codes(raw: dict[str, Any], group: str) -> tuple[str, ...]:
    """The card codes of one card group of a stored (staff) engine event."""
    return tuple(code for code in raw.get("cards", {}).get(group, {}).get("cards", ()) if code is not None)


def codes_text(cards: tuple[str, ...] | list[str]) -> str:
    """Cards as ``"As Td"``, or ``"nothing"``."""
    return " ".join(cards) if cards else "nothing"


class _HandReader:
    """Reads engine events one by one into ``hand``, following each seat's cards (to evaluate
    battle hands) and the battle under way."""

    def __init__(self, refs: dict[int, SeatRef]) -> None:
        self.refs = refs
        self.hand: Hand | None = None
        self.pending_draw: list[Step] = []
        self.pending_shuffles: list[Shuffle] = []
        self.battle: Battle | None = None
        self.palace: dict[int, list[str]] = {}
        self.banners: dict[int, str] = {}
        self.soldiers: dict[int, list[str]] = {}

    def ref(self, seat: int | None) -> SeatRef | None:
        return None if seat is None else self.refs.get(seat, SeatRef(seat, f"seat {seat}"))

    def read(self, seq: int, raw: dict[str, Any]) -> None:
        """Add one staff-JSON engine event, logged in entry ``seq``."""
        type_, hand = raw["type"], self.hand
        if type_ == "hand_started":
            self.start(seq, raw)
        elif type_ == "shuffle":
            shuffle = Shuffle(seq, raw.get("number", 0), raw.get("purpose", ""), group_codes(raw, "order"))
            text = f"shuffle #{shuffle.number} for the {shuffle.label} ({len(shuffle.cards)} cards)"
            if hand is None:
                self.pending_shuffles.append(shuffle)
            else:
                hand.shuffles.append(shuffle)
                self.add_step(hand, self.describe(seq, raw, text))
        elif hand is None:
            self.pending_draw.append(self.describe(seq, raw))
        elif type_ in DEAL_TYPES:
            self.deal(hand, raw)
        else:
            before = self.battle
            self.follow_cards(raw)
            self.follow_battle(hand, raw)
            self.settle(hand, raw)
            battle = before or self.battle
            self.add_step(hand, self.describe(seq, raw, battle=None if battle is None else battle.number))

    def start(self, seq: int, raw: dict[str, Any]) -> None:
        order = raw.get("seats", [])
        self.hand = Hand(
            number=raw["hand"],
            dealer=self.ref(raw.get("dealer")),
            first_seq=seq,
            last_seq=seq,
            seats=[SeatHand(self.ref(seat)) for seat in order],
            dealer_draw=self.pending_draw,
            shuffles=self.pending_shuffles,
        )
        self.pending_draw, self.pending_shuffles = [], []
        self.battle = None
        self.palace, self.banners, self.soldiers = {}, {}, {seat: [] for seat in order}

    def seat_hand(self, hand: Hand, seat: int) -> SeatHand:
        found = next((row for row in hand.seats if row.seat.number == seat), None)
        if found is None:
            found = SeatHand(self.ref(seat))
            hand.seats.append(found)
        return found

    def deal(self, hand: Hand, raw: dict[str, Any]) -> None:
        type_, row = raw["type"], self.seat_hand(hand, raw["seat"])
        if type_ == "ante":
            row.ante, row.put_in = raw["amount"], row.put_in + raw["amount"]
        elif type_ == "banner_dealt":
            row.banner = self.banners[raw["seat"]] = group_codes(raw, "banner")[0]
        elif type_ == "banner_rejected":
            row.rejected.extend(group_codes(raw, "card"))
        elif type_ == "palace_dealt":
            row.palace = group_codes(raw, "palace")
            self.palace[raw["seat"]] = list(row.palace)

    def follow_cards(self, raw: dict[str, Any]) -> None:
        """Each seat's soldiers; a seat out of the hand holds nothing."""
        type_, seat = raw["type"], raw.get("seat")
        if type_ in ("soldier_drawn", "captured"):
            self.soldiers.setdefault(seat, []).extend(next(iter(raw["cards"].values()))["cards"])
            if type_ == "captured":
                self.clear(raw.get("loser"))
        elif type_ == "discard":
            held = self.soldiers.setdefault(seat, [])
            for card in group_codes(raw, "cards"):
                if card in held:
                    held.remove(card)
        elif type_ == "fold" or (type_ == "battle_tied" and raw.get("outcome") == "both_out"):
            self.clear(seat)
            self.clear(raw.get("defender"))

    def clear(self, seat: int | None) -> None:
        if seat is not None:
            self.palace.pop(seat, None)
            self.banners.pop(seat, None)
            self.soldiers[seat] = []

    def follow_battle(self, hand: Hand, raw: dict[str, Any]) -> None:
        """Open a battle on a bet; evaluate both hands when it is decided; record how it ended."""
        type_, seat = raw["type"], raw.get("seat")
        if type_ == "bet":
            self.battle = Battle(
                number=len(hand.battles) + 1,
                attacker=BattleSide(self.ref(seat), tuple(self.palace.get(seat, ()))),
                defender=BattleSide(self.ref(raw["target"]), tuple(self.palace.get(raw["target"], ()))),
                bet=raw["amount"],
            )
            hand.battles.append(self.battle)
        battle = self.battle
        if battle is None:
            return
        if type_ == "raise":
            battle.raises += 1
        elif type_ == "call":
            self.evaluate(battle)
        elif type_ == "battle_fold":
            self.evaluate(battle)
            battle.outcome, battle.winner, battle.loser = "fold", self.ref(raw["opponent"]), self.ref(seat)
        elif type_ == "palace_shown" and "to" in raw:
            if battle.attacker.hand is None and battle.defender.hand is None:
                # Decided without a call: under ``points`` the bet is compared at once.
                self.evaluate(battle)
            side = self.side(seat)
            if side is not None:
                side.shown, side.hand = True, raw["cards"]["palace"].get("hand", side.hand)
        elif type_ == "battle_won":
            battle.outcome, battle.winner, battle.loser = (
                raw.get("by", "showdown"),
                self.ref(seat),
                self.ref(raw["loser"]),
            )
        elif type_ == "captured":
            battle.captured = group_codes(raw, "cards")
            self.battle = None
        elif type_ == "battle_tied":
            battle.outcome = raw.get("outcome", "tie")
            self.battle = None

    def side(self, seat: int | None) -> BattleSide | None:
        battle = self.battle
        if battle is None or seat is None:
            return None
        return next((side for side in (battle.attacker, battle.defender) if side.seat.number == seat), None)

    def evaluate(self, battle: Battle) -> None:
        """Each side's hand as the engine compares them: its own cards, the opponent's banner suit
        excluded (palace-poker.txt, "Banner Suits")."""
        for side, other in ((battle.attacker, battle.defender), (battle.defender, battle.attacker)):
            seat, opponent = side.seat.number, other.seat.number
            if seat not in self.banners or opponent not in self.banners:
                continue
            held = [*self.palace.get(seat, []), self.banners[seat], *self.soldiers.get(seat, [])]
            value = best_hand(parse_cards(held), exclude_suit=self.banners[opponent][1], own_suit=self.banners[seat][1])
            side.hand = value.name

    def settle(self, hand: Hand, raw: dict[str, Any]) -> None:
        """Chips in and out, the showdown, the pot and the stacks at the end."""
        type_, seat = raw["type"], raw.get("seat")
        chips = _chips(raw)
        if chips and seat is not None:
            self.seat_hand(hand, seat).put_in += chips
            side = self.side(seat)
            if side is not None:
                side.put_in += chips
        if type_ == "palace_shown" and "to" not in raw:
            shown = ShownHand(
                self.ref(seat), group_codes(raw, "palace"), group_codes(raw, "hand"), raw["hand"], raw["own_suit_cards"]
            )
            hand.showdown.append(shown)
        elif type_ == "pot_awarded":
            hand.pot, hand.award_reason = raw["pot"], REASONS.get(raw["reason"], raw["reason"])
            hand.awards = [(self.ref(int(key)), chips) for key, chips in raw["amounts"].items()]
            for key, chips in raw["amounts"].items():
                self.seat_hand(hand, int(key)).won += chips
        elif type_ == "hand_ended":
            hand.finished = True
            for row in hand.seats:
                row.stack = raw["stacks"][row.seat.number]

    @staticmethod
    def add_step(hand: Hand, step: Step) -> None:
        hand.steps.append(step)
        hand.last_seq = step.seq

    def describe(self, seq: int, raw: dict[str, Any], text: str | None = None, *, battle: int | None = None) -> Step:
        cards = next((tuple(group["cards"]) for group in raw.get("cards", {}).values()), ())
        return Step(
            seq=seq,
            type=raw["type"],
            seat=self.ref(raw.get("seat")),
            text=text or _text(raw, self.ref),
            chips=_chips(raw),
            cards=cards,
            battle=battle,
        )


def _chips(raw: dict[str, Any]) -> int:
    """Chips the event put into the pot; negative for chips given back from it."""
    if raw["type"] == "chips_returned":
        return -raw["amount"]
    key = CHIP_KEYS.get(raw["type"])
    return raw.get(key, 0) if key else 0


def _text(raw: dict[str, Any], ref: Callable[[int | None], SeatRef | None]) -> str:
    """What happened, in words; the acting seat is shown beside it."""
    type_ = raw["type"]
    if type_ == "buy":
        return f"buys a soldier for {raw['cost']}"
    if type_ == "soldier_drawn":
        return f"draws {codes_text(group_codes(raw, 'card'))}"
    if type_ == "discard":
        cards = group_codes(raw, "cards")
        return f"discards {codes_text(cards)}" if cards else "keeps his soldiers"
    if type_ == "bet":
        return f"bets {raw['amount']} against {ref(raw['target'])}"
    if type_ == "raise":
        return f"raises by {raw['amount']}, putting in {raw['cost']}"
    if type_ == "call":
        return f"calls for {raw['cost']}" + (", all in" if raw.get("all_in") else "")
    if type_ == "stay":
        return "stays"
    if type_ == "fold":
        return "folds the hand"
    if type_ == "battle_fold":
        return f"folds the battle to {ref(raw['opponent'])}"
    if type_ == "palace_shown":
        palace = raw["cards"]["palace"]
        if "to" in raw:
            return f"shows {codes_text(palace['cards'])} to {ref(raw['to'])}: {palace.get('hand', '?')}"
        used = codes_text(group_codes(raw, "hand"))
        return f"shows {codes_text(palace['cards'])} at the showdown: {raw['hand']} ({used})"
    if type_ == "battle_won":
        return f"wins the battle against {ref(raw['loser'])} ({raw.get('by', 'showdown')})"
    if type_ == "captured":
        return f"captures {codes_text(group_codes(raw, 'cards'))} from {ref(raw['loser'])}"
    if type_ == "battle_tied":
        outcome = "they split the pot" if raw.get("outcome") == "split" else "both are out"
        return f"ties the battle with {ref(raw['defender'])}: {outcome}"
    if type_ == "chips_returned":
        return f"gets {raw['amount']} back ({REASONS.get(raw.get('reason', ''), raw.get('reason', ''))})"
    if type_ == "pot_awarded":
        shares = ", ".join(f"{chips} to {ref(int(seat))}" for seat, chips in raw["amounts"].items())
        return f"pot of {raw['pot']}: {shares} ({REASONS.get(raw['reason'], raw['reason'])})"
    if type_ == "hand_ended":
        return f"hand {raw['hand']} ends; stacks {', '.join(str(stack) for stack in raw['stacks'])}"
    if type_ == "resigned":
        return f"resigns and leaves the match, his stack of {raw['stack']} out of play"
    if type_ == "player_left":
        return f"leaves the match ({REASONS.get(raw.get('reason', ''), raw.get('reason', ''))})"
    if type_ == "match_ended":
        winners = ", ".join(str(ref(seat)) for seat in raw["winners"])
        return f"the match ends after {raw['hands']} hand(s); won by {winners}"
    if type_ == "timeout":
        return f"runs out of time: the server plays {raw['action']}"
    if type_ == "stock_exhausted":
        return f"the deck runs out in the banner deal: the {raw['set_aside']} cards set aside are shuffled again"
    if type_ == "stock_rebuilt":
        return f"the discard pile is shuffled into a new stock of {raw['size']} cards"
    if type_ == "dealer_card":
        return f"draws {codes_text(group_codes(raw, 'card'))} for the deal"
    if type_ == "dealer_chosen":
        return "deals first"
    if type_ == "dealer_draw_restarted":
        return "the draw for the deal starts again"
    rest = {key: value for key, value in raw.items() if key not in ("type", "seat")}
    return f"{type_.replace('_', ' ')} {rest}" if rest else type_.replace("_", " ")
