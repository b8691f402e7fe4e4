"""The property tests of ``test_properties`` run over every variation option and their mixes.

Same invariants (no card or chip lost or created, views free of unknown cards, replay equality);
the strategy adds the options of palace-poker.txt, "Variations", and of palace-poker-hindi.txt.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.protocol import Action
from tests.games.engine.poker.helpers import GAME
from tests.games.engine.poker.test_properties import play_match


@st.composite
def variation_options(draw) -> dict:
    small_bet = draw(st.integers(min_value=1, max_value=10))
    betting = draw(st.sampled_from(["limit", "no_limit"]))
    points = draw(st.booleans())
    options = {
        "betting": betting,
        "small_bet": small_bet,
        "big_bet": 2 * small_bet,
        "starting_stack": draw(st.integers(min_value=4, max_value=40)) * small_bet,
        "first_dealer": draw(st.sampled_from([0, None])),
        "max_hands": 6,
        "no_pot_sharing": draw(st.booleans()),
        "open_market": draw(st.booleans()),
        "points": points,
        "kings_in_the_house": draw(st.booleans()),
        "showdown_tie": draw(st.sampled_from(["own_suit_count", "split"])),
        "two_left_must_battle": draw(st.booleans()),
    }
    if points:
        options["ante"] = 0
        options["target_points"] = draw(st.integers(min_value=5, max_value=30))
    if betting == "no_limit":
        options["no_limit_first_raise"] = draw(st.sampled_from(["small_bet_without_soldiers", "big_bet"]))
    return options


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=variation_options(), seats=st.integers(min_value=2, max_value=8), seed=st.integers(0, 2**32))
def test_random_matches_with_variations_keep_every_invariant_and_replay_equal(options, seats, seed):
    rng = random.Random(seed)
    log, final = play_match(options, seats, rng)
    assert GAME.is_over(final)
    measure = final.scores if options["points"] else final.stacks
    # A resigned seat's stack or score is out of play: the winners lead those still in the match.
    in_match = [seat for seat in range(seats) if seat not in final.resigned]
    assert final.winners and all(measure[w] == max(measure[s] for s in in_match) for w in final.winners)
    assert not set(final.winners) & set(final.resigned)
    if options["points"]:
        assert final.stacks == (options["starting_stack"],) * seats
        assert all(0 <= score for score in final.scores)
    replayed = GAME.new_game(options, seats)
    for raw in json.loads(json.dumps(log)):
        replayed, _ = GAME.apply(replayed, Action.from_json(raw))
    assert replayed == final
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(final)))) == final
