"""The arena keeps what it played: a stopped run still reports its finished games, and recorded runs of one pairing
count together, each game once."""

from __future__ import annotations

import gzip
import json
import os
import random
import signal
import time

import pytest

from benchmarks import bench_arena
from games.engine.bots.search import shuffled, to_action
from games.engine.bots.shedding_basic import ShedBasicBot
from games.engine.poker.state import PokerState
from games.engine.protocol import Action
from games.engine.registry import get_game

QUICK = ["--game", "palace", "--bots", "basic,random", "--jobs", "1", "--seconds", "0", "--minutes", "5"]


def test_recorded_runs_count_together_each_game_once(tmp_path, capsys) -> None:
    record, packed = tmp_path / "games.jsonl", tmp_path / "more.jsonl.gz"
    for seed in ("a", "a"):
        assert bench_arena.main([*QUICK, "--games", "3", "--seed", seed, "--record", str(record)]) == 0
    assert len(record.read_text().splitlines()) == 6
    assert bench_arena.main([*QUICK, "--games", "3", "--seed", "b", "--record", str(packed)]) == 0
    assert len(gzip.decompress(packed.read_bytes()).splitlines()) == 3
    capsys.readouterr()

    assert bench_arena.main(["--combine", str(record), str(packed)]) == 0
    out = capsys.readouterr().out
    assert "6 recorded games from 2 file(s)" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[3:]}
    assert set(rows) == {"basic", "random"}
    assert int(rows["basic"][1]) == int(rows["random"][1]) == 6
    assert float(rows["basic"][2]) + float(rows["random"][2]) == 6.0


def test_records_of_other_settings_are_refused(tmp_path) -> None:
    heads_up, other = tmp_path / "heads-up.jsonl", tmp_path / "other.jsonl"
    assert bench_arena.main([*QUICK, "--games", "1", "--record", str(heads_up)]) == 0
    assert bench_arena.main([*QUICK, "--games", "1", "--bots", "random,basic", "--record", str(other)]) == 0
    with pytest.raises(SystemExit, match="other settings"):
        bench_arena.main(["--combine", str(heads_up), str(other)])
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with pytest.raises(SystemExit, match="not a recorded game"):
        bench_arena.main(["--combine", str(tmp_path / "junk.jsonl")])


def _record(path, seed: str, wins: list[int], bots=("search", "basic")) -> None:
    """Recorded games of ``seed``, game ``i`` won by ``bots[0]`` (its seat: the line-up rotated by ``i``) when
    ``wins[i]``, in ``bench_arena.recorder``'s format."""
    run = {
        "kind": "palace",
        "bots": list(bots),
        "options": {},
        "seconds": 0.25,
        "iterations": 10,
        "endgame_epsilon": None,
    }
    lines = []
    for index, won in enumerate(wins):
        names = [bots[(seat + index) % len(bots)] for seat in range(len(bots))]
        seats = [{"bot": name, "won": float(won if name == bots[0] else not won), "place": 1} for name in names]
        game = {"index": index, "seats": seats, "times": {}}
        lines.append(json.dumps({"run": run, "seed": seed, "commit": "abc", "game": game}))
    with path.open("a") as handle:
        handle.write("\n".join(lines) + "\n")


def test_a_paired_comparison_joins_the_games_on_their_deals(tmp_path, capsys) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    # Game by game: both won 0 and 5; the first alone 1, 2, 3 and 6; the second alone 4; neither 7.
    _record(first, "s", [1, 1, 1, 1, 0, 1, 1, 0])
    _record(second, "s", [1, 0, 0, 0, 1, 1, 0, 0, 1, 1])  # games 8 and 9 have no pair
    _record(second, "other", [1, 1, 1])  # another seed's deals: no pair either
    assert bench_arena.main(["--pair", str(first), "--against", str(second)]) == 0
    out = capsys.readouterr().out
    assert "8 games in both sides" in out
    assert "search won 6.0 of 8, 75.0%" in out and "search won 3.0 of 8, 37.5%" in out
    assert "both won 2, first alone 4, second alone 1, neither 1" in out
    assert "McNemar z = 1.34" in out  # (4 - 1) / sqrt(5)
    assert "first less second: +37.5%" in out

    assert bench_arena.main(["--pair", str(first), "--against", str(second), "--bot", "basic"]) == 0
    assert "second alone 4" in capsys.readouterr().out

    cheat = tmp_path / "cheat.jsonl"
    _record(cheat, "s", [1, 1, 1, 1, 1, 1, 1, 1], bots=("hands", "basic"))
    assert bench_arena.main(["--pair", str(cheat), "--against", str(first)]) == 0
    out = capsys.readouterr().out
    assert "'hands' against 'search' compared" in out
    assert "hands won 8.0 of 8" in out and "first alone 2, second alone 0" in out


