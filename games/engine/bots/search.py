"""Determinized Monte Carlo search: a bot that samples the cards its seat cannot see and plays the game out.

The search reads one seat's view, as every bot does (``games.engine.bots.base``), and compares the
candidate actions its game's ``Searchable`` offers. ``SearchBot`` works in sweeps:

1. **determinize**: build a full engine state consistent with the view (the seat's own cards, every
   face-up card, the size of each hidden zone), the hidden cards dealt from ``rng``;
2. **play every candidate still in the running from that deal**, each rollout with the same seed drawn
   from ``rng`` (common random numbers: the deal, the largest part of the noise, is shared, so the
   differences between candidates' means are sharp). A rollout applies the candidate with the engine's
   ``apply`` and plays on to the game's horizon (the match's end in Palace, the hand's end in Palace
   Poker): every seat, the searcher included, decides by the game's rollout policy (the ``basic`` bot,
   with a small chance of a random legal action) from what it may see, each shuffle drawn from the seed;
   where the game offers a ``Planner`` for the decision (``Searchable.planner``: Palace heads-up once the
   stock is empty), the planner plays the rollouts instead, choosing the searcher's later moves itself;
3. **score** the end for the seat, on a [0, 1] scale (``Searchable.reward``), and after the third sweep
   drop every candidate whose mean trails the best by ``DROP_C / sqrt(sweeps)`` (successive elimination).

It answers the candidate with the best mean. ``FlatMonteCarloBot``, the baseline, spends the same budget
on the same rollouts round robin, each from its own deal, without elimination or planner. Measured (benchmarks/
README.md, "Arena"): UCB1 over independent deals did no better than round robin; shared deals did.

The budget: ``iterations`` rollouts, or ``seconds`` of wall time (``time.perf_counter``), whichever ends
first; one candidate (or one left in the running) is answered at once. The clock is the only impure part
of this module: it decides how many rollouts run, never what one does, so with ``seconds=None`` a
decision is a pure function of the view and the generator's state (the tests rely on it).

Randomness comes only from the ``rng`` passed to ``choose`` (a rollout's ``random.Random`` is seeded from
it).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from games.engine.bots.base import ActionJSON, Bot, RandomSource
from games.engine.bots.random_bot import RandomBot
from games.engine.cards import Card, parse_cards
from games.engine.protocol import Action, Game

DEFAULT_SECONDS = 0.25
"""The time budget of one decision (the issue's 250 ms on the 2-core machine of benchmarks/README.md)."""
MAX_ROLLOUT_STEPS = 5_000
"""A rollout that has not reached the horizon after this many applied actions is scored as it stands."""
MIN_SWEEPS = 3
"""Sweeps before any candidate may be dropped."""
DROP_C = 0.8
"""A candidate whose mean trails the best by ``DROP_C / sqrt(sweeps)`` (rewards on a [0, 1] scale) is dropped."""

Clock = Callable[[], float]


class Searchable(Protocol):
    """What the search needs to know of one game, all of it from a seat's view or the engine's states."""

    game: Game
    policy: Bot
    """The rollout policy: every seat's decisions in a rollout, from that seat's view."""
    epsilon: float
    """The chance that a rollout decision is a uniformly random legal action instead of the policy's."""
    anchor_z: float | None
    """``None``: answer the best mean. Else candidate 0 is the policy's own action, and another is
    answered only when its paired gain over it is ``anchor_z`` standard errors above 0."""

    def candidates(self, view: Mapping[str, Any], rng: RandomSource) -> list[ActionJSON]:
        """The distinct actions worth comparing (at least one), each a legal body for ``view``'s seat."""

    def determinize(self, view: Mapping[str, Any], rng: RandomSource) -> Any:
        """A full state consistent with ``view``, the cards hidden from its seat drawn from ``rng``."""

    def at_horizon(self, root: Any, state: Any) -> bool:
        """Whether the rollout from ``root`` may stop at ``state`` (the game over, or the hand over)."""

    def playout(self, root: Any, state: Any, rng: RandomSource, seat: int | None = None) -> Any:
        """The state a rollout from ``state`` ends in: ``rollout(self, root, state, rng)``, or a faster
        equivalent on the game's own in-place simulation. ``seat``: the searching seat (``None``: not
        told), for a game whose rollouts play that seat by a policy of its own."""

    def reward(self, root: Any, state: Any, seat: int) -> float:
        """The outcome at ``state`` for ``seat``, about [0, 1]; higher is better."""

    def planner(self, view: Mapping[str, Any], count: int) -> Planner | None:
        """Where the game plans the searching seat's later moves for this decision (``view``'s, with ``count``
        candidates), the ``Planner`` whose rollouts replace ``playout``'s; else ``None``."""


class Planner(Protocol):
    """One decision's rollouts that choose the searching seat's later moves themselves (e.g. down a tree per
    candidate) instead of by the rollout policy."""

    def rollout(self, pick: int, root: Any, action: Action, rng: RandomSource) -> float:
        """The reward (``Searchable.reward`` of the searching seat) of candidate ``pick``, ``action``, played
        from the determinization ``root`` with the rollout's generator ``rng``."""


def to_action(seat: int, body: Mapping[str, Any]) -> Action:
    """The engine ``Action`` of a bot's body (the JSON a client POSTs)."""
    return Action(
        type=body["type"],
        seat=seat,
        cards=parse_cards(body.get("cards", [])),
        target=body.get("target"),
        amount=body.get("amount"),
    )


def shuffled(cards: Sequence[Card], rng: RandomSource) -> list[Card]:
    """A uniformly random order of ``cards`` (Fisher-Yates on ``rng.randint``: ``RandomSource`` has no shuffle)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randint(0, i)
        out[i], out[j] = out[j], out[i]
    return out


_RANDOM = RandomBot()


def rollout(rules: Searchable, root: Any, state: Any, rng: RandomSource) -> Any:
    """Play ``state`` on to the horizon: shuffles from ``rng``, decisions by the rollout policy (with
    ``epsilon`` uniformly random ones) from each deciding seat's view; when several seats may act, one
    drawn from ``rng`` goes first (as the arena and the server's race do)."""
    game = rules.game
    for _ in range(MAX_ROLLOUT_STEPS):
        if rules.at_horizon(root, state):
            break
        request = game.chance_request(state)
        if request is not None:
            state, _ = game.apply(state, Action(type="shuffle", cards=tuple(shuffled(request.cards, rng))))
            continue
        to_act = game.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        view = game.view(state, seat)
        bot = _RANDOM if rules.epsilon and rng.random() < rules.epsilon else rules.policy
        state, _ = game.apply(state, to_action(seat, bot.choose(view, rng)))
    return state


class SearchBot:
    """The ``"search"`` bot of one game: sweeps over shared deals with elimination (see the module docstring).

    ``rules``: the game's ``Searchable``; ``seconds``: the wall-time budget of a decision (``None``: no
    clock, ``iterations`` alone); ``iterations``: the most rollouts a decision runs; ``clock``: seconds,
    ``time.perf_counter`` unless a caller substitutes one.
    """

    name = "search"
    anchored = True
    """Whether ``Searchable.anchor_z`` applies (the flat baseline ignores it)."""
    plans = True
    """Whether the game's planner (``Searchable.planner``) may play the rollouts where it offers one."""

    def __init__(
        self,
        rules: Searchable,
        *,
        seconds: float | None = DEFAULT_SECONDS,
        iterations: int = 100_000,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.rules = rules
        self.seconds = seconds
        self.iterations = iterations
        self.clock = clock

    def choose(self, view: Mapping[str, Any], rng: RandomSource) -> ActionJSON:
        """The candidate with the best mean reward after the budget's rollouts, or under an anchor
        (``Searchable.anchor_z``) the anchor unless another beats it clearly; raises ``EngineError``
        ``no_decision`` as every bot does (through the game's ``candidates``)."""
        candidates = self.rules.candidates(view, rng)
        if len(candidates) == 1:
            return candidates[0]
        tally = self.sweeps(view, candidates, rng)
        z = self.rules.anchor_z if self.anchored else None
        if z is not None:
            return candidates[tally.beats_anchor(z)]
        totals, counts = tally.totals, tally.counts
        best = max(range(len(candidates)), key=lambda i: (totals[i] / counts[i] if counts[i] else -math.inf, -i))
        return candidates[best]

    def search(
        self, view: Mapping[str, Any], candidates: list[ActionJSON], rng: RandomSource
    ) -> tuple[list[float], list[int]]:
        """Per candidate, the sum of the rewards of its rollouts and their number (see ``sweeps``)."""
        tally = self.sweeps(view, candidates, rng)
        return tally.totals, tally.counts

    def sweeps(self, view: Mapping[str, Any], candidates: list[ActionJSON], rng: RandomSource) -> Tally:
        """The rollouts of the budget, in sweeps.

        Each sweep draws one determinization and one rollout seed, and plays every candidate still in
        the running from that same deal with that same seed (common random numbers: the hidden cards, the
        largest part of the noise, are the same for all, so the differences between means are much
        sharper than with independent deals). After each sweep from the third, a candidate whose mean is
        ``DROP_C / sqrt(sweeps)`` or more below the best leaves the running (successive elimination);
        under an anchor (``Searchable.anchor_z``) candidate 0 never does, and goes first in each sweep.
        Where the game offers a ``Planner`` for this decision (and ``plans``), it plays the rollouts.
        """
        seat: int = view["viewer"] if "viewer" in view else view["to_act"][0]
        deadline = None if self.seconds is None else self.clock() + self.seconds
        tally = Tally(len(candidates))
        anchored = self.rules.anchor_z is not None
        actions = [to_action(seat, body) for body in candidates]
        planner = self.rules.planner(view, len(candidates)) if self.plans else None
        alive = list(range(len(candidates)))
        done, sweeps = 0, 0
        while done < self.iterations and len(alive) > 1:
            root = self.rules.determinize(view, rng)
            seed = rng.randint(0, 2**62)
            rewards: dict[int, float] = {}
            for pick in alive:
                if done >= self.iterations or (deadline is not None and done and self.clock() >= deadline):
                    break
                stream = random.Random(seed)  # noqa: S311 - a rollout's seed, drawn from rng
                if planner is None:
                    rewards[pick] = self._rollout(root, actions[pick], stream, seat)
                else:
                    rewards[pick] = planner.rollout(pick, root, actions[pick], stream)
                done += 1
            tally.add(rewards)
            if len(rewards) < len(alive):
                break
            sweeps += 1
            if sweeps >= MIN_SWEEPS:
                best = max(tally.mean(i) for i in alive)
                alive = [i for i in alive if (anchored and i == 0) or tally.mean(i) > best - DROP_C / math.sqrt(sweeps)]
        return tally

    def _rollout(self, root: Any, action: Action, rng: RandomSource, seat: int) -> float:
        state, _ = self.rules.game.apply(root, action)
        return self.rules.reward(root, self.rules.playout(root, state, rng, seat), seat)


class Tally:
    """The rewards of one decision's rollouts: per candidate their sum and number, and the paired
    differences against candidate 0 (the anchor) over the sweeps that played both."""

    def __init__(self, size: int) -> None:
        self.totals, self.counts = [0.0] * size, [0] * size
        self.diff, self.diff_sq, self.pairs = [0.0] * size, [0.0] * size, [0] * size

    def add(self, rewards: Mapping[int, float]) -> None:
        """One sweep's rewards, by candidate."""
        for pick, reward in rewards.items():
            self.totals[pick] += reward
            self.counts[pick] += 1
            if 0 in rewards and pick:
                delta = reward - rewards[0]
                self.diff[pick] += delta
                self.diff_sq[pick] += delta * delta
                self.pairs[pick] += 1

    def mean(self, pick: int) -> float:
        return self.totals[pick] / self.counts[pick] if self.counts[pick] else -math.inf

    def beats_anchor(self, z: float) -> int:
        """The candidate whose mean paired gain over candidate 0 is largest among those whose gain
        stays above 0 by ``z`` standard errors (at least ``MIN_SWEEPS`` pairs), else 0."""
        best, best_gain = 0, 0.0
        for pick in range(1, len(self.totals)):
            n = self.pairs[pick]
            if n < MIN_SWEEPS:
                continue
            gain = self.diff[pick] / n
            spread = math.sqrt(max(0.0, self.diff_sq[pick] / n - gain * gain) / (n - 1))
            if gain - z * spread > 0 and gain > best_gain:
                best, best_gain = pick, gain
        return best


class FlatMonteCarloBot(SearchBot):
    """The baseline: flat Monte Carlo, each candidate in turn, each rollout from its own determinization
    (no common deals, no elimination, no anchor: the best mean answers), the same rollouts and budget as
    ``SearchBot``."""

    name = "flat"
    anchored = False
    plans = False

    def sweeps(self, view: Mapping[str, Any], candidates: list[ActionJSON], rng: RandomSource) -> Tally:
        """The budget's rollouts round robin over ``candidates``, each from a deal of its own (a ``Tally``
        without pairs: no two rollouts share a deal)."""
        seat: int = view["viewer"] if "viewer" in view else view["to_act"][0]
        deadline = None if self.seconds is None else self.clock() + self.seconds
        tally = Tally(len(candidates))
        actions = [to_action(seat, body) for body in candidates]
        for done in range(self.iterations):
            if deadline is not None and done and self.clock() >= deadline:
                break
            pick = done % len(candidates)
            tally.add({pick: self._rollout(self.rules.determinize(view, rng), actions[pick], rng, seat)})
        return tally
