"""What a seat may do now, with the chips each choice costs, and what a timeout does for it."""

from __future__ import annotations

from games.engine.errors import EngineCode, IllegalAction
from games.engine.poker.battle import raise_minimum
from games.engine.poker.options import MAX_SOLDIERS
from games.engine.poker.state import BATTLE, DISCARD, FINISHED, TURN, PokerState
from games.engine.poker.two_left import last_two_opponent, must_battle
from games.engine.protocol import Action, LegalAction


def seat_to_act(state: PokerState) -> int | None:
    """The seat whose decision it is, or ``None`` while chance acts or after the match."""
    if state.chance is not None or state.phase == FINISHED:
        return None
    if state.step == TURN:
        return state.turn
    if state.step == DISCARD:
        return state.actor
    if state.step == BATTLE and state.battle is not None:
        return state.battle.responder
    return None


def legal_actions(state: PokerState, seat: int) -> tuple[LegalAction, ...]:
    """The decisions open to ``seat`` (empty when it is not his decision).

    On a turn: ``buy`` (when the stock or the discard pile has a card and he has a small bet),
    ``discard`` (when he has soldiers), ``bet`` (targets: players still in whose banner suit differs
    from his, when he can pay the bet), ``stay``, ``fold``. In a discard step: ``discard`` of any
    of his soldiers, at least as many as take him above five. In a battle: ``fold``, ``call``
    (costing at most his stack), ``raise`` (while under the raise cap and affordable).

    Variations: ``open_market`` adds ``buy_discard`` on a turn (cost one big bet, when the discard
    pile has a card); under ``points`` every cost is 0 and a bet is decided at once, so there is no
    battle to answer (a battle stored before that rule offers ``fold`` and ``call``, no ``raise``);
    under ``two_left_must_battle`` one of the last two who can pay the bet has no ``stay`` and no
    ``discard`` on his turn (``two_left``).
    """
    if seat_to_act(state) != seat:
        return ()
    options = state.options
    free = options.points
    stack = state.stacks[seat]
    soldiers = state.soldiers[seat]
    if state.step == DISCARD:
        return (
            LegalAction(
                type="discard",
                cards=soldiers,
                min_cards=max(0, len(soldiers) - MAX_SOLDIERS),
                max_cards=len(soldiers),
            ),
        )
    battle = state.battle
    if state.step == BATTLE and battle is not None:
        actions = [LegalAction(type="fold"), LegalAction(type="call", cost=min(battle.owed, stack))]
        if battle.raises < options.max_raises and not free:
            minimum = raise_minimum(state)
            if battle.owed + minimum <= stack:
                maximum = minimum if options.betting == "limit" else stack - battle.owed
                actions.append(
                    LegalAction(type="raise", cost=battle.owed + minimum, min_amount=minimum, max_amount=maximum)
                )
        return tuple(actions)
    actions = []
    buy_cost = 0 if free else options.small_bet
    if (state.stock or state.discards) and stack >= buy_cost:
        actions.append(LegalAction(type="buy", cost=buy_cost))
    market_cost = 0 if free else options.big_bet
    if options.open_market and state.discards and stack >= market_cost:
        actions.append(LegalAction(type="buy_discard", cost=market_cost))
    passing = not must_battle(state, seat)
    if soldiers and passing:
        actions.append(LegalAction(type="discard", cards=soldiers, min_cards=1, max_cards=len(soldiers)))
    minimum = 0 if free else (len(soldiers) + 1) * options.small_bet
    own_suit = state.banners[seat].suit  # type: ignore[union-attr]
    targets = tuple(
        (other, minimum)
        for other in state.players_in_hand()
        if other != seat and state.banners[other].suit != own_suit  # type: ignore[union-attr]
    )
    if targets and stack >= minimum:
        maximum = minimum if options.betting == "limit" or free else stack
        actions.append(LegalAction(type="bet", cost=minimum, targets=targets, min_amount=minimum, max_amount=maximum))
    if passing:
        actions.append(LegalAction(type="stay"))
    actions.append(LegalAction(type="fold"))
    return tuple(actions)


def default_action(state: PokerState, seat: int) -> Action:
    """The action a turn timeout applies: Stay on a turn, Fold in a battle, and in a discard step
    keep, dropping the lowest soldiers when over five. Raises ``IllegalAction("not_your_turn")``.

    Under ``two_left_must_battle``, one of the last two who may not stay bets the minimum against
    the other (palace-poker-hindi.txt, "जीतना": the two must battle; a fold would end the hand
    without one). Under ``points``, the last player's discard step before his score discards every
    soldier: the hand ends with it and he scores 10 minus the soldiers he keeps (palace-poker.txt,
    "Palace Poker without money").
    """
    if seat_to_act(state) != seat:
        raise IllegalAction(EngineCode.NOT_YOUR_TURN, "it is not this seat's decision")
    if state.step == TURN:
        if must_battle(state, seat):
            return Action(type="bet", seat=seat, target=last_two_opponent(state, seat), timeout=True)
        return Action(type="stay", seat=seat, timeout=True)
    if state.step == BATTLE:
        return Action(type="fold", seat=seat, timeout=True)
    soldiers = state.soldiers[seat]
    if state.options.points and state.players_in_hand() == (seat,):
        return Action(type="discard", seat=seat, cards=soldiers, timeout=True)
    excess = max(0, len(soldiers) - MAX_SOLDIERS)
    lowest = tuple(sorted(soldiers, key=lambda card: card.rank)[:excess])
    return Action(type="discard", seat=seat, cards=lowest, timeout=True)
