"""The search bot (games/engine/bots/search.py) of both games: it decides from its seat's view alone, its
determinizations agree with that view, and it only ever answers a legal action.

Rules: palace-poker.txt and palace-shedding-a.txt / -b.txt as the engines implement them; the engines'
``apply`` judges legality. Budgets here are rollout counts, never time (``seconds=None``): the decisions
are pure functions of the view and the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.bots import bot_names, get_bot
from games.engine.bots.poker_basic import PokerBasicBot
from games.engine.bots.poker_search import PokerSearchRules
from games.engine.bots.random_bot import RandomBot
from games.engine.bots.search import FlatMonteCarloBot, SearchBot, shuffled, to_action
from games.engine.bots.shedding_basic import ShedBasicBot
from games.engine.bots.shedding_search import (
    FIRST_WEIGHT,
    HIGH_PLAIN,
    SMALL_PILE,
    ShedSearchRules,
    basic_action,
    own_action,
    plain_rules,
)
from games.engine.bots.shedding_tree import TreePlanner, move_key
from games.engine.errors import EngineError
from games.engine.poker import PALACE_POKER
from games.engine.poker.state import PokerState
from games.engine.protocol import Action
from games.engine.shedding import PALACE
from games.engine.shedding.legal import legal_actions
from games.engine.shedding.state import PLAY, ShedState

DECISIONS = 5_000
"""Random decisions per game (10,000 over both)."""
KINDS = ("palace", "palace-poker")
GAMES = {"palace": PALACE, "palace-poker": PALACE_POKER}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "palace": [{}, {"out_of_turn_four": True, "two_effect": "play_again"}, {"face_up_play": "into_hand"}],
    "palace-poker": [{"starting_stack": 60}, {"points": True}, {"betting": "no_limit", "starting_stack": 80}],
}


def _rules(kind: str) -> Any:
    return ShedSearchRules() if kind == "palace" else PokerSearchRules()


class _Shallow:
    """A game's ``Searchable`` whose rollouts stop at once: the search's own steps (determinize, apply a
    candidate, score, pick) at a fraction of a rollout's cost."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.game, self.policy, self.epsilon = rules.game, rules.policy, rules.epsilon
        self.anchor_z = rules.anchor_z

    def candidates(self, view, rng):
        return self.rules.candidates(view, rng)

    def determinize(self, view, rng):
        return self.rules.determinize(view, rng)

    def at_horizon(self, root, state):
        return True

    def playout(self, root, state, rng, seat=None):
        return state

    def reward(self, root, state, seat):
        return self.rules.reward(root, state, seat)

    def planner(self, view, count):
        return None


def _decisions(kind: str, count: int, seed: int) -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """``(state, seat, view)`` at ``count`` decisions of random and basic play of ``kind``, across options."""
    game, rng = GAMES[kind], random.Random(seed)
    policies = [RandomBot(), ShedBasicBot() if kind == "palace" else PokerBasicBot()]
    made = 0
    while made < count:
        seats = rng.choice([2, 2, 3, 4])
        state = game.new_game(rng.choice(OPTIONS[kind]), seats)
        players = [rng.choice(policies) for _ in range(seats)]
        while not game.is_over(state) and made < count:
            request = game.chance_request(state)
            if request is not None:
                state, _ = game.apply(state, Action(type="shuffle", cards=tuple(shuffled(request.cards, rng))))
                continue
            seat = rng.choice(game.to_act(state))
            view = game.view(state, seat)
            yield state, seat, view
            made += 1
            state, _ = game.apply(state, to_action(seat, players[seat].choose(view, rng)))


