"""The ``two_left_must_battle`` option: the last two players battle for the pot.

Source: palace-poker-hindi.txt, "जीतना" (winning the pot), first paragraph, second sentence: when
two players are left, they must battle to decide the winner. palace-poker.txt has no such rule:
its "Stay" ends any hand in a showdown once every player has passed in a row.

With the option on, when exactly two players of different banner suits are left in the hand (two
of one suit end the hand at once, "Winning the Pot"), the player on turn who can pay a bet against
the other one must not pass:

- he may ``bet`` against the other, ``buy`` or ``buy_discard`` (``open_market``), or ``fold``, which
  concedes the hand: the other is the last player left and takes the pot;
- he may not ``stay`` or ``discard`` on his turn (``IllegalAction("must_battle")``): those are the
  quiet turns whose run ends a hand in a showdown;
- a turn timeout bets the minimum against the other (``default_action``).

The text is silent on a player who cannot pay the bet (a no-limit or limit bet is never made on
credit): he keeps every choice of a turn, Stay included, so when neither of the two can pay, a run
of their quiet turns still ends the hand in a showdown. Quiet turns taken while more players were
in do not count: the run starts again when a fold leaves the two (``ending.after_quiet_turn``).
"""

from __future__ import annotations

from typing import Any

from games.engine.errors import EngineCode, IllegalAction


def last_two_opponent(t: Any, seat: int) -> int | None:
    """The other of the last two players, when ``seat`` is one of exactly two players of different
    banner suits left in the hand and the option is on; else ``None``. ``t``: a state or a draft."""
    if not t.options.two_left_must_battle or not t.in_hand or not t.in_hand[seat]:
        return None
    left = [other for other in range(t.seats) if t.in_hand[other]]
    if len(left) != 2:
        return None
    other = left[0] if left[1] == seat else left[1]
    if t.banners[other].suit == t.banners[seat].suit:
        return None
    return other


def must_battle(t: Any, seat: int) -> bool:
    """Whether ``seat``, on turn, may not pass: one of the last two (``last_two_opponent``) who can
    pay the bet, (soldiers + 1) x small bet, nothing under ``points`` (palace-poker.txt, "Bet (or
    battle)", "Palace Poker without money")."""
    if last_two_opponent(t, seat) is None:
        return False
    cost = 0 if t.options.points else (len(t.soldiers[seat]) + 1) * t.options.small_bet
    return bool(t.stacks[seat] >= cost)


def check_may_pass(t: Any, seat: int, *, action: str) -> None:
    """Refuse a Stay or a Discard turn of a seat that must battle. Raises ``IllegalAction("must_battle")``."""
    if must_battle(t, seat):
        raise IllegalAction(
            EngineCode.MUST_BATTLE,
            f"two players are left and must battle ('two_left_must_battle'): no {action}; bet, buy or fold",
        )
