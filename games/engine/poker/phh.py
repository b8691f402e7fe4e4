"""Palace Poker's hands as a PHH text (Poker Hand History, https://phh.readthedocs.io): ``phhs(export, names)``.

The input is a game's export (``games.selectors.export.game_export``): its log is exactly what the caller may see,
so the text shows no card the JSON export does not (a card the caller may not know is ``??``, as PHH writes an
unknown card). The output is a ``.phhs`` text: TOML, one table a hand (``[1]``, ``[2]`` ...), each a PHH hand.

What maps onto PHH (README, "Palace Poker as PHH"): the players of a hand in deal order (``p1`` at the dealer's
left, the dealer last, as PHH orders a game without a button), the antes, the stakes, the stacks before and after,
the winnings, the banner and palace deals as ``d dh``, a Stay as a check (``cc``), a Fold or a battle's fold as
``f``, a battle's bet and raises as ``cbr`` (raise *to*: the side's chips in this battle), a call as ``cc``, a
palace shown as ``sm``. Each of those carries, as its PHH commentary, the event it stands for. Every other event
(buys, soldiers drawn, discards, captures, a battle's result, the pot, points) has no PHH action: it is a
standalone commentary (``# p2 buy cost=5``), written from the event catalogue (``events.EVENTS``): the event's
seat, its type, then its fields as ``name=value`` (seats as ``pN``, cards concatenated as PHH writes them).
Palace Poker's own per-hand facts are fields prefixed ``_`` (PHH's user-defined fields).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine import toml_text
from games.engine.event_fields import BOOL, HEX, HEXES, INTS, PER_SEAT, SEAT, SEATS, TEXT
from games.engine.phrasing import Names
from games.engine.poker.events import EVENTS
from games.engine.poker.history import Battle, read_hands
from games.engine.poker.options import parse_options
from games.engine.seeding import SEED_EVENT_TYPES

FORMAT = "palace-phh/1"
"""The version of this mapping (the ``_format`` field): a change a reader of version 1 would misread gets a new one."""
VARIANTS = {"limit": "FPP", "no_limit": "NPP"}
"""The ``variant`` code by betting structure. PHH has no Palace Poker: these codes follow its naming (``F``
fixed-limit, ``N`` no-limit, then the game) and are in no PHH tool's list, so a tool refuses the hand instead of
replaying it under another game's rules."""
LEFT_OUT = SEED_EVENT_TYPES | {"shuffle", "dealer_card", "dealer_chosen", "dealer_draw_restarted"}
"""Events with no place in a hand history: the shuffles and their seeds (the JSON export holds them, for the
verifier) and the draw for the first deal."""
_UNWRITTEN = {INTS, HEX, HEXES}
"""Fields a commentary leaves out: per-seat lists (the hand's stacks and scores are fields of their own) and seeds."""
_SPECS = {spec.type: spec for spec in EVENTS}


@dataclass(slots=True)
class PhhHand:
    """One hand as PHH sees it, built from the log in order. ``order``: the seats in deal order (``p1`` first);
    ``starting``: each player's chips before the antes; ``battle``: chips each side put into the battle under way
    (for ``cbr``, which names a total); ``finishing``, ``winnings``: once the hand is over."""

    number: int
    order: list[int]
    created: str
    starting: list[int]
    antes: list[int]
    banners: list[str]
    rejected: list[list[str]]
    actions: list[str] = field(default_factory=list)
    battle: dict[int, int] = field(default_factory=dict)
    finishing: list[int] | None = None
    winnings: list[int] | None = None
    pot: int | None = None
    award: str | None = None
    points: list[int] | None = None
    scores: list[int] | None = None

    def who(self, seat: int) -> str:
        """``pN`` for a seat in this hand, else ``seatN`` (counted from 1 as PHH counts seats)."""
        return f"p{self.order.index(seat) + 1}" if seat in self.order else f"seat{seat + 1}"

    def index(self, seat: int) -> int:
        """The seat's place in the per-player arrays (``p1`` is 0); raises ``ValueError`` for a seat not dealt in."""
        return self.order.index(seat)


def cards(event: Mapping[str, Any], name: str) -> str:
    """A card group of the event as PHH writes cards (``AhKd``), ``??`` for each card the viewer may not know."""
    codes = (event.get("cards") or {}).get(name) or []
    if not codes:
        return "??" * int((event.get("unseen") or {}).get(name, 0))
    return "".join(code or "??" for code in codes)


