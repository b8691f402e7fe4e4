"""The Palace search's rollouts once the stock is empty (games/engine/bots/shedding_endgame.py): the
searcher's one-step lookahead plays legal moves only and ends no worse than plain ``basic`` on the same
deal.

Rules: palace-shedding-a.txt ¶11-13 and ¶16-22 as the engine implements them (its ``legal_actions``
and ``Simulation.play`` judge legality).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.engine.bots.search import shuffled, to_action
from games.engine.bots.shedding_basic import ShedBasicBot
from games.engine.bots.shedding_endgame import plays
from games.engine.bots.shedding_search import ShedSearchRules
from games.engine.protocol import Action
from games.engine.shedding import PALACE
from games.engine.shedding.legal import legal_actions
from games.engine.shedding.state import PLAY, ShedState


def _endgames(games: int, seed: int) -> Iterator[tuple[ShedState, int]]:
    """``(state, seat)`` at heads-up on-turn decisions of ``basic`` play with the stock empty."""
    bot, rng = ShedBasicBot(), random.Random(seed)
    for _ in range(games):
        state = PALACE.new_game({}, 2)
        while not PALACE.is_over(state):
            request = PALACE.chance_request(state)
            if request is not None:
                cards = tuple(shuffled(request.cards, rng))
                state, _ = PALACE.apply(state, Action(type="shuffle", cards=cards))
                continue
            seat = rng.choice(PALACE.to_act(state))
            view = PALACE.view(state, seat)
            if state.phase == PLAY and state.turn == seat and not state.stock:
                yield state, seat
            state, _ = PALACE.apply(state, to_action(seat, bot.choose(view, rng)))


def test_the_lookahead_plays_legally_and_ends_no_worse_than_basic():
    """Given heads-up positions with the stock empty, when a rollout plays on with the searcher's
    lookahead and without it (no random moves either way, so the other seat plays exactly as ``basic``),
    then the simulation accepts every move (it raises ``IllegalAction`` on an illegal one), the seat has
    more than one play to try, and its reward with the lookahead is never below the plain one and above
    it somewhere."""
    looking, plain = ShedSearchRules(), ShedSearchRules(lookahead=False)
    better = checked = 0
    for state, seat in _endgames(20, seed=1):
        if len(plays(legal_actions(state, seat), seat, state.turn)) < 2:
            continue
        end = looking._play_on(PALACE.simulation(state), len(state.out), random.Random(0), seat)
        ahead = looking.reward(None, end, seat)
        base = plain.reward(None, plain.playout(state, state, random.Random(0)), seat)
        assert ahead >= base
        better += ahead > base
        checked += 1
    assert checked > 50
    assert better > 0
