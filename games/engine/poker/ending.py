"""How a hand ends, who takes the pot, and how the match goes on or ends.

Source: palace-poker.txt, "Stay" (a run of turns without chips ends the hand), "Winning the Pot"
and "Ties"; palace-poker-hindi.txt, "जीतना" agrees on the same-suit split.
"""

from __future__ import annotations

from typing import Any

from games.engine.poker.context import Ctx, public
from games.engine.poker.state import BANNER_DEAL, FINISHED, TURN
from games.engine.poker.two_left import last_two_opponent


def check_hand_over(ctx: Ctx) -> bool:
    """End the hand if one player is left, or if all who are left share one banner suit.

    Source: palace-poker.txt, "Winning the Pot": the last player takes the pot; two or three
    players left with the same banner suit split it at once. Under ``no_pot_sharing`` ("No Pot
    Sharing Rule") and ``points`` ("Palace Poker without money": no pot-splitting) a showdown
    decides instead. Returns whether the hand ended.
    """
    t = ctx.t
    left = ctx.players_in_hand()
    if len(left) == 1:
        award(ctx, left, reason="last_player")
        return True
    if len({t.banners[seat].suit for seat in left}) == 1:
        if t.options.no_pot_sharing or t.options.points:
            showdown(ctx)
        else:
            award(ctx, left, reason="same_banner_suit")
        return True
    return False


def after_quiet_turn(ctx: Ctx, seat: int) -> bool:
    """Count a turn that put no chips in; a full run of them ends the hand in a showdown.

    Source: palace-poker.txt, "Stay": when every player still in has taken a turn in a row with
    Stay, Discard or Fold, the hand ends. Returns whether it did.

    Under ``two_left_must_battle`` (palace-poker-hindi.txt, "जीतना") a fold that leaves two
    players of different banner suits starts the run again: the quiet turns taken while more were
    in must not end the hand of the two who must battle (``two_left``).
    """
    t = ctx.t
    if not t.quiet:
        t.quiet_start = seat
    t.quiet.add(seat)
    if check_hand_over(ctx):
        return True
    left = ctx.players_in_hand()
    if not t.in_hand[seat] and last_two_opponent(t, left[0]) is not None:
        reset_quiet(ctx)
        return False
    if set(left) <= t.quiet:
        showdown(ctx)
        return True
    return False


def reset_quiet(ctx: Ctx) -> None:
    """Chips went in: the run of quiet turns starts again."""
    ctx.t.quiet = set()
    ctx.t.quiet_start = None


def showdown(ctx: Ctx) -> None:
    """Everyone left shows his palace cards; the best hand wins, no suit excluded.

    Source: palace-poker.txt, "Stay" (players show starting from the one who began the run) and
    "Winning the Pot" (ties go to the most cards of one's own banner suit in the five-card hand,
    then the pot is split). With ``showdown_tie="split"`` the own-suit count is skipped and a tie
    for top hand splits at once (palace-poker-hindi.txt, its showdown paragraph).
    """
    t = ctx.t
    start = t.dealer if t.quiet_start is None else t.quiet_start
    if not t.in_hand[start]:
        start = ctx.next_in_hand(start)
    order = [start]
    while (seat := ctx.next_in_hand(order[-1])) != start:
        order.append(seat)
    keys = {}
    for seat in order:
        hand = ctx.hand_of(seat)
        keys[seat] = hand.key if t.options.showdown_tie == "own_suit_count" else (hand.rank, 0)
        t.shown[seat] = True
        ctx.emit(
            "palace_shown",
            seat,
            cards={"palace": public(t.palace[seat]), "hand": public(hand.cards)},
            hand=hand.name,
            own_suit_cards=hand.own_suit_count,
        )
    best = max(keys.values())
    award(ctx, [seat for seat in order if keys[seat] == best], reason="showdown")


def award(ctx: Ctx, winners: list[int], *, reason: str) -> None:
    """Give the pot to ``winners`` (split evenly; odd chips to the first winner left of the dealer).

    Then the hand ends: see ``end_hand``. Under ``points`` (palace-poker.txt, "Palace Poker
    without money") the pot is empty; a single winner scores 10 minus his soldiers, at most five
    (the winner of a last battle has taken his discard step: ``play.after_elimination``), so from
    5 to 10; several winners are an absolute tie and nobody scores.
    """
    t = ctx.t
    if t.options.points:
        if len(winners) == 1:
            points = 10 - len(t.soldiers[winners[0]])
            t.scores[winners[0]] += points
            ctx.emit("points_scored", winners[0], points=points, reason=reason, scores=list(t.scores))
        else:
            ctx.emit("points_scored", None, points=0, reason="absolute_tie", tied=list(winners), scores=list(t.scores))
    share, odd = divmod(t.pot, len(winners))
    first = next(seat for seat in ((t.dealer + 1 + k) % t.seats for k in range(t.seats)) if seat in winners)
    amounts = {seat: share + (odd if seat == first else 0) for seat in winners}
    for seat, chips in amounts.items():
        t.stacks[seat] += chips
    ctx.emit(
        "pot_awarded", None, pot=t.pot, reason=reason, amounts={str(seat): chips for seat, chips in amounts.items()}
    )
    t.pot = 0
    end_hand(ctx)


def end_hand(ctx: Ctx) -> None:
    """Gather the cards; players without chips leave; the match ends or the deal moves left.

    Source: palace-poker.txt, "Example Game Continued" (the next player deals the next hand).
    The match ends when one player holds every chip or after ``max_hands`` hands (the text has no
    match; a player with no chips leaves, as in poker-basics-penguin.txt, "Out of chips").
    """
    t = ctx.t
    ctx.emit("hand_ended", None, hand=t.hand_number, stacks=list(t.stacks), **_scores(t))
    n = t.seats
    t.banners, t.palace, t.soldiers = [None] * n, [[] for _ in range(n)], [[] for _ in range(n)]
    t.stock, t.discards, t.set_aside = [], [], []
    t.known, t.shown = [set() for _ in range(n)], [False] * n
    t.turn = t.step = t.actor = t.battle = t.quiet_start = None
    t.quiet = set()
    t.put_in = [0] * n
    for seat in range(n):
        if t.in_match[seat] and t.stacks[seat] == 0:
            t.in_match[seat] = False
            ctx.emit("player_left", seat, reason="no_chips")
    t.in_hand = list(t.in_match)
    alive = [seat for seat in range(n) if t.in_match[seat]]
    max_hands = t.options.max_hands
    measure = t.scores if t.options.points else t.stacks
    reached = t.options.points and max(t.scores) >= t.options.target_points
    if len(alive) <= 1 or reached or (max_hands is not None and t.hand_number >= max_hands):
        top = max(measure[seat] for seat in alive)
        t.winners = [seat for seat in alive if measure[seat] == top]
        t.phase = FINISHED
        t.chance = None
        ctx.emit("match_ended", None, winners=list(t.winners), stacks=list(t.stacks), hands=t.hand_number, **_scores(t))
        return
    t.dealer = next(seat for seat in ((t.dealer + 1 + k) % n for k in range(n)) if t.in_match[seat])
    t.phase = BANNER_DEAL
    t.chance = "banner_deal"


def next_turn(ctx: Ctx, after: int) -> None:
    """The turn passes clockwise to the next player still in (palace-poker.txt, "The Play")."""
    t = ctx.t
    t.turn = ctx.next_in_hand(after)
    t.step = TURN
    t.actor = None


def _scores(t: object) -> dict[str, Any]:
    """The scores for an event, under the ``points`` variation only."""
    return {"scores": list(t.scores)} if t.options.points else {}  # type: ignore[attr-defined]