def _hidden_swapped(kind: str, state: Any, seat: int, rng: random.Random) -> Any:
    """The same position with the cards ``seat`` cannot see dealt again among the places it cannot see."""
    if kind == "palace-poker":
        view = PALACE_POKER.view(state, seat)
        hidden_seats = [row["seat"] for row in view["seats"] if row["palace"] and row["palace"][0] is None]
        pool = [card for other in hidden_seats for card in state.palace[other]] + list(state.stock)
        pool = shuffled(pool, rng)
        palace = list(state.palace)
        for other in hidden_seats:
            palace[other] = tuple(pool.pop() for _ in state.palace[other])
        return PokerState(**{**_fields(state), "palace": tuple(palace), "stock": tuple(pool)})
    pool = list(state.stock)
    for other in range(state.seats):
        pool += [card for card in state.face_down[other] if card is not None]
    pool = shuffled(pool, rng)
    down = tuple(tuple(None if card is None else pool.pop() for card in row) for row in state.face_down)
    return ShedState(**{**_fields(state), "face_down": down, "stock": tuple(pool)})


def _fields(state: Any) -> dict[str, Any]:
    return {name: getattr(state, name) for name in state.__dataclass_fields__}


def test_the_search_bot_is_registered_for_both_games():
    for kind in KINDS:
        assert "search" in bot_names(kind)
        bot = get_bot(kind, "search")
        assert isinstance(bot, SearchBot)
        assert bot.seconds == pytest.approx(0.25)


@pytest.mark.parametrize("kind", KINDS)
def test_a_decision_depends_only_on_the_seats_view(kind):
    """Given two states that differ only in cards hidden from the deciding seat (other palaces or
    face-down cards, the stock's order), when the search bot decides from each seat's view with the same
    seed, then it takes the same action; and the two states did differ."""
    game, rng = GAMES[kind], random.Random(3)
    bot = SearchBot(_rules(kind), seconds=None, iterations=8)
    compared = 0
    for state, seat, view in _decisions(kind, 400, seed=4):
        if len(bot.rules.candidates(view, random.Random(0))) < 2 or state.phase != PLAY or rng.random() < 0.9:
            continue
        other = _hidden_swapped(kind, state, seat, rng)
        if other == state:
            continue
        assert game.view(other, seat) == view
        assert bot.choose(game.view(other, seat), random.Random(9)) == bot.choose(view, random.Random(9))
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("kind", KINDS)
def test_a_determinization_shows_the_seat_exactly_its_view(kind):
    """Given random positions, when the search determinizes the deciding seat's view, then that seat's
    view of the sampled state is its real view, and every candidate is legal there and in the real state."""
    game, rules, rng = GAMES[kind], _rules(kind), random.Random(5)
    checked = 0
    for state, seat, view in _decisions(kind, 1_500, seed=6):
        candidates = rules.candidates(view, rng)
        for body in candidates:
            game.apply(state, to_action(seat, body))
        if state.phase != PLAY:
            continue
        sampled = rules.determinize(view, rng)
        for body in candidates:
            game.apply(sampled, to_action(seat, body))
        seen = game.view(sampled, seat)
        assert {key: seen[key] for key in view if key != "to_act"} == {k: v for k, v in view.items() if k != "to_act"}
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("cls", [SearchBot, FlatMonteCarloBot], ids=["search", "flat"])
def test_the_search_never_takes_an_illegal_action(kind, cls):
    """Given 5,000 decisions of random and basic play per game (10,000 over both), when the search bot (a
    few shallow rollouts) decides each from the deciding seat's view, then the engine accepts its action.
    One game each runs with full rollouts to the horizon."""
    game = GAMES[kind]
    shallow = cls(_Shallow(_rules(kind)), seconds=None, iterations=3)
    rng = random.Random(7)
    count = DECISIONS if cls is SearchBot else DECISIONS // 10
    for state, seat, view in _decisions(kind, count, seed=8):
        game.apply(state, to_action(seat, shallow.choose(view, rng)))
    deep = cls(_rules(kind), seconds=None, iterations=6)
    for state, seat, view in _decisions(kind, 60, seed=9):
        game.apply(state, to_action(seat, deep.choose(view, rng)))