def _value(hand: PhhHand, kind: str, item: Any) -> str:
    if kind == SEAT:
        return hand.who(item)
    if kind == SEATS:
        return ",".join(hand.who(seat) for seat in item)
    if kind == PER_SEAT:
        return ",".join(f"{hand.who(int(seat))}:{amount}" for seat, amount in item.items())
    if kind == BOOL:
        return "true" if item else "false"
    if kind == TEXT:
        return f'"{item}"'
    return str(item)


def commentary(hand: PhhHand, event: Mapping[str, Any], *, written: str = "") -> str:
    """The event in words a program can split: its seat (``pN``), its type, then ``name=value`` for each field
    and card group the catalogue lists and the event carries (not the group ``written`` by the action itself),
    and ``<group>_name="..."`` for a hand's name the viewer may know."""
    spec = _SPECS[event["type"]]
    words = [] if event.get("seat") is None else [hand.who(event["seat"])]
    words.append(event["type"])
    names = {item.name for item in spec.fields}
    for item in spec.fields:
        if item.name in event and item.kind not in _UNWRITTEN:
            words.append(f"{item.name}={_value(hand, item.kind, event[item.name])}")
    for group in spec.groups:
        shown = cards(event, group.name)
        if shown and group.name != written:
            words.append(f"{group.name}_cards={shown}" if group.name in names else f"{group.name}={shown}")
    words.extend(f'{group}_name="{name}"' for group, name in (event.get("hand_names") or {}).items())
    return " ".join(words)


def action(hand: PhhHand, event: Mapping[str, Any]) -> str:
    """The event as one PHH action: a standard notation where one fits, with the event as its commentary, else a
    standalone commentary."""
    type_, seat = event["type"], event["seat"]
    actor = "" if seat is None else hand.who(seat)
    head, written = "", ""
    if type_ in ("banner_dealt", "palace_dealt"):
        written = type_.removesuffix("_dealt")
        head = f"d dh {actor} {cards(event, written)}"
    elif type_ == "bet":
        hand.battle = {seat: event["amount"], event["target"]: 0}
        head = f"{actor} cbr {event['amount']}"
    elif type_ in ("call", "raise"):
        hand.battle[seat] = hand.battle.get(seat, 0) + event["cost"]
        head = f"{actor} cc" if type_ == "call" else f"{actor} cbr {hand.battle[seat]}"
    elif type_ == "palace_shown":
        written = "palace"
        head = f"{actor} sm {cards(event, written)}"
    elif type_ == "stay":
        head = f"{actor} cc"
    elif type_ in ("fold", "battle_fold"):
        head = f"{actor} f"
    said = commentary(hand, event, written=written)
    return f"{head} # {said}" if head else f"# {said}"


def _read(hand: PhhHand, event: Mapping[str, Any]) -> None:
    """One event of the hand: its facts, and its action (an ante is the ``antes`` field, not an action)."""
    type_, seat = event["type"], event["seat"]
    if type_ == "ante":
        hand.antes[hand.index(seat)] = event["amount"]
        return
    if type_ == "banner_dealt":
        hand.banners[hand.index(seat)] = cards(event, "banner")
    elif type_ == "banner_rejected":
        hand.rejected[hand.index(seat)].append(cards(event, "card"))
    elif type_ == "pot_awarded":
        hand.pot, hand.award = event["pot"], event["reason"]
        hand.winnings = [event["amounts"].get(str(seat), 0) for seat in hand.order]
    elif type_ == "points_scored" and seat is not None:
        hand.points = [event["points"] if player == seat else 0 for player in hand.order]
    elif type_ == "hand_ended":
        hand.finishing = [event["stacks"][player] for player in hand.order]
        if hand.winnings is None:
            hand.winnings = [0] * len(hand.order)
        if "scores" in event:
            hand.scores = [event["scores"][player] for player in hand.order]
            hand.points = hand.points or [0] * len(hand.order)  # an absolute tie: nobody scores
    hand.actions.append(action(hand, event))


