"""Answers in a bet battle (Fold, Call, Raise) and how a called battle is decided.

Source: palace-poker.txt, "Bet (or battle)", "Fold", "Call", "Banner Suits", "Ties", "Raise";
palace-poker-hindi.txt agrees on these sections.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engine.errors import EngineCode, IllegalAction
from games.engine.evaluator import HandValue
from games.engine.poker.context import Ctx, private, public
from games.engine.poker.ending import award
from games.engine.poker.play import after_elimination, bet
from games.engine.poker.state import Battle


def raise_minimum(t: Any) -> int:
    """The smallest raise (chips beyond the call) the responder may make now (``t``: a state or draft).

    Source: palace-poker.txt, "Raise": the defender's first raise is one big bet, or one small bet
    if he has no soldiers ("double it to two small bets"); in limit every later raise is one big
    bet (the Brad/Frank example: 5, then 10, then 10). No-limit re-raises "can be any amount the
    re-raiser wants" (its third bullet), so the smallest is one chip: a raise of nothing would be a
    call. With
    ``no_limit_first_raise="big_bet"`` a no-limit first raise is at least the big bet even without
    soldiers (palace-poker-hindi.txt, "Raise").
    """
    battle = t.battle
    options = t.options
    if battle.raises == 0:
        if options.betting == "no_limit" and options.no_limit_first_raise == "big_bet":
            return options.big_bet
        return options.big_bet if t.soldiers[battle.defender] else options.small_bet
    return options.big_bet if options.betting == "limit" else 1


def attack(ctx: Ctx, seat: int, target: int | None, amount: int | None) -> None:
    """Bet against ``target`` (``play.bet``: the battle starts); under ``points`` it is decided at once.

    Source: palace-poker.txt, "Palace Poker without money": the defender looks at the attacker's
    cards and declares who is out, with no calling or raising. So nobody answers the bet (no fold,
    call or raise): the hands are compared as in a called battle with the defender in the caller's
    place; he sees the attacker's palace cards first, and the attacker sees his only if the
    defender wins ("Call"). Raises the ``IllegalAction`` codes of ``play.bet``.
    """
    bet(ctx, seat, target, amount)
    if ctx.free():
        _decide(ctx, caller=ctx.t.battle.defender)


def fold(ctx: Ctx, seat: int) -> None:
    """``seat`` gives up the battle and is out of the hand: the responder, or either side when he resigns.

    An uncalled raise goes back to whoever made it, the side that is not to respond (palace-poker.txt,
    "Raise": an attacker who folds to a raise leaves the defender's raise with the defender); the
    attacker's bet stays in the pot. The winner takes the loser's banner and soldiers as soldiers.
    """
    battle = ctx.t.battle
    winner = battle.opponent(seat)
    ctx.emit("battle_fold", seat, opponent=winner)
    ctx.refund(battle.opponent(battle.responder), battle.uncalled, reason="uncalled_raise")
    _lose(ctx, seat, winner, by="fold")


def call(ctx: Ctx, seat: int) -> None:
    """Pay what is owed (all of one's stack if short) and decide the battle.

    A responder short of the call may call with all he has (the text is silent; the battle is for
    elimination, not for a side pot): the part of a raise he cannot meet goes back to the raiser.
    """
    t = ctx.t
    battle = t.battle
    cost = min(battle.owed, t.stacks[seat])
    ctx.pay(seat, cost)
    t.battle = battle = _with_put_in(battle, seat, cost)
    ctx.emit("call", seat, cost=cost, all_in=cost < battle.owed)
    if cost < battle.owed and battle.uncalled:
        ctx.refund(battle.opponent(seat), min(battle.uncalled, battle.owed - cost), reason="uncalled_raise")
    _decide(ctx, caller=seat)


def raise_(ctx: Ctx, seat: int, amount: int | None) -> None:
    """Meet what is owed and add ``amount`` chips (the raise); the other side answers next.

    Limit raises are fixed (``amount`` optional); no-limit raises are at least ``raise_minimum``.
    At most ``max_raises`` raises per battle (palace-poker.txt, "Raise": three). Raises
    ``IllegalAction`` ``raise_cap``, ``invalid_amount``, ``insufficient_chips``.
    """
    t = ctx.t
    battle = t.battle
    if t.options.points:
        raise IllegalAction(EngineCode.ACTION_NOT_ALLOWED, "without money the defender calls or folds; nobody raises")
    if battle.raises >= t.options.max_raises:
        raise IllegalAction(EngineCode.RAISE_CAP, f"no more than {t.options.max_raises} raises in a battle")
    amount = ctx.chosen_amount(amount, raise_minimum(t), what="raise")
    cost = battle.owed + amount
    if cost > t.stacks[seat]:
        raise IllegalAction(
            EngineCode.INSUFFICIENT_CHIPS, f"calling and raising costs {cost} chips; you have {t.stacks[seat]}"
        )
    ctx.pay(seat, cost)
    ctx.emit("raise", seat, cost=cost, amount=amount)
    t.battle = replace(
        _with_put_in(battle, seat, cost),
        responder=battle.opponent(seat),
        owed=amount,
        uncalled=amount,
        raises=battle.raises + 1,
    )


def _with_put_in(battle: Battle, seat: int, chips: int) -> Battle:
    attacker, defender = battle.put_in
    if seat == battle.attacker:
        return replace(battle, put_in=(attacker + chips, defender))
    return replace(battle, put_in=(attacker, defender + chips))


def _decide(ctx: Ctx, *, caller: int) -> None:
    """Compare the two hands, each without the opponent's banner suit (four of a kind counts whole).

    Source: palace-poker.txt, "Call" (the caller sees the other's palace cards first; the other
    sees the caller's only if the caller wins), "Banner Suits" and "Ties" (most own-suit cards in
    the five-card hand wins; still tied, both are out, or they split the pot if they were the last
    two). On a complete tie each has shown the other his cards (the text is silent).
    """
    t = ctx.t
    battle = t.battle
    other = battle.opponent(caller)
    hands = {seat: ctx.hand_of(seat, exclude_suit=t.banners[battle.opponent(seat)].suit) for seat in (caller, other)}
    _show(ctx, other, to=caller, hand=hands[other])
    if hands[caller].key == hands[other].key:
        _show(ctx, caller, to=other, hand=hands[caller])
        _tie(ctx, battle.attacker, battle.defender)
        return
    winner, loser = (caller, other) if hands[caller].key > hands[other].key else (other, caller)
    if winner == caller:
        _show(ctx, caller, to=other, hand=hands[caller])
    ctx.emit("battle_won", winner, loser=loser, by="showdown")
    _lose(ctx, loser, winner, by="showdown")


def _show(ctx: Ctx, owner: int, *, to: int, hand: HandValue) -> None:
    """``owner`` shows ``to`` his palace cards, with the hand they make in this battle: its name and its (up
    to) five cards, the evaluator's (``hand``), as secret as the palace (its other cards are face up)."""
    t = ctx.t
    t.known[owner].add(to)
    seats = {owner, to}
    cards = {"palace": private(t.palace[owner], seats, hand=hand.name), "hand": private(hand.cards, seats)}
    ctx.emit("palace_shown", owner, to=to, cards=cards)


def _lose(ctx: Ctx, loser: int, winner: int, *, by: str) -> None:
    t = ctx.t
    t.discards.extend(t.palace[loser])
    captured = [t.banners[loser], *t.soldiers[loser]]
    t.soldiers[winner].extend(captured)
    t.palace[loser], t.soldiers[loser], t.banners[loser] = [], [], None
    t.in_hand[loser] = False
    t.battle = None
    ctx.emit("captured", winner, loser=loser, by=by, cards={"cards": public(captured)})
    after_elimination(ctx, winner)


def _tie(ctx: Ctx, attacker: int, defender: int) -> None:
    t = ctx.t
    t.battle = None
    if len(ctx.players_in_hand()) == 2:
        ctx.emit("battle_tied", attacker, defender=defender, outcome="split")
        award(ctx, [attacker, defender], reason="battle_tie")
        return
    ctx.emit("battle_tied", attacker, defender=defender, outcome="both_out")
    for seat in (attacker, defender):
        t.discards.extend([*t.palace[seat], t.banners[seat], *t.soldiers[seat]])
        t.palace[seat], t.soldiers[seat], t.banners[seat] = [], [], None
        t.in_hand[seat] = False
    after_elimination(ctx, None)