def test_the_shedding_simulation_plays_as_apply_does():
    """Given random decisions of Palace's play phase, when each is applied both by ``PALACE.apply`` and in
    place on a ``PALACE.simulation`` of the state, then the simulation's draft freezes to the state that
    ``apply`` returns."""
    compared = 0
    for state, seat, view in _decisions("palace", 3_000, seed=10):
        if state.phase != PLAY:
            continue
        action = to_action(seat, RandomBot().choose(view, random.Random(compared)))
        after, _ = PALACE.apply(state, action)
        sim = PALACE.simulation(state)
        sim.play(action)
        assert sim.t.freeze() == after
        compared += 1
    assert compared > 1_000


def test_the_search_refuses_a_view_without_its_decision():
    state = PALACE.new_game({}, 2)
    with pytest.raises(EngineError) as info:
        SearchBot(ShedSearchRules(), seconds=None, iterations=2).choose(PALACE.view(state, 0), random.Random(0))
    assert info.value.code == "no_decision"


def test_the_rollouts_native_basic_decides_as_the_basic_bot():
    """Given random positions of Palace's play phase (palace-shedding-a.txt ¶11-20 as the engine
    implements them), when the rollout's ``basic_action`` decides from the engine's legal entries, then it
    takes the action ``ShedBasicBot`` takes from the seat's view."""
    bot, compared = ShedBasicBot(), 0
    for state, seat, view in _decisions("palace", 3_000, seed=11):
        if state.phase != PLAY:
            continue
        native = basic_action(legal_actions(state, seat), seat, state.turn, len(state.pile))
        assert native == to_action(seat, bot.choose(view, random.Random(0)))
        compared += 1
    assert compared > 1_000


def test_the_searchers_own_rollout_policy_differs_from_basic_only_by_its_two_rules():
    """Given random positions of Palace's play phase, when ``own_action`` (the searching seat's rollout
    decisions) decides, then it takes ``basic_action``'s action but where its two rules say a two: a lowest
    plain play of a queen or higher on a pile of at most two cards, or no plain play at all (then ``basic``
    may play a ten); the two it plays is legal (the engine applies it)."""
    differ = 0
    for state, seat, _view in _decisions("palace", 1_000, seed=17):
        if state.phase != PLAY:
            continue
        legal = legal_actions(state, seat)
        own, basic = (
            own_action(legal, seat, state.turn, len(state.pile)),
            basic_action(legal, seat, state.turn, len(state.pile)),
        )
        if own == basic:
            continue
        differ += 1
        plain = [entry.cards[0].rank for entry in legal if entry.type == "play" and entry.cards[0].rank not in (2, 10)]
        assert seat == state.turn and own.type == "play" and [card.rank for card in own.cards] == [2]
        assert not plain or (min(plain) >= HIGH_PLAIN and len(state.pile) <= SMALL_PILE)
        PALACE.apply(state, own)
    assert differ > 20


class _CountingDeals(_Shallow):
    """``_Shallow`` that counts its determinizations."""

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.deals = 0

    def determinize(self, view, rng):
        self.deals += 1
        return self.rules.determinize(view, rng)


@pytest.mark.parametrize(("cls", "deals"), [(SearchBot, "per sweep"), (FlatMonteCarloBot, "per rollout")])
def test_the_flat_baseline_deals_each_rollout_apart(cls, deals):
    """Given Palace decisions with three or more candidates and a budget of 30 rollouts, when ``search``
    and the ``flat`` baseline decide, then ``search`` plays every candidate from each deal (fewer deals
    than rollouts) and ``flat`` draws a deal of its own for each of its 30 rollouts (a baseline that ran
    the sweeps itself would compare the search with itself)."""
    checked = 0
    for _state, seat, view in _decisions("palace", 400, seed=12):
        rules = _CountingDeals(ShedSearchRules())
        if not view["legal_actions"] or view["turn"] != seat or len(rules.candidates(view, random.Random(0))) < 3:
            continue
        cls(rules, seconds=None, iterations=30).choose(view, random.Random(0))
        assert rules.deals == 30 if deals == "per rollout" else rules.deals <= 10
        checked += 1
    assert checked > 20


