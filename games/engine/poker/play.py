"""A player's turn: Buy, Discard, Bet (start a battle), Stay, Fold, and the discard step.

Source: palace-poker.txt, "The Play", "Buy", "Discard", "Bet (or battle)", "Stay", "Fold";
palace-poker-hindi.txt, the same sections, agrees.
"""

from __future__ import annotations

from games.engine.cards import Card, format_cards
from games.engine.errors import EngineCode, IllegalAction
from games.engine.poker.context import Ctx, public
from games.engine.poker.ending import after_quiet_turn, check_hand_over, next_turn, reset_quiet
from games.engine.poker.options import MAX_SOLDIERS
from games.engine.poker.state import BATTLE, DISCARD, DRAW, Battle
from games.engine.poker.two_left import check_may_pass


def buy(ctx: Ctx, seat: int) -> None:
    """Pay one small bet and take the top card of the stock as a soldier; a discard step follows.

    Source: palace-poker.txt, "Buy": when the stock is empty and a player wants to buy, the discard
    pile is shuffled into a new stock (chance ``stock_rebuild``); with both empty, Buy is not
    available. Raises ``IllegalAction`` ``nothing_to_buy`` / ``insufficient_chips``.
    """
    t = ctx.t
    if not t.stock and not t.discards:
        raise IllegalAction(EngineCode.NOTHING_TO_BUY, "the stock and the discard pile are both empty")
    cost = 0 if ctx.free() else t.options.small_bet
    if t.stacks[seat] < cost:
        raise IllegalAction(EngineCode.INSUFFICIENT_CHIPS, f"buying costs {cost} chips; you have {t.stacks[seat]}")
    ctx.pay(seat, cost)
    reset_quiet(ctx)
    ctx.emit("buy", seat, cost=cost)
    t.actor = seat
    if t.stock:
        draw_soldier(ctx)
    else:
        t.step = DRAW
        t.chance = "stock_rebuild"


def buy_discard(ctx: Ctx, seat: int) -> None:
    """Open market: pay one big bet and take the top card of the discard pile as a soldier.

    Source: palace-poker.txt, "Variations", "Open Market Rule". The pile is face down: nobody but
    staff knows the card before it is bought; once bought it is a face-up soldier, seen by all. A
    discard step follows, as after a Buy. Raises ``IllegalAction`` ``action_not_allowed`` (the
    variation is off), ``nothing_to_buy``, ``insufficient_chips``.
    """
    t = ctx.t
    if not t.options.open_market:
        raise IllegalAction(
            EngineCode.ACTION_NOT_ALLOWED, "buying from the discard pile needs the 'open_market' option"
        )
    if not t.discards:
        raise IllegalAction(EngineCode.NOTHING_TO_BUY, "the discard pile is empty")
    cost = 0 if ctx.free() else t.options.big_bet
    if t.stacks[seat] < cost:
        raise IllegalAction(
            EngineCode.INSUFFICIENT_CHIPS, f"buying the top discard costs {cost} chips; you have {t.stacks[seat]}"
        )
    ctx.pay(seat, cost)
    reset_quiet(ctx)
    card = t.discards.pop()
    t.soldiers[seat].append(card)
    t.actor = seat
    t.step = DISCARD
    ctx.emit("buy_discard", seat, cards={"card": public([card])}, cost=cost)


