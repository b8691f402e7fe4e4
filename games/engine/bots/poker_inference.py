"""What an opponent's decisions say about his hidden palace cards, for the Palace Poker search.

A view carries no history, but heads-up a few facts about the opponent's decisions in this hand can be
read from it (palace-poker.txt, "Bet (or battle)", "Raise", "Stay", "Winning the Pot"): a battle
between the last two ends the hand when it is decided, so while the hand goes on nobody has attacked
yet, and

* on the seat's turn, unless it is the hand's first (the seat is first to act and nothing has been
  bought yet), the opponent had at least one turn, his first among them, and attacked on none;
* answering a battle with no raise yet, the opponent attacked; after a raise, he made it.

The search's opponent model is the ``basic`` policy (``games.engine.bots.poker_basic``): it attacks when
it wins the battle ``ATTACK_RATE`` of the time (``POINTS_ATTACK_RATE`` under ``points``; more sure,
``ATTACK_RATE_COSTLY``, when the bet is above a third of its stack) and raises from ``RAISE_RATE``.
Each fact is a ``Constraint``: a range of the opponent's battle rate against the seat, the rate he would
have reckoned from his own cards and what the seat showed (the seat's palace cards unknown to him).
Where the cards shown then are not all known now, the constraint is reckoned from a subset of his cards
and a superset of the seat's (a rate no higher than his was), so that a true deal never breaks it:

* his last turn without an attack: his soldiers less the last (he may have bought it after deciding),
  the seat's soldiers now (it has not acted since);
* his first turn: no soldiers of his; the seat's banner alone if he was first to act, else its
  soldiers now.

``accepts`` keeps a determinized deal that breaks none, and one that breaks some with chance ``LEAK``
per broken one (other players bluff and slow-play; a hard cut would trust the model too far). At a table of three
or more nothing is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.bots.base import RandomSource
from games.engine.bots.poker_basic import (
    ATTACK_RATE,
    ATTACK_RATE_COSTLY,
    POINTS_ATTACK_RATE,
    RAISE_RATE,
    RAISE_RATE_PER_RAISE,
)
from games.engine.bots.poker_reading import Player, Table, beat_rate, samples_per_opponent
from games.engine.cards import FULL_DECK, Card
from games.engine.poker.state import BATTLE, TURN, PokerState

LEAK = 0.05
"""The weight of a deal for each constraint it breaks (a bluff, a slow play, another policy)."""
PALACE_CARDS = 3


@dataclass(frozen=True, slots=True)
class Constraint:
    """The opponent reckoned his battle rate against the viewer in ``[low, high)`` with ``his``
    soldiers and the viewer's ``mine`` (``None``: the viewer's soldiers now); ``attack``: the range's
    upper end is the attack threshold, raised to ``ATTACK_RATE_COSTLY`` when his bet then was above a
    third of his stack."""

    low: float
    high: float
    his: tuple[Card, ...]
    mine: tuple[Card, ...] | None = None
    attack: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    """What the view says of the opponent at ``seat``: each constraint his cards should meet."""

    seat: int
    constraints: tuple[Constraint, ...]


def read_opponent(view: Mapping[str, Any], me: int) -> Reading | None:
    """The reading of a heads-up ``view`` for the deciding seat ``me`` (see the module docstring), or
    ``None`` when the view says nothing (more players, the hand's first turn, a discard step)."""
    others = [row for row in view["seats"] if row["in_hand"] and row["seat"] != me]
    if len(others) != 1 or not others[0]["palace"] or others[0]["palace"][0] is not None:
        return None
    row = others[0]
    his = tuple(Card.parse(code) for code in row["soldiers"])
    battle = view["battle"]
    if view["step"] == BATTLE and battle is not None and battle["responder"] == me:
        if battle["raises"] == 0:
            if battle["attacker"] != row["seat"]:
                return None
            return Reading(row["seat"], (Constraint(ATTACK_RATE, 1.01, his),))
        low = RAISE_RATE + RAISE_RATE_PER_RAISE * (battle["raises"] - 1)
        return Reading(row["seat"], (Constraint(low, 1.01, his),))
    if view["step"] != TURN or battle is not None or _first_turn(view, me):
        return None
    threshold = POINTS_ATTACK_RATE if view["options"].get("points") else ATTACK_RATE
    first_mine: tuple[Card, ...] | None = () if view["dealer"] == me else None
    return Reading(
        row["seat"],
        (
            Constraint(0.0, threshold, his[:-1], attack=True),
            Constraint(0.0, threshold, (), first_mine, attack=True),
        ),
    )


def _first_turn(view: Mapping[str, Any], me: int) -> bool:
    """Whether this is the hand's first turn: nobody has bought (no soldiers, no discards, the stock as
    dealt) and the seat is first to act (heads-up the player who is not the dealer)."""
    rows = [row for row in view["seats"] if row["banner"] is not None]
    if view["dealer"] == me or view["discard_size"] or any(row["soldiers"] for row in rows):
        return False
    return view["stock_size"] == stock_as_dealt(view)


def stock_as_dealt(view: Mapping[str, Any]) -> int:
    """The cards the hand's deal left in the stock: the deck less each player's banner and palace cards and the
    banner deal's cards set aside (palace-poker.txt, "The Deal")."""
    rows = [row for row in view["seats"] if row["banner"] is not None]
    return len(FULL_DECK) - len(rows) * (1 + PALACE_CARDS) - len(view["set_aside"])


def accepts(reading: Reading | None, state: PokerState, me: int, rng: RandomSource) -> bool:
    """Whether to keep the deal in ``state`` (rejection sampling by ``reading``): for each constraint
    that the opponent's battle rate against ``me``, reckoned from his cards in ``state``, breaks, the
    deal survives with chance ``LEAK`` (checked in turn, so a rejected deal costs no more reckoning)."""
    if reading is None:
        return True
    for constraint in reading.constraints:
        if not _meets(constraint, state, reading.seat, me) and rng.random() >= LEAK:
            return False
    return True


def _meets(constraint: Constraint, state: PokerState, seat: int, me: int) -> bool:
    rate = battle_rate(state, seat, me, his=constraint.his, mine=constraint.mine)
    high = constraint.high
    options = state.options
    if constraint.attack and not options.points:
        if (len(constraint.his) + 1) * options.small_bet * 3 > state.stacks[seat]:
            high = max(high, ATTACK_RATE_COSTLY)
    return constraint.low <= rate < high


def battle_rate(
    state: PokerState,
    seat: int,
    against: int,
    *,
    his: tuple[Card, ...] | None = None,
    mine: tuple[Card, ...] | None = None,
) -> float:
    """``seat``'s estimate (``poker_reading.beat_rate``, as ``basic`` reckons it) of winning a battle
    against ``against``, from his own cards in ``state`` and ``against``'s face-up cards; ``his`` and
    ``mine``: the soldiers of ``seat`` and of ``against`` to reckon with (``None``: those in ``state``)."""
    soldiers = list(state.soldiers)
    if his is not None:
        soldiers[seat] = his
    if mine is not None:
        soldiers[against] = mine
    face_up: set[Card] = set(state.set_aside)
    face_up.update(banner for banner in state.banners if banner is not None)
    for cards in state.soldiers:
        face_up.update(cards)
    own = state.palace[seat]
    unseen = tuple(card for card in FULL_DECK if card not in face_up and card not in own)
    me = _player(state, seat, soldiers[seat], known_palace=own)
    them = _player(state, against, soldiers[against], known_palace=())
    table = Table(
        me=me,
        palace=own,
        opponents=(them,),
        unseen=unseen,
        pot=state.pot,
        small_bet=state.options.small_bet,
        big_bet=state.options.big_bet,
        betting=state.options.betting,
        wild=state.options.kings_in_the_house,
        points=state.options.points,
    )
    return beat_rate(table, them, battle=True, samples=samples_per_opponent(1))


def _player(state: PokerState, seat: int, soldiers: tuple[Card, ...], *, known_palace: tuple[Card, ...]) -> Player:
    banner = state.banners[seat]
    if banner is None:
        raise ValueError(f"seat {seat} is not in the hand")
    return Player(
        seat=seat,
        stack=state.stacks[seat],
        banner=banner,
        soldiers=soldiers,
        known=(*known_palace, banner, *soldiers),
        hidden=len(state.palace[seat]) - len(known_palace),
        palace=known_palace,
    )
