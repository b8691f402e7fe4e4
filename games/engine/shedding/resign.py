"""A player resigns: he is out of the match for good and ranked last, at any decision point, on turn or not.

Neither text has a resignation (palace-shedding-a.txt ¶22.1-2 and palace-shedding-b.txt "Goal" rank players
by going out); the rule here (the README's decisions list and the package docstring):

- His cards stay where they lie (hand, face-up and face-down rows), out of play and as hidden as before: no
  card moves to the pile or the stock, and nobody sees one he could not see.
- In the setup his choice, if any, is dropped and his dealt visible row joins his hand unturned
  (``deal.unchosen_to_hand``); the others' choices are turned up once the last of them has chosen.
- In play, on turn, the turn passes clockwise to the next player still in (``turns.pass_turn``); out of
  turn, the turn stays where it is. A chance to add just-drawn cards (``redraw``) that was his closes.
- When one player is left in the match, the match ends (reason ``"resigned"``). The ranking is the usual one
  (``ending.end_match``) followed by the resigned seats, the last to resign first: the first to leave is last.
"""

from __future__ import annotations

from games.engine.errors import EngineCode, IllegalAction
from games.engine.shedding.context import Ctx
from games.engine.shedding.deal import begin_play, setup_done, unchosen_to_hand
from games.engine.shedding.ending import end_match
from games.engine.shedding.state import PLAY, SETUP
from games.engine.shedding.turns import pass_turn


def resign(ctx: Ctx, seat: int) -> None:
    """``seat`` leaves the match (see the module docstring). Raises ``IllegalAction("not_in_match")`` for a
    seat already out or resigned, and ``IllegalAction("action_not_allowed")`` before the deal."""
    t = ctx.t
    if seat in t.out or seat in t.resigned:
        raise IllegalAction(EngineCode.NOT_IN_MATCH, "this seat is no longer in the match")
    if t.phase not in (SETUP, PLAY):  # pragma: no cover - the phases before are chance's, refused before this
        raise IllegalAction(EngineCode.ACTION_NOT_ALLOWED, "a player resigns once the cards are dealt")
    on_turn = t.phase == PLAY and t.turn == seat
    t.resigned.append(seat)
    ctx.emit("resigned", seat, cards_left=ctx.cards_left(seat))
    if t.phase == SETUP:
        unchosen_to_hand(ctx, seat)
    if t.redraw_seat == seat:
        t.redraw_seat, t.redraw_cards = None, []
    if len(ctx.active()) <= 1:
        if t.phase == SETUP:
            for other in ctx.active():
                unchosen_to_hand(ctx, other)
            t.choices = []
        end_match(ctx, "resigned")
        return
    if t.phase == SETUP:
        if setup_done(ctx):
            begin_play(ctx)
        return
    if on_turn:
        pass_turn(ctx, seat)