def test_a_rollout_at_four_seats_stops_when_the_next_player_goes_out():
    """Given Palace decisions at three or four seats, when a rollout plays on from one, then it ends when
    the next player goes out (the first out of the rollout), every seat ranked, those still in by the
    cards they hold (``ending.end_match``); with the horizon off it plays on to the last player."""
    checked = 0
    rules, full = ShedSearchRules(), ShedSearchRules(first_out_horizon=False)
    for state, _seat, _view in _decisions("palace", 1_500, seed=13):
        if state.phase != PLAY or state.seats < 3 or len(state.out) > state.seats - 2:
            continue
        cut = rules.playout(state, state, random.Random(checked))
        assert (
            len(cut.out) == len(state.out) + 1
            and cut.order[0] == cut.out[0]
            and sorted(cut.order) == list(range(state.seats))
        )
        left = [
            len(cut.hands[s]) + len(cut.face_up[s]) + sum(c is not None for c in cut.face_down[s])
            for s in cut.order[1:]
        ]
        assert left == sorted(left)
        assert len(full.playout(state, state, random.Random(checked)).out) == state.seats - 1
        checked += 1
    assert checked > 50


def _heads_up_endgames(count: int, seed: int) -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """Palace decisions on turn with two players left, the stock empty and two or more candidates."""
    rules = ShedSearchRules()
    for state, seat, view in _decisions("palace", 40 * count, seed=seed):
        if count <= 0:
            return
        if state.phase != PLAY or state.stock or len(state.active()) != 2 or state.turn != seat:
            continue
        if len(rules.candidates(view, random.Random(0))) < 2:
            continue
        count -= 1
        yield state, seat, view


def test_the_search_plans_where_the_stock_is_empty_however_many_are_left():
    """Given Palace decisions at two to four seats, when the search's rules are asked for a planner
    (``plan="endgame"``, the default), then they give one exactly where the stock is empty, with two players left
    or more; under ``"always"`` everywhere; never under ``"never"`` (the arena's ``sweeps``) nor for the ``flat``
    baseline's rules."""
    rules, never, always = ShedSearchRules(), ShedSearchRules(plan="never"), ShedSearchRules(plan="always")
    seen: Counter[tuple[bool, bool]] = Counter()
    for state, seat, view in _decisions("palace", 3_000, seed=14):
        if state.phase != PLAY or state.turn != seat:
            continue
        expected = not state.stock
        assert isinstance(rules.planner(view, 2), TreePlanner) is expected
        assert always.planner(view, 2) is not None
        assert never.planner(view, 2) is None and plain_rules().planner(view, 2) is None
        seen[(expected, len(state.active()) > 2)] += 1
    assert min(seen[(True, False)], seen[(True, True)], seen[(False, False)], seen[(False, True)]) > 10