def phh_hands(export: Mapping[str, Any]) -> list[PhhHand]:
    """The hands of the export's log, in order (the last may be going on). A hand runs from ``hand_started`` to
    the next; what is logged after its ``hand_ended`` (a player leaving, the match's end) belongs to it."""
    stacks = [parse_options(export["options"], export["seat_count"]).starting_stack] * export["seat_count"]
    hands: list[PhhHand] = []
    for entry in export["log"]:
        if "action" not in entry:
            continue
        for event in entry.get("events", ()):
            type_ = event["type"]
            if type_ in LEFT_OUT:
                continue
            if type_ == "hand_started":
                order = list(event["seats"])
                hands.append(
                    PhhHand(
                        number=event["hand"],
                        order=order,
                        created=entry["created"],
                        starting=[stacks[seat] for seat in order],
                        antes=[0] * len(order),
                        banners=["??"] * len(order),
                        rejected=[[] for _ in order],
                    )
                )
            elif hands:
                _read(hands[-1], event)
                if type_ == "hand_ended":
                    stacks = list(event["stacks"])
    return hands


def _battle(hand: PhhHand, battle: Battle) -> dict[str, Any]:
    """A battle as an inline table: its sides, the bet, the raises, how it ended, the cards captured, and each
    side's hand where the caller may know it (``games.engine.poker.history``)."""
    return {
        "attacker": hand.who(battle.attacker.seat.number),
        "defender": hand.who(battle.defender.seat.number),
        "bet": battle.bet,
        "raises": battle.raises,
        "outcome": battle.outcome,
        "winner": None if battle.winner is None else hand.who(battle.winner.number),
        "captured": "".join(battle.captured),
        "attacker_hand": battle.attacker.hand,
        "defender_hand": battle.defender.hand,
    }


def _viewer(viewer: Any) -> str:
    return f"seat {viewer + 1}" if isinstance(viewer, int) else str(viewer)


def hand_fields(export: Mapping[str, Any], hand: PhhHand, names: Names, battles: list[Battle]) -> dict[str, Any]:
    """The PHH fields of one hand, standard ones first (README, "Palace Poker as PHH", has the table)."""
    # The engine's reading of the stored options (its defaults for any a game stored earlier lacks).
    options = parse_options(export["options"], export["seat_count"])
    limit = options.betting == "limit"
    count = len(hand.order)
    when = datetime.datetime.fromisoformat(hand.created.replace("Z", "+00:00"))
    return {
        "variant": VARIANTS[options.betting],
        "antes": hand.antes,
        "blinds_or_straddles": [0] * count,
        "small_bet": options.small_bet if limit else None,
        "big_bet": options.big_bet if limit else None,
        "min_bet": None if limit else options.small_bet,
        "starting_stacks": hand.starting,
        "actions": hand.actions,
        "table": export["id"],
        "hand": hand.number,
        "seat_count": export["seat_count"],
        "seats": [seat + 1 for seat in hand.order],
        "players": [names(seat) for seat in hand.order],
        "finishing_stacks": hand.finishing,
        "winnings": hand.winnings,
        "time": when.time().replace(microsecond=0),
        "time_zone": "UTC",
        "day": when.day,
        "month": when.month,
        "year": when.year,
        "_variant": "palace-poker",
        "_format": FORMAT,
        "_viewer": _viewer(export["viewer"]),
        "_options": export["options"],
        "_big_bet": None if limit else options.big_bet,
        "_banners": hand.banners,
        "_banners_rejected": hand.rejected,
        "_battles": [_battle(hand, battle) for battle in battles],
        "_pot": hand.pot,
        "_award": hand.award,
        "_points_scored": hand.points,
        "_scores": hand.scores,
    }


def phhs(export: Mapping[str, Any], names: Names) -> str:
    """The export of a Palace Poker game as a ``.phhs`` text: a heading in TOML comments, then one table a hand
    (``[1]`` ...; none before the first deal). ``names``: each seat's name (the ``players`` field)."""
    viewer = export["viewer"]
    seen = "as staff see it" if viewer == "staff" else f"as {_viewer(viewer)} may see it ('??': a hidden card)"
    if export.get("complete") and viewer != "staff":
        seen = "whole (the match is over and every seed revealed)"
    lines = [
        f"# Palace Poker, game {export['id']}, as PHH (Poker Hand History, https://phh.readthedocs.io), {FORMAT}.",
        f"# One table a hand, from the game's log {seen}.",
        "# Fields prefixed _ are Palace Poker's own; its moves that PHH cannot write are commentaries ('# ...').",
        "",
    ]
    battles = {
        hand.number: hand.battles
        for hand in read_hands(export["log"], names, wild_royals=bool(export["options"].get("kings_in_the_house")))
    }
    for hand in phh_hands(export):
        fields = hand_fields(export, hand, names, battles.get(hand.number, []))
        lines.append(toml_text.table(str(hand.number), fields, multiline=("actions",)))
    return "\n".join(lines)
