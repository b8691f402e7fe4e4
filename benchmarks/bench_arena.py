"""The bot arena: seeded matches between bots of one game, in parallel processes, with 95% intervals.

Run from the repository root, niced (the machine is shared), for example::

    nice -n 10 .venv/bin/python -m benchmarks.bench_arena --game palace --bots search,basic --games 200
    nice -n 10 .venv/bin/python -m benchmarks.bench_arena --game palace --bots search,basic,basic,basic
    nice -n 10 .venv/bin/python -m benchmarks.bench_arena --game palace-poker --bots search,basic --points
    nice -n 10 .venv/bin/python -m benchmarks.bench_arena --game palace-poker --bots basic,heuristic --points

``--bots`` is the line-up, one bot a seat; game ``i`` rotates it by ``i`` seats, so every bot sits in every
seat equally often. Bots: ``random``, ``basic``, ``search`` (``games.engine.bots.search.SearchBot``),
``flat`` (the flat Monte Carlo baseline: the same budget, each candidate in turn; in Palace with plain
rollouts, ``shedding_search.plain_rules``: uniform deals, ``basic`` with random moves to the end), in Palace
``sweeps`` (``search`` without its endgame planner: ``shedding_search.PLAN``), ``own`` (the search's own
rollout policy, ``shedding_search.own_action``, as a bot), ``oracle`` (``search`` told every hidden card and the
stock's order), ``hands`` (told the other hands only; the stock and face-down cards dealt at random as ever) and
``hands-exact`` (``hands`` whose rollouts play every seat as ``basic`` does, no random moves: against ``basic`` it
foresees the other seats' moves): cheats, only to bound what knowing more could gain (``OracleRules``); in
Palace Poker ``heuristic`` (``games.engine.bots.poker_heuristic``) and the cheats ``hands`` (``search`` told the
other palaces, ``PokerHandsRules``), ``hands-later`` (told them only once the other seat has had a turn in the
hand: honest where its view cannot say anything of them) and ``hands-first`` (told them only there). The search
bots stop at ``--iterations`` rollouts or ``--seconds`` a decision (0: no clock, so the run is reproducible from
its seed), whichever comes first.

Each game draws its shuffles and bots' randomness from ``random.Random(f"{seed}:{index}")``; when several
seats may act at once (Palace's setup and out-of-turn plays) one drawn from it goes first. The run stops
after ``--games`` games or ``--minutes`` of wall time (the games under way are dropped), whichever first,
or on Ctrl-C or SIGTERM: then too it reports the games that finished, and says it was interrupted.

``--record FILE`` appends each finished game to ``FILE`` as a JSON line (the run's settings, seed and commit
beside it; gzip-compressed when the name ends in ``.gz``), so that runs of one pairing made at different times
can be counted together: ``--combine FILE [FILE ...]`` reports over the recorded games instead of playing,
once each (a seed and index recorded twice count once), and refuses records of different settings. Which
commits the games were played at is printed with them: combining runs of different code is the reader's call,
not the script's. ``--pair FILE [FILE ...] --against FILE [FILE ...]`` compares two sets of recorded games of one
line-up (two versions of a bot, say, or a bot and a cheat) game by game on the same deals, joined on the seed and
the game's index: how often each side's bot (``--bot`` on both, default each line-up's first) won where the other
did not, the difference with its 95% interval and McNemar's z. Runs on different seeds differ by their deals more
than most changes do; the same seed makes them comparable.

Per bot name (over all its seats): games, wins (Palace: first out; Palace Poker: the match's only
winner, a shared win counts half) with the Wilson 95% interval, mean finishing place (Palace) or chips
a hand (Palace Poker with money) or points a match (``points``), and the p50 / p99 of its decision time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import random
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.harness import machine, percentile, raise_interrupt
from games.engine.bots.base import Bot, acting_seat
from games.engine.bots.poker_basic import PokerBasicBot
from games.engine.bots.poker_heuristic import PointsHeuristicBot
from games.engine.bots.poker_inference import stock_as_dealt
from games.engine.bots.poker_search import PokerSearchRules
from games.engine.bots.random_bot import RandomBot
from games.engine.bots.search import FlatMonteCarloBot, SearchBot, shuffled, to_action
from games.engine.bots.shedding_basic import ShedBasicBot
from games.engine.bots.shedding_search import ShedSearchRules, own_action, plain_rules
from games.engine.cards import parse_cards
from games.engine.poker.state import PLAY as POKER_PLAY
from games.engine.poker.state import PokerState
from games.engine.protocol import Action, LegalAction
from games.engine.registry import get_game
from games.engine.shedding.state import PLAY, ShedState

MAX_STEPS = 200_000
MAX_JOBS = 2
"""The machine has 2 cores shared by several people: never more processes than that."""
PROGRESS_SECONDS = 60
"""A line on stderr at most this often while games finish (games done, seconds): a run takes up to an hour."""
POKER_CHEATS = {"hands": "always", "hands-later": "later", "hands-first": "first"}
"""The Palace Poker cheats by name, each with when ``PokerHandsRules`` tells it the other palaces."""
POKER_MONEY_OPTIONS = {"max_hands": 20}
"""A Palace Poker match with money in the arena: 20 hands (the most chips win); a match to the last chip
between two ``basic`` bots runs about 300 hands."""


def make_bot(
    kind: str, name: str, *, seconds: float | None, iterations: int, endgame_epsilon: float | None = None
) -> Bot:
    """The bot ``name`` for ``kind``; search bots with the given budget; ``endgame_epsilon``: Palace's ``search``
    with that share of random moves in its rollouts once the stock is empty (``None``: the bot's own)."""
    poker = kind == "palace-poker"
    if name == "random":
        return RandomBot()
    if name == "basic":
        return PokerBasicBot() if poker else ShedBasicBot()
    if name == "heuristic" and poker:
        return PointsHeuristicBot()
    if name == "own" and not poker:
        return OwnPolicyBot()
    if name in POKER_CHEATS and poker:
        return SearchBot(PokerHandsRules(told=POKER_CHEATS[name]), seconds=seconds, iterations=iterations)
    if name in ("oracle", "hands", "hands-exact") and not poker:
        exact = {"epsilon": 0, "endgame_epsilon": 0} if name == "hands-exact" else {}
        rules = OracleRules(hands_only=name != "oracle", **exact)
        return SearchBot(rules, seconds=seconds, iterations=iterations)
    if name in ("search", "flat", "sweeps"):
        if poker:
            rules: Any = PokerSearchRules()
        elif name == "flat":
            rules = plain_rules()
        elif name == "sweeps":
            rules = ShedSearchRules(plan="never")
        elif endgame_epsilon is None:
            rules = ShedSearchRules()
        else:
            rules = ShedSearchRules(endgame_epsilon=endgame_epsilon)
        cls = FlatMonteCarloBot if name == "flat" else SearchBot
        return cls(rules, seconds=seconds, iterations=iterations)
    raise SystemExit(f"no bot {name!r} for {kind!r}")


class OracleRules(ShedSearchRules):
    """Palace's search rules whose deals are cut from the real state (``truth``, set by ``play_game`` before each
    of the bot's decisions). A cheat for the arena only, to bound what the search could gain by knowing more.
    ``hands_only`` false: every deal is the real one (the other hands, every face-down card, the stock in its
    order); true: the other hands as they are, the stock and every face-down card (the seat's own too) dealt
    again at random among themselves, as nobody at the table can know them: the most any reading of the other
    hands could tell. The other seats' moves in the rollouts are the rollout policy's, as the search's."""

    truth: ShedState | None = None

    def __init__(self, *, hands_only: bool = False, **options: Any) -> None:
        super().__init__(**options)
        self.hands_only = hands_only

    def determinize(self, view: Any, rng: Any) -> ShedState:
        truth = self.truth
        if truth is None or truth.phase != PLAY:
            return super().determinize(view, rng)
        if not self.hands_only:
            return truth
        unseen = shuffled([*truth.stock, *(card for row in truth.face_down for card in row if card is not None)], rng)
        rest = iter(unseen[len(truth.stock) :])
        face_down = tuple(tuple(None if card is None else next(rest) for card in row) for row in truth.face_down)
        return replace(truth, stock=tuple(unseen[: len(truth.stock)]), face_down=face_down)


class PokerHandsRules(PokerSearchRules):
    """Palace Poker's search rules whose deals hold every palace as it really is (``truth``, set by ``play_game``
    before each of the bot's decisions), the stock and the face-down discards dealt at random among the cards
    left: told the other hands, as ``OracleRules`` with ``hands_only`` in Palace. A cheat for the arena only, to
    bound what any reading of the opponent's cards could gain. ``told``: ``"always"``; ``"later"``: heads-up,
    honest (the search's own deals) while the other seat has had no turn in the hand (``silent``), where no
    reading can know more than the rules and the face-up cards tell, and told after: what the best reading of
    his decisions could give; ``"first"``: the other way round, told only while he is silent."""

    truth: PokerState | None = None

    def __init__(self, *, told: str = "always") -> None:
        super().__init__()
        if told not in ("always", "later", "first"):
            raise ValueError(f"told: {told!r}")
        self.told = told

    def determinize(self, view: Any, rng: Any) -> PokerState:
        truth, me = self.truth, acting_seat(view)
        if truth is None or truth.phase != POKER_PLAY or truth.hand_number != view["hand"]:
            return super().determinize(view, rng)
        if self.told != "always" and (self.told == "later") == silent(view, me):
            return super().determinize(view, rng)
        state = self._deal(view, me, rng)
        real = {card for row in truth.palace for card in row}
        dealt = (*(card for row in state.palace for card in row), *state.discards, *state.stock)
        rest = shuffled([card for card in dealt if card not in real], rng)
        cut = len(state.discards)
        return replace(state, palace=truth.palace, discards=tuple(rest[:cut]), stock=tuple(rest[cut:]))


def silent(view: Any, me: int) -> bool:
    """Heads-up, whether the other seat has had no turn yet in the hand ``view`` shows to ``me``: ``me`` is first
    to act (not the dealer), nothing discarded, the other holds no soldier, and the stock is short of what the
    deal left by ``me``'s soldiers alone (palace-poker.txt, "The Play": turns go clockwise from the dealer's
    left). A stay of his after a buy of ``me``'s would look silent too (``basic`` under ``points`` never stays
    while a soldier fits: it buys)."""
    rows = [row for row in view["seats"] if row["banner"] is not None]
    if len(rows) != 2 or view["dealer"] == me or view["discard_size"]:
        return False
    mine = next(row for row in rows if row["seat"] == me)
    if any(row["soldiers"] for row in rows if row["seat"] != me):
        return False
    return view["stock_size"] + len(mine["soldiers"]) == stock_as_dealt(view)


class OwnPolicyBot(ShedBasicBot):
    """Palace: ``ShedBasicBot`` in the setup, ``shedding_search.own_action`` in play (the searching seat's own
    rollout decisions), so that ``--bots own,basic`` measures that policy against ``basic``'s."""

    name = "own"

    def choose(self, view: dict[str, Any], rng: Any) -> dict[str, Any]:
        legal = view.get("legal_actions") or []
        if view.get("phase") != "play" or not legal:
            return super().choose(view, rng)
        entries = [
            LegalAction(
                type=entry["type"],
                cards=parse_cards(entry.get("cards", [])),
                min_cards=entry.get("min_cards", 0),
                max_cards=entry.get("max_cards", 0),
            )
            for entry in legal
        ]
        action = own_action(entries, view["viewer"], view["turn"], len(view["pile"]))
        body: dict[str, Any] = {"type": action.type}
        if action.cards:
            body["cards"] = [card.code for card in action.cards]
        return body


def play_game(task: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    """One game of the arena: ``{"index", "seats": [{"bot", "won", "place", "chips", "points"}], "times":
    {bot: [seconds]}, "hands"}``."""
    index, config = task
    kind, lineup = config["kind"], config["bots"]
    seats = len(lineup)
    names = [lineup[(seat + index) % seats] for seat in range(seats)]
    budget = {
        "seconds": config["seconds"] or None,
        "iterations": config["iterations"],
        "endgame_epsilon": config["endgame_epsilon"],
    }
    bots = [make_bot(kind, name, **budget) for name in names]
    rng = random.Random(f"{config['seed']}:{index}")
    game = get_game(kind)
    state = game.new_game(config["options"], seats)
    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            break
        request = game.chance_request(state)
        if request is not None:
            state, _ = game.apply(state, Action(type="shuffle", cards=tuple(shuffled(request.cards, rng))))
            continue
        to_act = game.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        view = game.view(state, seat)
        rules = getattr(bots[seat], "rules", None)
        if isinstance(rules, (OracleRules, PokerHandsRules)):
            rules.truth = state
        started = time.perf_counter()
        body = bots[seat].choose(view, rng)
        times[names[seat]].append(time.perf_counter() - started)
        state, _ = game.apply(state, to_action(seat, body))
    else:
        raise RuntimeError(f"game {index} did not end within {MAX_STEPS} steps")
    return {"index": index, "seats": _outcomes(kind, state, names, config["options"]), "times": dict(times)}


def _outcomes(kind: str, state: Any, names: list[str], options: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for seat, name in enumerate(names):
        if kind == "palace":
            place = state.order.index(seat) + 1
            out.append({"bot": name, "won": float(place == 1), "place": place})
            continue
        winners = tuple(state.winners)
        won = (1.0 if len(winners) == 1 else 0.5) if seat in winners else 0.0
        start = options.get("starting_stack", 1000)
        chips = (state.stacks[seat] - start) / max(1, state.hand_number)
        points = state.scores[seat] if options.get("points") else None
        out.append({"bot": name, "won": won, "chips": chips, "points": points})
    return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95% for ``z`` 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(kind: str, results: list[dict[str, Any]], options: dict[str, Any]) -> list[str]:
    """The table lines: one per bot name."""
    rows: dict[str, dict[str, Any]] = defaultdict(lambda: {"n": 0, "wins": 0.0, "measure": [], "times": []})
    for result in results:
        for seat in result["seats"]:
            row = rows[seat["bot"]]
            row["n"] += 1
            row["wins"] += seat["won"]
            key = "place" if kind == "palace" else ("points" if options.get("points") else "chips")
            row["measure"].append(seat[key])
        for name, times in result["times"].items():
            rows[name]["times"].extend(times)
    label = "mean place" if kind == "palace" else ("points/match" if options.get("points") else "chips/hand")
    lines = [
        f"{'bot':<12} {'seats':>6} {'wins':>7} {'win rate':>9} {'95% interval':>15} {label:>13} "
        f"{'decisions':>10} {'p50 ms':>8} {'p99 ms':>8}"
    ]
    for name, row in rows.items():
        low, high = wilson(row["wins"], row["n"])
        mean = sum(row["measure"]) / len(row["measure"])
        p50, p99 = percentile(row["times"], 0.5) * 1000, percentile(row["times"], 0.99) * 1000
        lines.append(
            f"{name:<12} {row['n']:>6} {row['wins']:>7.1f} {row['wins'] / row['n']:>9.1%} "
            f"{f'{low:.1%}-{high:.1%}':>15} {mean:>13.2f} {len(row['times']):>10} {p50:>8.1f} {p99:>8.1f}"
        )
    return lines


RUN_KEYS = ("kind", "bots", "options", "seconds", "iterations", "endgame_epsilon")
"""A run's settings that games counted together must share (the seed may differ: it only picks the deals)."""


def _ignore_interrupts() -> None:
    """A worker's initializer: Ctrl-C goes to the whole process group, and only the parent decides what to do;
    the parent's ``terminate()`` (SIGTERM) ends a worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def play_games(
    config: dict[str, Any],
    games: int,
    jobs: int,
    deadline: float,
    on_result: Callable[[dict[str, Any]], None] = lambda result: None,
) -> tuple[list[dict[str, Any]], bool]:
    """Games ``0 .. games - 1`` of ``config`` on ``jobs`` processes until ``deadline`` (``time.monotonic()``):
    ``(results sorted by index, interrupted)``. ``on_result`` sees each game as it finishes. Ctrl-C (a
    ``KeyboardInterrupt``; SIGINT or SIGTERM while this runs) stops the workers and keeps what finished."""
    results: list[dict[str, Any]] = []
    started = shown = time.monotonic()
    interrupted = False
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts)
    # SIGINT too, explicitly: a run started in the background by a script inherits SIGINT ignored, and
    # ``kill -INT`` should still end it with a report.
    previous = {signum: signal.signal(signum, raise_interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        for result in pool.imap_unordered(play_game, [(index, config) for index in range(games)]):
            results.append(result)
            on_result(result)
            if time.monotonic() - shown >= PROGRESS_SECONDS:
                shown = time.monotonic()
                print(f"{len(results)} of {games} games, {shown - started:.0f} s", file=sys.stderr, flush=True)
            if time.monotonic() > deadline:
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        pool.terminate()
        pool.join()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    results.sort(key=lambda result: result["index"])
    return results, interrupted


def commit() -> str:
    """The commit the code runs at (``+dirty`` when tracked files changed), or ``unknown`` without git."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],  # noqa: S607  (git from PATH, as a person runs it)
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],  # noqa: S607
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def _open(path: Path, mode: str) -> Any:
    """``path`` as text, gzip-compressed when its name ends in ``.gz`` (appending adds a gzip member)."""
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")
    return path.open(mode, encoding="utf-8")


def recorder(path: Path, config: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """``on_result`` for :func:`play_games` appending each game to ``path`` as one JSON line:
    ``{"run": {RUN_KEYS...}, "seed", "commit", "game": result}`` (decision times to 10 microseconds: a fifth of
    the size compressed), written at once (a run stopped by any means keeps every game it finished)."""
    run = {key: config[key] for key in RUN_KEYS}
    at = commit()

    def record(result: dict[str, Any]) -> None:
        game = {**result, "times": {bot: [round(t, 5) for t in times] for bot, times in result["times"].items()}}
        with _open(path, "a") as handle:
            handle.write(json.dumps({"run": run, "seed": config["seed"], "commit": at, "game": game}) + "\n")

    return record


def combined(paths: Iterable[Path]) -> tuple[dict[str, Any], list[dict[str, Any]], Counter[str]]:
    """The recorded games of ``paths``: ``(their run's settings, the games, games per commit)``, each seed and
    index once. ``SystemExit`` when a file is missing or unreadable, holds no game, or records of two runs'
    settings (``RUN_KEYS``) differ."""
    run, games, commits = recorded(paths)
    return run, list(games.values()), commits


def recorded(paths: Iterable[Path]) -> tuple[dict[str, Any], dict[tuple[str, int], dict[str, Any]], Counter[str]]:
    """``combined``, the games keyed by their seed and index."""
    run: dict[str, Any] | None = None
    games: dict[tuple[str, int], dict[str, Any]] = {}
    commits: Counter[str] = Counter()
    for path in paths:
        try:
            with _open(path, "r") as handle:
                lines = handle.read().splitlines()
        except (OSError, EOFError, UnicodeDecodeError) as error:
            raise SystemExit(f"{path}: {getattr(error, 'strerror', None) or error}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                settings, seed, game = record["run"], str(record["seed"]), record["game"]
                key = (seed, int(game["index"]))
            except (ValueError, KeyError, TypeError):
                raise SystemExit(f"{path}:{number}: not a recorded game") from None
            if run is None:
                run = settings
            elif settings != run:
                raise SystemExit(f"{path}:{number}: a run of other settings ({settings}, not {run})")
            if key not in games:
                games[key] = game
                commits[str(record.get("commit", "unknown"))] += 1
    if run is None:
        raise SystemExit("no recorded game in " + ", ".join(str(path) for path in paths))
    return run, games, commits


PAIR_KEYS = ("kind", "options")
"""What two sides of a paired comparison must share besides the line-up (the budget may differ)."""


def paired(
    first: dict[tuple[str, int], dict[str, Any]], second: dict[tuple[str, int], dict[str, Any]], bots: tuple[str, str]
) -> dict[str, Any]:
    """The wins game by game of ``bots[0]`` in ``first`` and ``bots[1]`` in ``second``, two sets of recorded games
    (``recorded``) of one line-up but for those two, joined on each game's seed and index: the same deals, since
    game ``i`` of a seed deals the same cards and seats the line-up the same way whatever the bots do.

    Returns ``n`` (games in both), each side's ``wins`` (sums over the bot's seats: a shared win counts half),
    ``both``, ``first_only``, ``second_only`` and ``neither`` (a game counts for the side whose bot won more in
    it), and ``diff`` / ``low`` / ``high``: the mean difference of the win rates, first less second, with its 95%
    interval (normal, from the spread of the games' differences)."""

    def wins(game: dict[str, Any], bot: str) -> float:
        return float(sum(seat["won"] for seat in game["seats"] if seat["bot"] == bot))

    keys = sorted(first.keys() & second.keys())
    pairs = [(wins(first[key], bots[0]), wins(second[key], bots[1])) for key in keys]
    n = len(pairs)
    deltas = [a - b for a, b in pairs]
    diff = sum(deltas) / n if n else 0.0
    spread = math.sqrt(sum((d - diff) ** 2 for d in deltas) / (n - 1) / n) if n > 1 else 0.0
    return {
        "n": n,
        "wins": (sum(a for a, _ in pairs), sum(b for _, b in pairs)),
        "both": sum(1 for a, b in pairs if a == b and a > 0),
        "neither": sum(1 for a, b in pairs if a == b == 0),
        "first_only": sum(1 for a, b in pairs if a > b),
        "second_only": sum(1 for a, b in pairs if b > a),
        "diff": diff,
        "low": diff - 1.96 * spread,
        "high": diff + 1.96 * spread,
    }


def pair_report(first: list[Path], second: list[Path], bot: str | None) -> list[str]:
    """The lines of ``--pair FIRST... --against SECOND...``: each side's recorded games (``recorded``), joined on
    their seed and index (``paired``), with McNemar's z over the games one side won and the other did not. The bot
    compared: ``bot`` on both sides, or each line-up's first (two versions of one bot, or a bot and a cheat, named
    apart). ``SystemExit`` when the sides' line-ups differ elsewhere (or their ``PAIR_KEYS``), the bot is missing
    from one, or no game is in both."""
    run_a, games_a, commits_a = recorded(first)
    run_b, games_b, commits_b = recorded(second)
    names = (bot, bot) if bot else (run_a["bots"][0], run_b["bots"][0])
    for run, name in ((run_a, names[0]), (run_b, names[1])):
        if name not in run["bots"]:
            raise SystemExit(f"no bot {name!r} in the line-up {','.join(run['bots'])}")
    shapes = [
        (*(run[key] for key in PAIR_KEYS), [None if one == name else one for one in run["bots"]])
        for run, name in ((run_a, names[0]), (run_b, names[1]))
    ]
    if shapes[0] != shapes[1]:
        raise SystemExit(f"not one line-up: {shapes[0]} against {shapes[1]} (None: the bot compared)")
    result = paired(games_a, games_b, names)
    n = result["n"]
    if not n:
        raise SystemExit("no game is in both sides (pairs are joined on the seed and the game's index)")
    b, c = result["first_only"], result["second_only"]
    z = (b - c) / math.sqrt(b + c) if b + c else 0.0

    def side(label: str, paths: list[Path], run: dict[str, Any], commits: Counter[str], name: str, won: float) -> str:
        low, high = wilson(won, n)
        return (
            f"{label}: {', '.join(str(path) for path in paths)} (budget {run['seconds'] * 1000:.0f} ms; played at "
            + ", ".join(f"{at} ({count})" for at, count in sorted(commits.items()))
            + f"): {name} won {won:.1f} of {n}, {won / n:.1%} ({low:.1%}-{high:.1%})"
        )

    compared = repr(names[0]) if names[0] == names[1] else f"{names[0]!r} against {names[1]!r}"
    return [
        f"{run_a['kind']} {len(run_a['bots'])} seats, line-up {','.join(run_a['bots'])}: {n} games in both sides "
        f"(joined on seed and index), {compared} compared",
        side("first", first, run_a, commits_a, names[0], result["wins"][0]),
        side("second", second, run_b, commits_b, names[1], result["wins"][1]),
        f"both won {result['both']}, first alone {b}, second alone {c}, neither {result['neither']}",
        f"first less second: {result['diff']:+.1%} ({result['low']:+.1%} to {result['high']:+.1%}, 95%); "
        f"McNemar z = {z:.2f}, two-sided p = {math.erfc(abs(z) / math.sqrt(2)):.3f}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("palace", "palace-poker"), default="palace")
    parser.add_argument("--bots", default="search,basic", help="the line-up, comma-separated, one bot a seat")
    parser.add_argument("--points", action="store_true", help="Palace Poker without money (the points variation)")
    parser.add_argument("--options", default="{}", help="more game options, as JSON")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=0.25, help="search budget a decision; 0: no clock")
    parser.add_argument("--iterations", type=int, default=100_000, help="search rollouts a decision at most")
    parser.add_argument("--seed", default="arena")
    parser.add_argument(
        "--endgame-epsilon",
        type=float,
        default=None,
        help="Palace's search: the share of random moves in its rollouts once the stock is empty (default: its own)",
    )
    parser.add_argument("--record", type=Path, help="append each finished game to this file (JSON lines)")
    parser.add_argument(
        "--combine", type=Path, nargs="+", metavar="FILE", help="report over recorded games instead of playing"
    )
    parser.add_argument(
        "--pair",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="compare these recorded games with --against's, game by game on the same deals, instead of playing",
    )
    parser.add_argument("--against", type=Path, nargs="+", metavar="FILE", help="the other side of --pair")
    parser.add_argument("--bot", help="the bot --pair compares on both sides (default: each line-up's first)")
    args = parser.parse_args(argv)
    if args.pair or args.against:
        if not (args.pair and args.against):
            parser.error("--pair and --against go together")
        print(f"machine: {machine()}")
        for line in pair_report(args.pair, args.against, args.bot):
            print(line)
        return 0
    if args.combine:
        run, results, commits = combined(args.combine)
        print(f"machine: {machine()}")
        print(
            f"{run['kind']} {len(run['bots'])} seats, line-up {','.join(run['bots'])}, options "
            f"{json.dumps(run['options'])}, search budget {run['seconds'] * 1000:.0f} ms / {run['iterations']} "
            f"rollouts: {len(results)} recorded games from {len(args.combine)} file(s), played at "
            + ", ".join(f"{at} ({count})" for at, count in sorted(commits.items()))
        )
        for line in report(run["kind"], results, run["options"]):
            print(line)
        return 0
    options = dict(POKER_MONEY_OPTIONS) if args.game == "palace-poker" and not args.points else {}
    options.update({"points": True} if args.points else {})
    options.update(json.loads(args.options))
    config = {
        "kind": args.game,
        "bots": args.bots.split(","),
        "options": options,
        "seconds": args.seconds,
        "iterations": args.iterations,
        "seed": args.seed,
        "endgame_epsilon": args.endgame_epsilon,
    }
    jobs = max(1, min(MAX_JOBS, args.jobs))
    started = time.monotonic()
    on_result = recorder(args.record, config) if args.record else (lambda result: None)
    results, interrupted = play_games(config, args.games, jobs, started + args.minutes * 60, on_result)
    print(f"machine: {machine()}")
    print(
        f"{args.game} {len(config['bots'])} seats, line-up {args.bots}, options {json.dumps(options)}, "
        f"search budget {args.seconds * 1000:.0f} ms / {args.iterations} rollouts, seed {args.seed!r}, "
        + ("" if args.endgame_epsilon is None else f"search's endgame epsilon {args.endgame_epsilon}, ")
        + f"{len(results)} of {args.games} games in {time.monotonic() - started:.0f} s on {jobs} processes"
        + (" (interrupted)" if interrupted else "")
    )
    if not results:
        print("no game finished")
        return 1
    for line in report(args.game, results, options):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
