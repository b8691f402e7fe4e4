"""The Palace search's model (games/engine/bots/shedding_reading.py, shedding_search.py): its reading of
the turn before its own, read as ``basic`` plays, never rules out a card the player before really holds,
and the search's deals keep to it; once the stock is empty its rollouts make no random moves.

Rules: palace-shedding-a.txt ¶11 (play the lowest card that meets the pile, draw back up to three),
¶18-20 (tens and twos), palace-shedding-b.txt "Other Misc. Rules" (no pick-up while a play is possible),
as the engine implements them and ``shedding_basic`` plays them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from games.engine.bots.search import shuffled, to_action
from games.engine.bots.shedding_basic import ShedBasicBot
from games.engine.bots.shedding_reading import Reading, read_last_turn
from games.engine.bots.shedding_search import ENDGAME_EPSILON, ShedSearchRules
from games.engine.cards import Card
from games.engine.protocol import Action
from games.engine.shedding import PALACE
from games.engine.shedding.state import PLAY, ShedState

OPTIONS: list[dict[str, Any]] = [
    {},
    {"two_effect": "play_again", "draw_before_replay": True},
    {"out_of_turn_four": True},
    {"face_up_play": "into_hand"},
]
"""The rules variants whose turns change what a play or a pick-up says (palace-shedding-b.txt "Card Value",
"Other Misc. Rules", "Gameplay")."""


def _turns(
    games: int, seed: int, variants: list[dict[str, Any]] | None = None
) -> Iterator[tuple[ShedState, dict[str, Any], Reading | None]]:
    """``(state, view, reading)`` at each on-turn decision of ``basic`` play, heads-up and at four seats,
    game ``i`` under ``variants[i % len(variants)]`` (default options only by default)."""
    bot, rng = ShedBasicBot(), random.Random(seed)
    variants = variants or [{}]
    for index in range(games):
        state = PALACE.new_game(variants[index % len(variants)], 4 if index % 3 == 2 else 2)
        while not PALACE.is_over(state):
            request = PALACE.chance_request(state)
            if request is not None:
                cards = tuple(shuffled(request.cards, rng))
                state, _ = PALACE.apply(state, Action(type="shuffle", cards=cards))
                continue
            seat = rng.choice(PALACE.to_act(state))
            view = PALACE.view(state, seat)
            if state.phase == PLAY and state.turn == seat:
                yield state, view, read_last_turn(view)
            state, _ = PALACE.apply(state, to_action(seat, bot.choose(view, rng)))


def _hidden(state: ShedState, seat: int) -> list[Card]:
    return list((Counter(state.hands[seat]) - Counter(state.hand_public[seat])).elements())


def _misfits(reading: Reading, cards: list[Card]) -> int:
    return sum(card.rank in reading.excluded for card in cards)


def test_the_reading_never_rules_out_a_card_the_player_holds():
    """Given 120 matches of ``basic`` play under four rules variants, when the searcher's seat reads the
    turn before its own, then at most ``fresh`` of that player's hidden hand cards have an excluded rank;
    and it reads often."""
    turns = read = 0
    for state, _view, reading in _turns(120, seed=1, variants=OPTIONS):
        turns += 1
        if reading is None:
            continue
        read += 1
        assert reading.excluded
        assert _misfits(reading, _hidden(state, reading.seat)) <= reading.fresh
    assert read > turns // 5


def test_the_search_deals_keep_to_the_reading():
    """Given positions where the reading applies, when the search determinizes the seat's view, then the
    read player's dealt hidden cards break it at most ``fresh`` times, while a uniform deal breaks it more
    often (the reading changes the deals), and the deal still shows the seat its own view."""
    rules, uniform, rng = ShedSearchRules(), ShedSearchRules(reading=False), random.Random(2)
    kept = broken = checked = 0
    for _state, view, reading in _turns(40, seed=3):
        if reading is None:
            continue
        dealt = rules.determinize(view, rng)
        assert PALACE.view(dealt, view["viewer"])["seats"] == view["seats"]
        assert _misfits(reading, _hidden(dealt, reading.seat)) <= reading.fresh
        kept += 1
        broken += _misfits(reading, _hidden(uniform.determinize(view, rng), reading.seat)) > reading.fresh
        checked += 1
    assert checked > 100
    assert broken > checked // 10


def test_the_endgame_epsilon_alone_decides_the_random_moves_once_the_stock_is_empty():
    """Given positions of ``basic`` play with the stock empty, when a rollout without endgame random moves plays
    each on with two different seeds, then both end in the same order (``basic`` alone decides); the search's own
    rollouts (``ENDGAME_EPSILON``, random moves kept) make some differ."""
    exact, rules = ShedSearchRules(endgame_epsilon=0.0), ShedSearchRules()
    assert rules.endgame_epsilon == ENDGAME_EPSILON > 0
    checked = differ = 0
    for state, _view, _reading in _turns(20, seed=4):
        if state.stock:
            continue
        ends = [exact.playout(state, state, random.Random(seed)).order for seed in (0, 1)]
        assert ends[0] == ends[1]
        differ += (
            rules.playout(state, state, random.Random(0)).order != rules.playout(state, state, random.Random(1)).order
        )
        checked += 1
    assert checked > 100
    assert differ > 0