def rebuild_stock(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """The shuffled discard pile becomes the stock, and the waiting buyer draws."""
    t = ctx.t
    t.stock = list(order)
    t.discards = []
    t.chance = None
    ctx.emit("stock_rebuilt", None, size=len(t.stock))
    draw_soldier(ctx)


def draw_soldier(ctx: Ctx) -> None:
    """The buyer (``t.actor``) takes the top card of the stock face up; then he owes a discard step."""
    t = ctx.t
    card = t.stock.pop(0)
    t.soldiers[t.actor].append(card)
    ctx.emit("soldier_drawn", t.actor, cards={"card": public([card])})
    t.step = DISCARD


def _soldiers_named(ctx: Ctx, seat: int, cards: tuple[Card, ...]) -> list[Card]:
    own = ctx.t.soldiers[seat]
    if len(set(cards)) != len(cards):
        raise IllegalAction(EngineCode.DUPLICATE_CARDS, "a card is named twice")
    missing = [card for card in cards if card not in own]
    if missing:
        raise IllegalAction(EngineCode.NOT_YOUR_SOLDIER, f"not among your soldiers: {format_cards(missing)}")
    return list(cards)


def discard_turn(ctx: Ctx, seat: int, cards: tuple[Card, ...]) -> None:
    """Discard one or more soldiers to the face-down pile, for free; the turn puts no chips in.

    Source: palace-poker.txt, "Discard". Raises ``IllegalAction`` ``no_cards`` when none is named,
    ``must_battle`` for one of the last two under ``two_left_must_battle`` (``two_left``).
    """
    if not cards:
        raise IllegalAction(EngineCode.NO_CARDS, "a Discard turn discards at least one soldier")
    check_may_pass(ctx.t, seat, action="discard")
    _move_to_discards(ctx, seat, _soldiers_named(ctx, seat, cards))
    if not after_quiet_turn(ctx, seat):
        next_turn(ctx, seat)


def discard_step(ctx: Ctx, seat: int, cards: tuple[Card, ...]) -> None:
    """After a buy or a won battle: discard any soldiers (none = keep), ending with at most five.

    Source: palace-poker.txt, "Buy" (any number, the card just bought included) and "Fold" (the
    winner treats captured cards as soldiers, five at most). Raises ``too_many_soldiers``.
    """
    t = ctx.t
    named = _soldiers_named(ctx, seat, cards)
    if len(t.soldiers[seat]) - len(named) > MAX_SOLDIERS:
        raise IllegalAction(
            EngineCode.TOO_MANY_SOLDIERS,
            f"you hold {len(t.soldiers[seat])} soldiers: discard at least {len(t.soldiers[seat]) - MAX_SOLDIERS}",
        )
    _move_to_discards(ctx, seat, named)
    if check_hand_over(ctx):  # a same-suit showdown put off until the winner's discard step
        return
    next_turn(ctx, t.turn)


def _move_to_discards(ctx: Ctx, seat: int, cards: list[Card]) -> None:
    t = ctx.t
    for card in cards:
        t.soldiers[seat].remove(card)
        t.discards.append(card)
    ctx.emit("discard", seat, cards={"cards": public(cards)})


def stay(ctx: Ctx, seat: int) -> None:
    """Do nothing this turn (palace-poker.txt, "Stay").

    Raises ``IllegalAction("must_battle")`` for one of the last two under ``two_left_must_battle``
    (palace-poker-hindi.txt, "जीतना"; see ``two_left``).
    """
    check_may_pass(ctx.t, seat, action="stay")
    ctx.emit("stay", seat)
    if not after_quiet_turn(ctx, seat):
        next_turn(ctx, seat)


def fold_turn(ctx: Ctx, seat: int) -> None:
    """Leave the hand on one's own turn (palace-poker.txt, "Fold", the second one).

    The text does not say where a folder's banner and soldiers go when no battle is involved:
    with his palace cards they go face down to the discard pile, and nobody takes them.
    """
    t = ctx.t
    out = [*t.palace[seat], t.banners[seat], *t.soldiers[seat]]
    t.discards.extend(out)
    t.palace[seat], t.soldiers[seat], t.banners[seat] = [], [], None
    t.in_hand[seat] = False
    ctx.emit("fold", seat)
    if not after_quiet_turn(ctx, seat):
        next_turn(ctx, seat)


def attack_cost(ctx: Ctx, seat: int) -> int:
    """(soldiers + 1 banner) x small bet: the bet in limit, the minimum in no-limit.

    Source: palace-poker.txt, "Bet (or battle)". Zero under ``points`` ("Palace Poker without
    money": attacking is free).
    """
    if ctx.free():
        return 0
    return (len(ctx.t.soldiers[seat]) + 1) * ctx.t.options.small_bet


def call_cost(ctx: Ctx, attacker: int, defender: int, bet: int) -> int:
    """What the defender pays to call: his own face-up cards x small bet, or in no-limit the
    attacker's bet shifted by one small bet per face-up card the defender has more (or fewer).

    Source: palace-poker.txt, "Call" (the Dave/Christine example: a 100 bet is called for 90 with
    two soldiers fewer, for 105 with one more). In limit both formulas give the same amount.
    """
    t = ctx.t
    if ctx.free():
        return 0
    return bet + (len(t.soldiers[defender]) - len(t.soldiers[attacker])) * t.options.small_bet


def bet(ctx: Ctx, seat: int, target: int | None, amount: int | None) -> None:
    """Attack ``target``: put in the bet and start a battle that the defender answers (under
    ``points`` nobody answers: ``battle.attack`` decides it at once).

    Source: palace-poker.txt, "Bet (or battle)": never against a banner of one's own suit; the bet
    is (soldiers + 1) x small bet, which no-limit treats as the minimum. ``amount``: the bet in
    chips (optional in limit). Raises ``IllegalAction`` ``invalid_target``, ``same_banner_suit``,
    ``invalid_amount``, ``insufficient_chips``.
    """
    t = ctx.t
    if target is None or not (0 <= target < t.seats) or target == seat or not t.in_hand[target]:
        raise IllegalAction(EngineCode.INVALID_TARGET, "bet against another seat still in the hand ('target')")
    if t.banners[target].suit == t.banners[seat].suit:
        raise IllegalAction(EngineCode.SAME_BANNER_SUIT, "you cannot bet against a banner of your own suit")
    if ctx.free():
        if amount not in (None, 0):
            raise IllegalAction(EngineCode.INVALID_AMOUNT, "without money a bet costs nothing: leave 'amount' out")
        amount = 0
    else:
        amount = ctx.chosen_amount(amount, attack_cost(ctx, seat), what="bet")
    if amount > t.stacks[seat]:
        raise IllegalAction(EngineCode.INSUFFICIENT_CHIPS, f"the bet costs {amount} chips; you have {t.stacks[seat]}")
    ctx.pay(seat, amount)
    reset_quiet(ctx)
    ctx.emit("bet", seat, target=target, amount=amount)
    t.battle = Battle(
        attacker=seat,
        defender=target,
        bet=amount,
        responder=target,
        owed=call_cost(ctx, seat, target, amount),
        put_in=(amount, 0),
    )
    t.step = BATTLE


def after_elimination(ctx: Ctx, winner: int | None) -> None:
    """Once a battle is decided: end the hand if it is over, else the winner's discard step (if
    any) and then the next turn after the attacker.

    Two ends wait for the winner's discard step, which then ends the hand (``discard_step``):
    under ``no_pot_sharing`` and ``points`` a same-suit end is a showdown, played with at most five
    soldiers; under ``points`` the winner of the last battle scores 10 minus the soldiers that end
    up in his hand, and he "can discard as many as he wants" first (palace-poker.txt, "Palace
    Poker without money" and "Fold").
    """
    t = ctx.t
    left = ctx.players_in_hand()
    same_suit_showdown = (t.options.no_pot_sharing or t.options.points) and len(left) > 1
    same_suit_showdown = same_suit_showdown and len({t.banners[seat].suit for seat in left}) == 1
    if winner is not None and (same_suit_showdown or t.options.points):
        t.step = DISCARD
        t.actor = winner
        return
    if check_hand_over(ctx):
        return
    if winner is None:
        next_turn(ctx, t.turn)
    else:
        t.step = DISCARD
        t.actor = winner


def check_seat_cards(cards: tuple[Card, ...]) -> None:
    """Actions that name no cards must carry none."""
    if cards:
        raise IllegalAction(EngineCode.UNEXPECTED_CARDS, "this action names no cards")
