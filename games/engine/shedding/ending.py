"""Players going out, the end of the match, its ranking, and the stalemate rule.

Sources: palace-shedding-a.txt ¶22.1-2 (a player out of cards drops out; the last one left loses);
palace-shedding-b.txt "Goal" and "Gameplay", last paragraph (the first player out wins).
"""

from __future__ import annotations

from games.engine.shedding.context import Ctx
from games.engine.shedding.state import FINISHED


def check_out(ctx: Ctx, seat: int) -> bool:
    """If ``seat`` holds no card any more he is out, in the next place; the match may end.

    ``finish: "first_out_wins"`` ends it with the first player out; ``"last_player_loses"`` when a
    single player still holds cards. Returns whether the match ended.
    """
    t = ctx.t
    if seat in t.out or seat in t.resigned or ctx.cards_left(seat):
        return False
    t.out.append(seat)
    ctx.emit("player_out", seat, place=len(t.out))
    if t.redraw_seat == seat:
        t.redraw_seat, t.redraw_cards = None, []
    if t.options.finish == "first_out_wins":
        end_match(ctx, "first_out")
        return True
    if len(ctx.active()) == 1:
        end_match(ctx, "last_player")
        return True
    return False


def check_stalemate(ctx: Ctx) -> bool:
    """The stalemate rule: after ``max_turns`` play decisions the match ends (neither text has
    one; random play could otherwise pick up and replay forever). Returns whether it ended."""
    t = ctx.t
    if t.phase == FINISHED or t.turns < t.options.max_turns:
        return False
    end_match(ctx, "stalemate")
    return True


def end_match(ctx: Ctx, reason: str) -> None:
    """Rank everyone and finish: the players out in the order they went out, then those still
    holding cards by fewest cards left, ties in deal order (clockwise from the dealer's left), then
    those who resigned, the last to resign first (``resign``).

    ``reason``: ``"last_player"`` (the last one left loses), ``"first_out"`` (the first out wins;
    the text ranks nobody else), ``"stalemate"`` or ``"resigned"`` (one player is left in the match).
    """
    t = ctx.t
    deal_order = [(t.dealer + 1 + k) % t.seats for k in range(t.seats)]
    left = {seat: ctx.cards_left(seat) for seat in range(t.seats)}
    remaining = sorted(ctx.active(), key=lambda seat: (left[seat], deal_order.index(seat)))
    t.order = [*t.out, *remaining, *reversed(t.resigned)]
    t.end_reason = reason
    t.phase = FINISHED
    t.chance = None
    t.turn = None
    t.replay = False
    t.redraw_seat, t.redraw_cards = None, []
    ctx.emit(
        "match_ended",
        None,
        order=list(t.order),
        reason=reason,
        cards_left={str(seat): count for seat, count in left.items()},
        turns=t.turns,
    )
