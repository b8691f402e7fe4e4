"""What an opponent's last decision says about his hidden palace cards, for the Palace Poker search.

A view carries no history, but heads-up one fact about the opponent's last decision can be read from
it (palace-poker.txt, "Bet (or battle)", "Raise", "Stay"):

* on the seat's turn, unless it is the hand's first (the seat is first to act and nothing has been
  bought yet), the opponent had a turn and did not attack: a battle between the last two ends the hand
  when it is decided;
* answering a battle with no raise yet, the opponent attacked; after a raise, he made it.

The search's opponent model is the ``basic`` policy (``games.engine.bots.poker_basic``): it attacks when
it wins the battle ``ATTACK_RATE`` of the time (``POINTS_ATTACK_RATE`` under ``points``) and raises from
``RAISE_RATE``. ``Reading`` is that fact as a range of the opponent's battle rate against the seat, the
rate he would have reckoned from his own cards and what the seat shows (the seat's palace cards
unknown to him); ``likelihood`` weighs one determinized deal by it: 1 inside the range, ``LEAK``
outside (other players bluff and slow-play; a hard cut would trust the model too far).

What this leaves out: the opponent's soldiers when he decided may differ from now (a buy follows the
attack check), and at a table of three or more nothing is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.bots.poker_basic import ATTACK_RATE, POINTS_ATTACK_RATE, RAISE_RATE, RAISE_RATE_PER_RAISE
from games.engine.bots.poker_reading import Player, Table, beat_rate
from games.engine.cards import FULL_DECK, Card
from games.engine.poker.state import BATTLE, TURN, PokerState

LEAK = 0.15
"""The weight of a deal that contradicts the reading (a bluff or a slow play)."""
SAMPLES = 16
"""Completions of the seat's own palace cards in the opponent's estimate."""
PALACE_CARDS = 3


@dataclass(frozen=True, slots=True)
class Reading:
    """The opponent at ``seat`` reckoned his battle rate against the viewer in ``[low, high)``."""

    seat: int
    low: float
    high: float


def read_opponent(view: Mapping[str, Any], me: int) -> Reading | None:
    """The reading of a heads-up ``view`` for the deciding seat ``me`` (see the module docstring), or
    ``None`` when the view says nothing (more players, the hand's first turn, a discard step)."""
    others = [row for row in view["seats"] if row["in_hand"] and row["seat"] != me]
    if len(others) != 1 or not others[0]["palace"] or others[0]["palace"][0] is not None:
        return None
    opponent = others[0]["seat"]
    battle = view["battle"]
    if view["step"] == BATTLE and battle is not None and battle["responder"] == me:
        if battle["raises"] == 0:
            return Reading(opponent, ATTACK_RATE, 1.01) if battle["attacker"] == opponent else None
        return Reading(opponent, RAISE_RATE + RAISE_RATE_PER_RAISE * (battle["raises"] - 1), 1.01)
    if view["step"] != TURN or battle is not None or _first_turn(view, me):
        return None
    return Reading(opponent, 0.0, POINTS_ATTACK_RATE if view["options"].get("points") else ATTACK_RATE)


def _first_turn(view: Mapping[str, Any], me: int) -> bool:
    """Whether this is the hand's first turn: nobody has bought (no soldiers, no discards, the stock as
    dealt) and the seat is first to act (heads-up the player who is not the dealer)."""
    rows = [row for row in view["seats"] if row["banner"] is not None]
    if view["dealer"] == me or view["discard_size"] or any(row["soldiers"] for row in rows):
        return False
    dealt = len(rows) * (1 + PALACE_CARDS) + len(view["set_aside"])
    return view["stock_size"] == len(FULL_DECK) - dealt


def likelihood(reading: Reading | None, state: PokerState, me: int) -> float:
    """How well the deal in ``state`` fits ``reading``: 1 when the opponent's battle rate against ``me``,
    reckoned from his cards in ``state``, lies in the reading's range, else ``LEAK``."""
    if reading is None:
        return 1.0
    rate = battle_rate(state, reading.seat, me)
    return 1.0 if reading.low <= rate < reading.high else LEAK


def battle_rate(state: PokerState, seat: int, against: int) -> float:
    """``seat``'s estimate (``poker_reading.beat_rate``, as ``basic`` reckons it) of winning a battle
    against ``against``, from his own cards in ``state`` and ``against``'s face-up cards."""
    face_up: set[Card] = set(state.set_aside)
    face_up.update(banner for banner in state.banners if banner is not None)
    for soldiers in state.soldiers:
        face_up.update(soldiers)
    own = state.palace[seat]
    unseen = tuple(card for card in FULL_DECK if card not in face_up and card not in own)
    me = _player(state, seat, known_palace=own)
    them = _player(state, against, known_palace=())
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
    return beat_rate(table, them, battle=True, samples=SAMPLES)


def _player(state: PokerState, seat: int, *, known_palace: tuple[Card, ...]) -> Player:
    banner = state.banners[seat]
    soldiers = state.soldiers[seat]
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