def test_the_planners_tree_stops_where_the_next_player_goes_out():
    """Given Palace endgames with three or four players left, one of them near going out, when a planner plays 60
    rollouts of the candidates, then the tree hands the rollout on to the policy once one player has gone out at
    most (the horizon, ``FIRST_OUT_HORIZON``: a tree walked on past it would score moves after the race it is
    searching; before the horizon was kept three had gone out), and each reward is one a place gives
    (``ShedSearchRules.reward``)."""

    class Watched(ShedSearchRules):
        def __init__(self) -> None:
            super().__init__()
            self.gone_out: list[int] = []

        def play_on(self, root: Any, sim: Any, rng: Any, seat: int | None = None) -> Any:
            self.gone_out.append(len(sim.t.out) - len(root.out))
            return super().play_on(root, sim, rng, seat)

    rules, checked = Watched(), 0
    for state, seat, view in _decisions("palace", 6_000, seed=19):
        if checked == 12:
            break
        if state.phase != PLAY or state.stock or len(state.active()) < 3 or state.turn != seat:
            continue
        # Near the race's end, where the tree reaches the first out within a few dozen rollouts.
        if min(state.cards_left(other) for other in state.active()) > 2:
            continue
        candidates = rules.candidates(view, random.Random(0))
        planner = rules.planner(view, len(candidates))
        assert planner is not None
        rng = random.Random(checked)
        last = state.seats - 1
        places = {FIRST_WEIGHT * (place == 0) + (1 - FIRST_WEIGHT) * (last - place) / last for place in range(last + 1)}
        for _ in range(60):
            pick = rng.randrange(len(candidates))
            reward = planner.rollout(pick, rules.determinize(view, rng), to_action(seat, candidates[pick]), rng)
            assert reward in places or reward == 0.5
        checked += 1
    assert checked == 12
    assert rules.gone_out and max(rules.gone_out) <= 1 and 1 in rules.gone_out


def test_the_planned_search_answers_from_the_view_alone_and_legally():
    """Given heads-up Palace endgames (the stock empty), when the search bot decides with its planner (30
    rollouts, no clock) from the seat's view and from the view of the same position with the hidden cards
    dealt again, then both answers are the same and legal."""
    rng = random.Random(15)
    bot = SearchBot(ShedSearchRules(), seconds=None, iterations=30)
    compared = 0
    for state, seat, view in _heads_up_endgames(25, seed=16):
        other = _hidden_swapped("palace", state, seat, rng)
        assert PALACE.view(other, seat) == view
        answer = bot.choose(view, random.Random(compared))
        assert bot.choose(PALACE.view(other, seat), random.Random(compared)) == answer
        PALACE.apply(state, to_action(seat, answer))
        compared += other != state
    assert compared >= 5


def test_the_planner_grows_a_tree_of_the_searchers_later_moves():
    """Given heads-up Palace endgames, when a planner plays 40 rollouts of one candidate from fresh deals, then
    each scores one of two outcomes (out before the other or after him: 1 or 0 heads-up), the candidate's tree
    counts the 40 visits of its first moves, and at a node of the searcher's with two or more moves each one was
    tried before any was tried twice (UCB1 adds untried moves first). The engine plays every move (legality)."""
    rules, checked, branched = ShedSearchRules(), 0, 0
    for _state, seat, view in _heads_up_endgames(15, seed=18):
        action = to_action(seat, rules.candidates(view, random.Random(0))[0])
        planner = rules.planner(view, 1)
        assert planner is not None
        rng = random.Random(checked)
        rewards = [planner.rollout(0, rules.determinize(view, rng), action, rng) for _ in range(40)]
        assert len(set(rewards)) <= 2 and all(0.0 <= reward <= 1.0 for reward in rewards)
        tree = planner.roots[0]
        assert sum(child.visits for child in tree.children.values()) == 40
        stack = [tree]
        while stack:
            node = stack.pop()
            stack.extend(node.children.values())
            mine = [child for key, child in node.children.items() if key[0] == seat]
            if len(mine) > 1 and any(child.visits > 1 for child in mine):
                branched += 1
                assert all(child.visits >= 1 for child in mine)
        checked += 1
    assert checked == 15 and branched > 5


def test_a_move_key_names_rank_and_count_not_suits():
    seven_h, seven_s = to_action(0, {"type": "play", "cards": ["7h"]}), to_action(0, {"type": "play", "cards": ["7s"]})
    assert move_key(seven_h) == move_key(seven_s) == (0, "play", 7, 1)
    assert move_key(to_action(0, {"type": "play", "cards": ["7h", "7s"]})) != move_key(seven_h)
    assert move_key(to_action(1, {"type": "pick_up"})) == (1, "pick_up", 0, 0)
