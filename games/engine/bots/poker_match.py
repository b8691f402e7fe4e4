"""What a hand's outcome is worth to a heads-up Palace Poker match, for the search's reward.

A hand won by a few chips in the last hand of a close match decides it; the same chips early in a long
match barely move it. So where the match has an end the search can see, it scores a rollout by the
chance that the seat goes on to win the match from where the hand leaves it, not by the hand's chips
or points alone:

* ``points`` (palace-poker.txt, "Palace Poker without money"): the first to ``target_points`` wins
  (``ending.end_hand``: the match ends after the hand in which someone reaches it, the top score
  winning). ``points_match_value`` assumes every later hand is won by either player with even chance,
  for ``HAND_POINTS`` points (a battle's winner discards every soldier first, so he scores 10).
* money with ``max_hands`` (the most chips after the last hand win, ``ending.end_hand``): the lead in
  chips after the remaining hands is taken as normal, each hand moving it by ``HAND_SPREAD_SMALL_BETS``
  small bets (standard deviation) around no drift: ``chips_match_value``.

A match to the last chip has no such end in sight: its reward stays the hand's chips.
"""

from __future__ import annotations

import math
from functools import lru_cache

HAND_POINTS = 10
"""Points a hand's winner scores under ``points`` (5 to 10; a battle's winner almost always 10)."""
HAND_SPREAD_SMALL_BETS = 3.6
"""Standard deviation of one heads-up hand's change to the chip lead (the difference between the two
stacks), in small bets: two ``basic`` bots, limit 5/10, 4,000 hands measured 9.1 chips a seat (the
lead moves by twice a seat's change)."""


def points_match_value(mine: int, theirs: int, target: int) -> float:
    """The chance that a seat with ``mine`` points beats one with ``theirs`` in a match to ``target``
    (each later hand a fair coin worth ``HAND_POINTS``); 1 or 0 once someone has reached ``target``
    (0.5 when both have, level)."""
    if max(mine, theirs) >= target:
        return 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)
    return _race(_hands_needed(target - mine), _hands_needed(target - theirs))


def _hands_needed(points: int) -> int:
    return max(1, math.ceil(points / HAND_POINTS))


@lru_cache(maxsize=4096)
def _race(mine: int, theirs: int) -> float:
    """The chance of winning ``mine`` fair coin tosses before the other side wins ``theirs``."""
    if mine == 0:
        return 1.0
    if theirs == 0:
        return 0.0
    return 0.5 * (_race(mine - 1, theirs) + _race(mine, theirs - 1))


def chips_match_value(lead: int, hands_left: int, small_bet: int) -> float:
    """The chance of ending ``hands_left`` more hands ahead in chips from a ``lead`` (chips, may be
    negative; level counts half), with the lead's hand-to-hand spread of ``HAND_SPREAD_SMALL_BETS``."""
    if hands_left <= 0:
        return 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)
    spread = HAND_SPREAD_SMALL_BETS * small_bet * math.sqrt(hands_left)
    return 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))
