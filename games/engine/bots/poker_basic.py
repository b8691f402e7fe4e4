"""A sensible Palace Poker policy read from one seat's view (``games.engine.bots.base``).

Rules relied on (palace-poker.txt): "Buy" (a small bet for a soldier, then keep at most five),
"Discard", "Bet (or battle)" (the bet is one small bet per face-up card, a minimum in no-limit;
never against one's own banner suit), "Banner Suits", "Call" and "Raise" (the battle's answers and
what they cost), "Stay" (a round with no chips put in ends in a showdown), "Winning the Pot" (in a
battle between the last two the winner takes the pot).

The policy, from estimates of ``poker_reading`` (the share of the opponent's possible hidden palace
cards that the bot's hand beats, in a battle or at a showdown):

* On its turn: attack the opponent it beats most often when that rate reaches ``ATTACK_RATE``
  (higher with more players in the hand or when the bet is a large part of its stack); in no-limit
  bet more with a stronger hand. Otherwise buy when a soldier is cheap for its stack and its hand
  is middling or drawing; otherwise discard soldiers that do nothing for its hand; otherwise stay.
  It never folds on its turn (staying is free).
* In a battle: raise when very likely ahead, call when the rate beats the price (what the call
  costs against what it may win) plus a margin for the strength that an attack or raise shows,
  fold otherwise.
* In a discard step: keep the soldiers that make its hand or a draw, at most five.

Variations: under ``kings_in_the_house`` every estimate counts wild royals (``poker_reading.rank_of``).
Under ``points`` a bet is decided at once (nobody answers it) and buying is free, so it attacks from
a lower rate (``POINTS_ATTACK_RATE``) and otherwise buys while a soldier fits; the last player left
discards every soldier in the discard step before his score, 10 minus the soldiers he keeps
(palace-poker.txt, "Palace Poker without money"). Under ``two_left_must_battle``, where one of the
last two may not stay or discard on his turn (palace-poker-hindi.txt, "जीतना"), it buys when it
would anyway and otherwise bets the minimum against the other rather than fold.

It never takes ``buy_discard`` (``open_market``): the discard pile is face down, so that is an
unseen card for a big bet where ``buy`` gives one for a small bet (both free under ``points``),
and ``buy`` is offered whenever ``buy_discard`` is (the stock is rebuilt from the discard pile
when it runs out).

Deterministic: the same view gives the same action; ``rng`` only breaks exact ties between targets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.bots.base import ActionJSON, RandomSource, acting_seat, legal_by_type
from games.engine.bots.poker_reading import (
    Table,
    beat_rate,
    draw_cards,
    read_table,
    samples_per_opponent,
    showdown_rate,
    soldiers_to_discard,
    usable_suits,
)
from games.engine.poker.options import MAX_SOLDIERS

ATTACK_RATE = 0.62
"""Heads-up, attack when the battle is won this often; ``ATTACK_RATE_PER_PLAYER`` more per extra player."""
ATTACK_RATE_PER_PLAYER = 0.04
ATTACK_RATE_COSTLY = 0.75
"""Attack with a bet above a third of the stack only this sure."""
BIG_BET_RATE = 0.75
"""No-limit: bet the pot from this rate, twice the pot from ``HUGE_BET_RATE``."""
HUGE_BET_RATE = 0.88
RAISE_RATE = 0.78
"""Raise a battle won this often, ``RAISE_RATE_PER_RAISE`` more per raise already made."""
RAISE_RATE_PER_RAISE = 0.06
CALL_MARGIN = 0.05
"""Beyond the price, the rate a call needs: an attack shows strength; ``CALL_MARGIN_PER_RAISE`` more per raise."""
CALL_MARGIN_PER_RAISE = 0.05
BUY_STACK_BETS = 10
"""Buy only with at least this many small bets in the stack."""
BUY_MAX_RATE = 0.6
"""Buy while the showdown rate is below this (a strong hand stops paying for cards) and at least
``BUY_MIN_RATE``, or lower with a draw."""
BUY_MIN_RATE = 0.3
BUY_MAX_SOLDIERS = 3
"""Buy only with at most this many soldiers already (each raises the cost of battles)."""
POINTS_ATTACK_RATE = 0.4
"""Under ``points`` an attack costs nothing and nobody answers it: attack when the battle is won at least
this often (``ATTACK_RATE_PER_PLAYER`` more per extra player), where chips would ask ``ATTACK_RATE``.
Below even odds because an opponent who had a turn and did not attack is likely weaker than the uniform
completions of ``beat_rate`` say, and waiting hands him the first shot. Measured against the five-line
heuristic (benchmarks/README.md, "Arena", 1,000 matches each): 0.5 -> 48.0%, 0.45 -> 49.1%, 0.4 -> 51.9%
(buying as before), 0.38 / 0.42 below 0.4 with the buying below."""
POINTS_BUY_SOLDIERS = 5
"""Under ``points`` a soldier is free (it costs a point only if still held at a showdown win; a battle's
winner discards them all before his score): buy while fewer than this many (the most a seat may hold)
and no attack is worth it. Measured as above with ``POINTS_ATTACK_RATE`` 0.4: buying only while the
showdown looked lost (< 0.4) with under three soldiers 51.9%; under 0.8 with five 59.4%; always 61.4%."""


class PokerBasicBot:
    """The ``"basic"`` Palace Poker bot (see the module docstring)."""

    name = "basic"

    def choose(self, view: Mapping[str, Any], rng: RandomSource) -> ActionJSON:
        seat = acting_seat(view)
        legal = legal_by_type(view)
        table = read_table(view, seat)
        if view["step"] == "discard":
            scoring = bool(view["options"].get("points")) and not table.opponents
            return _discard_step(table, legal["discard"], scoring=scoring)
        if view["battle"] is not None:
            return _answer_battle(table, view["battle"], legal)
        return _turn(table, legal, rng)


def _players_in(table: Table) -> int:
    return len(table.opponents) + 1


def _turn(table: Table, legal: dict[str, dict[str, Any]], rng: RandomSource) -> ActionJSON:
    """Bet, buy, discard or stay (palace-poker.txt, "The Play"); when staying is not offered (the
    last two must battle, palace-poker-hindi.txt, "जीतना"), the minimum bet, else fold."""
    attack = _attack(table, legal.get("bet"), rng)
    if attack is not None:
        return attack
    if "buy" in legal and _wants_to_buy(table):
        return {"type": "buy"}
    if "discard" in legal:
        useless = soldiers_to_discard(table, at_least=0, keep_at_most=MAX_SOLDIERS)
        if useless:
            return {"type": "discard", "cards": [card.code for card in useless]}
    if "stay" in legal:
        return {"type": "stay"}
    if "bet" in legal:
        return {"type": "bet", "target": legal["bet"]["targets"][0]["seat"]}
    return {"type": "fold"}


def _attack(table: Table, bet: dict[str, Any] | None, rng: RandomSource) -> ActionJSON | None:
    """The bet against the opponent beaten most often, if that rate is high enough."""
    if bet is None:
        return None
    samples = samples_per_opponent(len(table.opponents))
    rates = {
        target["seat"]: beat_rate(table, table.opponent(target["seat"]), battle=True, samples=samples)
        for target in bet["targets"]
    }
    best = max(rates.values())
    target = rng.choice(sorted(seat for seat, rate in rates.items() if rate == best))
    base = POINTS_ATTACK_RATE if table.points else ATTACK_RATE
    needed = base + ATTACK_RATE_PER_PLAYER * (_players_in(table) - 2)
    if bet["cost"] * 3 > table.me.stack:
        needed = max(needed, ATTACK_RATE_COSTLY)
    if best < needed:
        return None
    action: ActionJSON = {"type": "bet", "target": target}
    if bet["max_amount"] > bet["min_amount"]:
        action["amount"] = _no_limit_size(table, best, bet["min_amount"], bet["max_amount"])
    return action


def _no_limit_size(table: Table, rate: float, minimum: int, maximum: int) -> int:
    """No-limit bet or raise: the minimum, the pot from ``BIG_BET_RATE``, twice it from ``HUGE_BET_RATE``;
    never more than half the stack below ``HUGE_BET_RATE``."""
    if rate >= HUGE_BET_RATE:
        amount = 2 * table.pot
    elif rate >= BIG_BET_RATE:
        amount = min(table.pot, table.me.stack // 2)
    else:
        amount = minimum
    return max(minimum, min(maximum, amount))


def _wants_to_buy(table: Table) -> bool:
    """A soldier is worth a small bet when the stack is deep, the soldiers few, and the hand
    neither strong already nor hopeless (unless drawing). Under ``points`` it is free: buy while a
    soldier fits (``POINTS_BUY_SOLDIERS``)."""
    if table.points:
        return len(table.me.soldiers) < POINTS_BUY_SOLDIERS
    if table.me.stack < BUY_STACK_BETS * table.small_bet or len(table.me.soldiers) > BUY_MAX_SOLDIERS:
        return False
    rate = showdown_rate(table)
    if rate >= BUY_MAX_RATE:
        return False
    return rate >= BUY_MIN_RATE or bool(draw_cards(table.me.known, usable_suits(table)))


def _answer_battle(table: Table, battle: Mapping[str, Any], legal: dict[str, dict[str, Any]]) -> ActionJSON:
    """Raise, call or fold (palace-poker.txt, "Call", "Raise"; "Winning the Pot" for the prize).

    The prize of a won battle is the pot when it is between the last two; with more players in, the
    pot stays in play, so only a share counts (one per opponent left after the battle).
    """
    opponent_seat = battle["attacker"] if battle["defender"] == table.me.seat else battle["defender"]
    rate = beat_rate(table, table.opponent(opponent_seat), battle=True)
    raises = battle["raises"]
    raise_ = legal.get("raise")
    if raise_ is not None and rate >= RAISE_RATE + RAISE_RATE_PER_RAISE * raises:
        action: ActionJSON = {"type": "raise"}
        if raise_["max_amount"] > raise_["min_amount"]:
            action["amount"] = _no_limit_size(table, rate, raise_["min_amount"], raise_["max_amount"])
        return action
    cost = legal["call"]["cost"]
    share = 1.0 / (_players_in(table) - 1)
    # A free call (an empty stack, or a battle stored under ``points`` before bets there were
    # decided at once) has no price.
    price = cost / ((table.pot + cost) * share) if cost else 0.0
    if rate >= price + CALL_MARGIN + CALL_MARGIN_PER_RAISE * raises:
        return {"type": "call"}
    return {"type": "fold"}


def _discard_step(table: Table, discard: Mapping[str, Any], *, scoring: bool) -> ActionJSON:
    """Keep the soldiers that make the hand or a draw, at most five (palace-poker.txt, "Buy", "Fold");
    ``scoring``: the hand is scored right after, 10 minus the soldiers kept, so keep none
    (palace-poker.txt, "Palace Poker without money")."""
    if scoring:
        cards = list(table.me.soldiers)
    else:
        cards = soldiers_to_discard(table, at_least=discard["min_cards"], keep_at_most=MAX_SOLDIERS)
    action: ActionJSON = {"type": "discard"}
    if cards:
        action["cards"] = [card.code for card in cards]
    return action