def test_a_paired_comparison_refuses_what_cannot_pair(tmp_path) -> None:
    heads_up, four, elsewhere = tmp_path / "two.jsonl", tmp_path / "four.jsonl", tmp_path / "elsewhere.jsonl"
    _record(heads_up, "s", [1, 0])
    _record(four, "s", [1, 0], bots=("search", "basic", "basic", "basic"))
    _record(elsewhere, "t", [1, 0])
    with pytest.raises(SystemExit, match="not one line-up"):
        bench_arena.main(["--pair", str(heads_up), "--against", str(four)])
    with pytest.raises(SystemExit, match="no game is in both"):
        bench_arena.main(["--pair", str(heads_up), "--against", str(elsewhere)])
    other_seat = tmp_path / "other-seat.jsonl"
    _record(other_seat, "s", [1, 0], bots=("search", "random"))
    with pytest.raises(SystemExit, match="not one line-up"):
        bench_arena.main(["--pair", str(heads_up), "--against", str(other_seat)])
    with pytest.raises(SystemExit, match="no bot 'flat'"):
        bench_arena.main(["--pair", str(heads_up), "--against", str(heads_up), "--bot", "flat"])
    with pytest.raises(SystemExit) as error:
        bench_arena.main(["--pair", str(heads_up)])
    assert error.value.code == 2


def test_a_terminated_run_keeps_the_games_that_finished() -> None:
    config = {
        "kind": "palace",
        "bots": ["basic", "random"],
        "options": {},
        "seconds": 0,
        "iterations": 1,
        "seed": "stop",
        "endgame_epsilon": None,
    }
    seen: list[int] = []

    def stop_after_first(result: dict) -> None:
        seen.append(result["index"])
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGTERM)

    before = signal.getsignal(signal.SIGTERM)
    results, interrupted = bench_arena.play_games(config, 1000, 1, time.monotonic() + 300, stop_after_first)
    assert interrupted
    assert [result["index"] for result in results] == seen[:1] == [0]
    assert signal.getsignal(signal.SIGTERM) is before


def test_the_oracle_searches_the_real_deal() -> None:
    config = {
        "kind": "palace",
        "bots": ["oracle", "basic", "basic"],
        "options": {},
        "seconds": 0,
        "iterations": 3,
        "seed": "oracle",
        "endgame_epsilon": None,
    }
    result = bench_arena.play_game((0, config))
    assert sorted(seat["place"] for seat in result["seats"]) == [1, 2, 3]
    assert result["times"]["oracle"]

    oracle = bench_arena.make_bot("palace", "oracle", seconds=None, iterations=3)
    game, rng = get_game("palace"), random.Random("oracle")
    state = game.new_game({}, 3)
    while state.phase != bench_arena.PLAY:
        request = game.chance_request(state)
        if request is not None:
            action = Action(type="shuffle", cards=tuple(shuffled(request.cards, rng)))
        else:
            seat = game.to_act(state)[0]
            action = to_action(seat, ShedBasicBot().choose(game.view(state, seat), rng))
        state, _ = game.apply(state, action)
    oracle.rules.truth = state
    view = game.view(state, game.to_act(state)[0])
    assert oracle.rules.determinize(view, rng) is state

    def unseen(deal):
        return sorted([*deal.stock, *(card for row in deal.face_down for card in row if card is not None)])

    hands = bench_arena.make_bot("palace", "hands", seconds=None, iterations=3)
    hands.rules.truth = state
    deals = [hands.rules.determinize(view, rng) for _ in range(5)]
    for deal in deals:
        assert deal.hands == state.hands and deal.face_up == state.face_up and deal.pile == state.pile
        assert unseen(deal) == unseen(state) and len(deal.stock) == len(state.stock)
        assert [[card is None for card in row] for row in deal.face_down] == [
            [card is None for card in row] for row in state.face_down
        ]
    assert len({(deal.stock, deal.face_down) for deal in deals}) > 1, "the stock and face-down cards are dealt again"


