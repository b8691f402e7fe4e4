"""The Palace search's rollouts once the stock is empty: the other seats exactly as ``basic`` plays, the
searcher's own seat one step wiser.

With the stock gone a rollout is short (0.44 ms of CPU heads-up against 1.19 ms before, measured on
positions of ``basic`` play: benchmarks/README.md, "The bot arena"), and what is left to deal is little
(the hidden hand cards and the face-down cards). Two changes to the rollout policy there:

* **no random moves** (``ENDGAME_EPSILON``): ``basic`` is deterministic, so against it a rollout
  without random moves models the other seats exactly; from the same deal every candidate is then
  compared on the same game, move for move;
* **a one-step lookahead for the searcher's own seat** (``lookahead_action``): at each of its
  decisions in the rollout it tries every distinct play (as ``ShedSearchRules.candidates`` lists them)
  and keeps the one whose plain continuation (everyone ``basic``, no lookahead) ends best for it,
  ``basic``'s own action on ties: a rollout algorithm in the sense of Bertsekas (the policy it builds
  is at least as good as ``basic`` on the deal it plays), at the cost of one continuation per
  alternative.

What it reads is the simulation's draft (``PALACE.simulation``), which the search built from a
determinization of the seat's view, never the real hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.engine.protocol import Action, LegalAction
from games.engine.shedding import PALACE

ENDGAME_EPSILON = 0.0
"""The share of random rollout moves once the stock is empty (``shedding_search.ROLLOUT_EPSILON``
before). Measured on 150 positions of heads-up ``basic`` play with the stock empty, each played to
the end by the search (150 ms of CPU a decision) against ``basic``: 0 won 115, 0.1 won 110 (6 games
won that 0.1 lost, 1 lost that it won)."""

Finish = Callable[[Any], float]
"""Plays a simulation on to the rollout's horizon without lookahead; returns the searcher's reward."""


def plays(legal: Sequence[LegalAction], seat: int, turn: int) -> list[Action]:
    """The distinct actions worth trying: each legal entry; a play with all its cards, and on turn with
    its fewest too (``ShedSearchRules.candidates`` on the engine's entries)."""
    out: list[Action] = []
    for entry in legal:
        if entry.type != "play":
            out.append(Action(type=entry.type, seat=seat))
            continue
        out.append(Action(type="play", seat=seat, cards=entry.cards))
        if seat == turn and entry.max_cards > entry.min_cards:
            out.append(Action(type="play", seat=seat, cards=entry.cards[: entry.min_cards]))
    return out


def lookahead_action(sim: Any, options: list[Action], default: Action, finish: Finish) -> Action:
    """The action of ``options`` whose continuation from a copy of ``sim`` scores best, ``default``
    (``basic``'s action, tried first) unless another scores higher. ``sim``: a ``PALACE.simulation``
    in the play phase, left as it was."""
    if len(options) < 2:
        return default
    frozen = sim.t.freeze()
    best, best_score = default, -1.0
    for action in [default, *(option for option in options if option != default)]:
        copy = PALACE.simulation(frozen)
        copy.play(action)
        value = finish(copy)
        if value > best_score:
            best, best_score = action, value
    return best
