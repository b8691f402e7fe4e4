"""Planning the searcher's later moves in Palace once the stock is empty: a tree per candidate.

The sweeps of ``games.engine.bots.search`` play every candidate from one shared deal and one seed; after the
candidate a plain rollout plays every seat, the searcher included, by the rollout policy, so a candidate is
scored as if the searcher then played as ``basic`` does. Once the stock is empty few cards are hidden (the
other hands' unknown cards and the face-down ones) and the end turns on the searcher's own follow-ups
(which rank to keep, when to spend the ten or the two). There ``TreePlanner`` keeps, for the decision, one
tree per candidate over what follows it:

- the searcher's moves are chosen down the tree by UCB1 with availability counts (a move's exploration term
  counts the rollouts in which it was legal, not its parent's visits: in another deal the position below
  differs), the first move not yet tried added per rollout, as in information-set Monte Carlo tree search
  (Cowling, Powley and Whitehouse, IEEE TCIAIG 2012);
- the other seats' moves are the rollout policy's (``ShedSearchRules.model_move``: the model of them, as in
  the sweeps), each one a branch of the tree;
- the tree ends where the rollout's horizon does (``FIRST_OUT_HORIZON``: the next player out, the match's end
  heads-up); below it the rollout plays on by the policy (``ShedSearchRules.play_on``).

A move is named by its seat, type, rank and number of cards (``move_key``), never its suits, so that one
node holds "play the sevens" across deals. The searcher's moves are those the sweeps compare: each playable
rank with all its cards, and with the fewest when more may go; the pick-up; the blind card.

Measured in the arena (benchmarks/README.md, "Palace: planning the endgame" and "... at four seats"): heads-up at
50 ms a decision, the sweeps with the planner beat the same sweeps without it in 57.2% of 285 games; a single tree
over independent deals (plain ISMCTS, the other seat by UCB1 or by the policy) lost to them (43.2%, 45.6%): it gave
up the shared deals. At four seats against three ``basic``, on the same 1,000 deals, the search planned once the
stock is empty went out first in 31.2% of the games against 27.1% planned heads-up only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from games.engine.bots.base import RandomSource
from games.engine.protocol import Action, LegalAction
from games.engine.shedding import PALACE
from games.engine.shedding.legal import legal_actions, seats_to_act

EXPLORATION = 0.7
"""UCB1's constant for rewards on [0, 1] (about 1/sqrt(2), the usual choice)."""

MoveKey = tuple[int, str, int, int]
"""(seat, type, rank, cards): a move as the tree names it; rank and cards 0 for the pick-up and the blind card."""


def move_key(action: Action) -> MoveKey:
    """The tree's name of ``action``: its seat, type, rank and number of cards (suits left out)."""
    cards = action.cards
    return (action.seat or 0, action.type, cards[0].rank if cards else 0, len(cards))


def tree_moves(legal: Sequence[LegalAction], seat: int, turn: int) -> list[Action]:
    """The moves of ``seat`` the tree tells apart, from the engine's legal entries: each ``play`` with all
    its cards, and on turn with ``min_cards`` of them when more may go; every other entry as it is."""
    out: list[Action] = []
    for entry in legal:
        if entry.type != "play":
            out.append(Action(type=entry.type, seat=seat))
            continue
        out.append(Action(type="play", seat=seat, cards=entry.cards))
        if seat == turn and entry.max_cards > entry.min_cards:
            out.append(Action(type="play", seat=seat, cards=entry.cards[: entry.min_cards]))
    return out


class Node:
    """One move in a tree: its visits, the sum of the searcher's rewards through it, how often it was
    available (legal where its parent was reached), and the moves after it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[MoveKey, Node] = {}

    def mean(self) -> float:
        """The mean reward through this move (0 before its first visit)."""
        return self.total / self.visits if self.visits else 0.0


class TreePlanner:
    """One decision's rollouts with the searcher's later moves planned (see the module docstring): a
    ``games.engine.bots.search.Planner``. ``rules``: Palace's ``ShedSearchRules``; ``seat``: the searcher's;
    ``count``: the decision's candidates (one tree each)."""

    def __init__(self, rules: Any, seat: int, count: int) -> None:
        self.rules, self.seat = rules, seat
        self.roots = [Node() for _ in range(count)]

    def rollout(self, pick: int, root: Any, action: Action, rng: RandomSource) -> float:
        """The searcher's reward (``ShedSearchRules.reward``: 1 a win, 0 a loss heads-up) of candidate ``pick``,
        ``action``, played from the deal ``root``: down ``pick``'s tree, one move added (or the horizon reached),
        then by the policy."""
        rules, seat = self.rules, self.seat
        sim = PALACE.simulation(root)
        t = sim.t
        sim.play(action)
        node, path = self.roots[pick], []
        out_before = len(root.out)
        # The tree ends where the rollout's horizon does (FIRST_OUT_HORIZON: the next player out), so that below
        # it ``play_on`` still sees the first one go out and scores the places as it would without a tree.
        while not sim.is_over() and not (rules.first_out_horizon and len(t.out) > out_before):
            to_act = seats_to_act(t)
            mover = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            added = False
            if mover != seat:
                move = rules.model_move(t, mover, rng)
                child = node.children.get(move_key(move))
                if child is None:
                    child = node.children[move_key(move)] = Node()
            else:
                move, child, added = _choose(node, tree_moves(legal_actions(t, mover), mover, t.turn), rng)
            sim.play(move)
            path.append(child)
            node = child
            if added:
                break
        reward: float = rules.reward(root, rules.play_on(root, sim, rng, seat), seat)
        for child in path:
            child.visits += 1
            child.total += reward
        return reward


def _choose(node: Node, moves: Sequence[Action], rng: RandomSource) -> tuple[Action, Node, bool]:
    """The searcher's move at ``node`` among ``moves`` (legal here): one not yet tried, drawn from ``rng``,
    added to the tree (``True``), else the best by UCB1 with availability (``False``)."""
    fresh = []
    for move in moves:
        child = node.children.get(move_key(move))
        if child is None:
            fresh.append(move)
        else:
            child.available += 1
    if fresh:
        move = fresh[rng.randint(0, len(fresh) - 1)] if len(fresh) > 1 else fresh[0]
        child = node.children[move_key(move)] = Node()
        child.available += 1
        return move, child, True
    best, best_value = moves[0], -math.inf
    for move in moves:
        child = node.children[move_key(move)]
        value = child.mean() + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if value > best_value:
            best, best_value = move, value
    return best, node.children[move_key(best)], False