def _dealt_points_match(rng: random.Random) -> PokerState:
    """A heads-up Palace Poker match under ``points``, its first hand dealt (shuffles from ``rng``)."""
    game = get_game("palace-poker")
    state = game.new_game({"points": True}, 2)
    while (request := game.chance_request(state)) is not None:
        state, _ = game.apply(state, Action(type="shuffle", cards=tuple(shuffled(request.cards, rng))))
    return state


def test_the_poker_cheat_deals_the_real_palaces_and_the_rest_at_random() -> None:
    game, rng = get_game("palace-poker"), random.Random("hands")
    state = _dealt_points_match(rng)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    other = 1 - seat
    assert None in view["seats"][other]["palace"], "the other palace is hidden from the seat"

    cheat = bench_arena.make_bot("palace-poker", "hands", seconds=None, iterations=3)
    cheat.rules.truth = state
    deals = [cheat.rules.determinize(view, rng) for _ in range(5)]
    for deal in deals:
        assert deal.palace == state.palace
        assert sorted([*deal.stock, *deal.discards]) == sorted([*state.stock, *state.discards])
        assert len(deal.stock) == len(state.stock) and len(deal.discards) == len(state.discards)
    assert len({deal.stock for deal in deals}) > 1, "the stock is dealt again"

    honest = bench_arena.make_bot("palace-poker", "search", seconds=None, iterations=3)
    assert any(honest.rules.determinize(view, rng).palace[other] != state.palace[other] for _ in range(5))


def test_the_later_poker_cheat_is_honest_until_the_other_seat_has_had_a_turn_and_the_first_one_after() -> None:
    game, rng = get_game("palace-poker"), random.Random("later")
    state = _dealt_points_match(rng)
    first = game.to_act(state)[0]
    other = 1 - first
    start = state
    assert bench_arena.silent(game.view(state, first), first)
    state, _ = game.apply(state, Action(type="buy", seat=first))
    assert game.to_act(state) == (first,), "a buy owes the discard step"
    assert bench_arena.silent(game.view(state, first), first), "the seat's own buy tells nothing of the other"
    state, _ = game.apply(state, Action(type="discard", seat=first))
    assert game.to_act(state) == (other,)
    assert not bench_arena.silent(game.view(state, other), other), "the dealer acts after the first seat"
    state, _ = game.apply(state, Action(type="buy", seat=other))
    state, _ = game.apply(state, Action(type="discard", seat=other, cards=state.soldiers[other]))
    view = game.view(state, first)
    assert game.to_act(state) == (first,) and not bench_arena.silent(view, first)

    later = bench_arena.make_bot("palace-poker", "hands-later", seconds=None, iterations=3)
    later.rules.truth = state
    assert all(later.rules.determinize(view, rng).palace == state.palace for _ in range(3)), "told, once he acted"
    later.rules.truth = start
    deals = [later.rules.determinize(game.view(start, first), rng) for _ in range(5)]
    assert any(deal.palace[other] != start.palace[other] for deal in deals), "honest before"

    first_only = bench_arena.make_bot("palace-poker", "hands-first", seconds=None, iterations=3)
    first_only.rules.truth = start
    assert all(first_only.rules.determinize(game.view(start, first), rng).palace == start.palace for _ in range(3))
    first_only.rules.truth = state
    assert any(first_only.rules.determinize(view, rng).palace[other] != state.palace[other] for _ in range(5))
