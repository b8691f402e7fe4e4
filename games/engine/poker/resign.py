"""A player resigns: he leaves the match for good, at any decision point, on turn or not.

Source: palace-poker.txt, "Fold" (the second: a player who must leave the table folds) and "Fold" (the
first: a defender who folds gives the attacker his banner and soldiers); the match rules of ``ending``
(a player with no chips leaves, as in poker-basics-penguin.txt, "Out of chips"). The texts have no
resignation; the rule here (the README's decisions list):

- He is out of the match at once (``in_match``; his seat joins ``resigned``). His stack stays as it is, out of
  play: nobody takes it and it ranks nobody; the chips he put in this hand stay in the pot.
- Still in the hand, he folds it as the rules fold at that moment: on his turn as a Fold turn (a quiet turn,
  ``play.fold_turn``); in a battle, on his decision or not, as the battle's fold (the other side takes his
  banner and soldiers, and an uncalled raise goes back to whoever made it, ``battle.fold``); anywhere else
  (another's turn, another's discard step or battle, his own discard step) his palace cards, banner and
  soldiers go face down to the discard pile, as on a Fold turn.
- The hand then ends if it is over (one player left, or one banner suit, ``ending.check_hand_over``) at once,
  except while another player owes a discard step or a battle is undecided: the hand ends after them, as it
  does after any battle. When one player is left in the match, the match ends with that hand.
- Under ``points`` the last player left in a hand owes a discard step before his score; resigning there leaves
  nobody in the hand, which ends at once with no winner and no score.
"""

from __future__ import annotations

from games.engine.errors import EngineCode, IllegalAction
from games.engine.poker import battle as battles
from games.engine.poker.context import Ctx
from games.engine.poker.ending import check_hand_over, end_hand, next_turn, reset_quiet
from games.engine.poker.play import fold_turn
from games.engine.poker.state import BATTLE, DISCARD, PLAY, TURN
from games.engine.poker.two_left import last_two_opponent


def resign(ctx: Ctx, seat: int) -> None:
    """``seat`` leaves the match (see the module docstring). Raises ``IllegalAction("not_in_match")`` for a
    seat that has already left (out of chips or resigned) and ``IllegalAction("action_not_allowed")`` outside
    the play of a hand (never at rest: the deals are chance's)."""
    t = ctx.t
    if not t.in_match[seat]:
        raise IllegalAction(EngineCode.NOT_IN_MATCH, "this seat has already left the match")
    if t.phase != PLAY:  # pragma: no cover - every other phase waits for a shuffle, refused before this
        raise IllegalAction(EngineCode.ACTION_NOT_ALLOWED, "a player resigns during the play of a hand")
    t.in_match[seat] = False
    t.resigned.append(seat)
    ctx.emit("resigned", seat, stack=t.stacks[seat])
    if not t.in_hand[seat]:
        return
    fight = t.battle
    if t.step == BATTLE and fight is not None and seat in (fight.attacker, fight.defender):
        battles.fold(ctx, seat)
    elif t.step == TURN and t.turn == seat:
        fold_turn(ctx, seat)
    else:
        _fold_out_of_turn(ctx, seat)


def _fold_out_of_turn(ctx: Ctx, seat: int) -> None:
    """His cards go face down to the discard pile; the hand goes on where it stood, or ends."""
    t = ctx.t
    t.discards.extend([*t.palace[seat], t.banners[seat], *t.soldiers[seat]])
    t.palace[seat], t.soldiers[seat], t.banners[seat] = [], [], None
    t.in_hand[seat] = False
    ctx.emit("fold", seat)
    if t.step == BATTLE or (t.step == DISCARD and t.actor != seat):
        return  # decided by the battle's end or by that discard step, as after any battle
    if check_hand_over(ctx):
        return
    if t.step == DISCARD:  # his own discard step: the turn passes as after it
        if not ctx.players_in_hand():
            # Under points the last player left owes a discard step before his score (play.after_elimination):
            # resigning there leaves nobody in the hand, which ends unwon (without money its pot is empty).
            end_hand(ctx)
            return
        next_turn(ctx, t.turn)
        return
    left = ctx.players_in_hand()
    if last_two_opponent(t, left[0]) is not None:
        # The two who are left must battle: turns passed while more were in do not end their hand.
        reset_quiet(ctx)
