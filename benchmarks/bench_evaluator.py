"""Speed of ``games.engine.evaluator.hand_rank`` against a naive evaluator, treys and eval7.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_evaluator [--hands N] [--rounds R]

One run pre-generates seeded 7-card and 9-card hands, converts them to each library's own card
type outside the timed loops, then times every evaluator over the same hands, in interleaved
rounds, keeping each one's best round (so a burst of load from other processes hurts all of them
alike rather than one). The naive evaluator is slow, so it gets the first ``--naive-hands`` /
``--naive-hands-9`` of those hands; rates are per evaluation, so they stay comparable.

Before timing, every evaluator's results are checked to order the hands as ``hand_rank`` does.
Exits 1 if ours/naive on 7 cards < 40, ours/treys on 7 cards < 4 or ours/naive on 9 cards < 200.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.naive_evaluator import naive_best
from games.engine.cards import FULL_DECK, Card
from games.engine.evaluator import hand_rank

SEED = 20261122
TARGETS = {
    ("naive", 7): 40.0,
    ("treys", 7): 4.0,
    ("naive", 9): 200.0,
}


def make_hands(rng: random.Random, size: int, count: int) -> list[tuple[Card, ...]]:
    return [tuple(rng.sample(FULL_DECK, size)) for _ in range(count)]


def time_once(evaluate: Callable[..., Any], inputs: Sequence[Any], star: bool = False) -> float:
    """Seconds for one pass of ``evaluate`` over ``inputs`` (``evaluate(*x)`` when ``star``)."""
    if star:
        start = time.perf_counter()
        for item in inputs:
            evaluate(*item)
        return time.perf_counter() - start
    start = time.perf_counter()
    for item in inputs:
        evaluate(item)
    return time.perf_counter() - start


def orders_agree(ours: Sequence[int], theirs: Sequence[Any], *, higher_is_better: bool) -> bool:
    """True if ``theirs`` orders the hands as ``ours`` does, ties included.

    Sorting by ``theirs`` and comparing each consecutive pair under both scores is enough: equal
    scores must be equal ranks, and a step up in ``theirs`` must be a step in ``ours`` the right way.
    """
    sign = 1 if higher_is_better else -1
    order = sorted(range(len(theirs)), key=theirs.__getitem__)
    for a, b in zip(order, order[1:], strict=False):
        their_cmp = (theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
        our_cmp = (ours[a] > ours[b]) - (ours[a] < ours[b])
        if sign * their_cmp != our_cmp:
            return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands of each size (default 20000)")
    parser.add_argument("--naive-hands", type=int, default=2_000, help="7-card hands timed for naive (default 2000)")
    parser.add_argument("--naive-hands-9", type=int, default=400, help="9-card hands timed for naive (default 400)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds, best kept (default 3)")
    args = parser.parse_args(argv)

    import eval7
    import treys

    rng = random.Random(SEED)
    hands = {7: make_hands(rng, 7, args.hands), 9: make_hands(rng, 9, args.hands)}
    naive_inputs = {7: hands[7][: args.naive_hands], 9: hands[9][: args.naive_hands_9]}

    treys_evaluator = treys.Evaluator()
    treys_card = {card: treys.Card.new(card.code) for card in FULL_DECK}
    eval7_card = {card: eval7.Card(card.code) for card in FULL_DECK}

    def to_treys(hand: Sequence[Card]) -> tuple[list[int], list[int]]:
        """treys.Evaluator.evaluate(hand, board) takes 2 + 3..5 cards."""
        return [treys_card[c] for c in hand[:2]], [treys_card[c] for c in hand[2:]]

    treys_inputs = {7: [to_treys(h) for h in hands[7]]}
    eval7_inputs = {size: [[eval7_card[c] for c in h] for h in hands[size]] for size in (7, 9)}

    notes: list[str] = []
    try:
        treys_evaluator.evaluate(*to_treys(hands[9][0]))
    except KeyError:
        notes.append("treys: 9 cards not supported (its evaluate handles 5, 6 or 7 cards only)")
    else:
        treys_inputs[9] = [to_treys(h) for h in hands[9]]

    # Correctness first: every evaluator must order the hands as ours does.
    ours = {size: [hand_rank(h) for h in hands[size]] for size in (7, 9)}
    for size in (7, 9):
        n = len(naive_inputs[size])
        naive_scores = [naive_best(h) for h in naive_inputs[size]]
        if not orders_agree(ours[size][:n], naive_scores, higher_is_better=True):
            print(f"naive evaluator disagrees with hand_rank on {size} cards", file=sys.stderr)
            return 2
        if size in treys_inputs:
            scores = [treys_evaluator.evaluate(*item) for item in treys_inputs[size]]
            if not orders_agree(ours[size], scores, higher_is_better=False):
                print(f"treys disagrees with hand_rank on {size} cards", file=sys.stderr)
                return 2
        scores = [eval7.evaluate(item) for item in eval7_inputs[size]]
        if not orders_agree(ours[size], scores, higher_is_better=True):
            print(f"eval7 disagrees with hand_rank on {size} cards", file=sys.stderr)
            return 2

    runs: dict[tuple[str, int], tuple[Callable[..., Any], Sequence[Any], bool]] = {}
    for size in (7, 9):
        runs["ours", size] = (hand_rank, hands[size], False)
        runs["naive", size] = (naive_best, naive_inputs[size], False)
        if size in treys_inputs:
            runs["treys", size] = (treys_evaluator.evaluate, treys_inputs[size], True)
        runs["eval7", size] = (eval7.evaluate, eval7_inputs[size], False)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(args.rounds):
        for key, (evaluate, inputs, star) in runs.items():
            best[key] = min(best[key], time_once(evaluate, inputs, star))
    rate = {key: len(runs[key][1]) / best[key] for key in runs}

    print(f"hand evaluation, seed {SEED}, {args.hands} hands per size, best of {args.rounds} rounds")
    print(f"python {sys.version.split()[0]}, treys {_version('treys')}, eval7 {_version('eval7')}")
    print()
    print(f"{'evaluator':<10}{'cards':>6}{'hands':>8}{'evals/s':>14}{'us/eval':>10}")
    for (name, size), value in rate.items():
        print(f"{name:<10}{size:>6}{len(runs[name, size][1]):>8}{value:>14,.0f}{1e6 / value:>10.2f}")
    for note in notes:
        print(note)
    print()
    failed = False
    for (name, size), value in rate.items():
        if name == "ours":
            continue
        ratio = rate["ours", size] / value
        target = TARGETS.get((name, size))
        verdict = ""
        if target is not None:
            verdict = f"  (target >= {target:g}: {'ok' if ratio >= target else 'FAILED'})"
            failed = failed or ratio < target
        print(f"ours/{name} {size} cards: {ratio:8.2f}x{verdict}")
    return 1 if failed else 0


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
