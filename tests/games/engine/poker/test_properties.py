"""Property tests: random legal play to the end of a match (OpenSpiel-style random playouts).

Invariants checked after every action: no card lost, created or dealt twice; no chip lost or
created; every view free of cards its viewer may not know; a seat that resigned never acts again; and,
at the end, replaying the recorded actions (through their JSON form) from the same options gives an
equal state. Now and then a random seat still in the match resigns, on turn or not (the README's
decisions list, "Resigning"; ``games.engine.poker.resign``).

Termination: every chip action moves at least one chip from a stack to the pot and the pot only
empties at a hand's end, so a hand has finitely many chip actions, and between two of them at most
one quiet turn per player and per soldier; ``max_hands`` bounds the match.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK
from games.engine.chance import sample_shuffle
from games.engine.poker.state import PLAY
from games.engine.protocol import SPECTATOR, STAFF, Action
from tests.games.engine.poker.helpers import GAME

MAX_STEPS = 20_000
RESIGN_RATE = 0.01
"""The chance, at each decision, that a random seat still in the match resigns instead."""


def random_action(state, seat: int, rng: random.Random) -> Action:
    """A uniformly chosen legal action type, with random legal fields."""
    choice = rng.choice(GAME.legal_actions(state, seat))
    fields: dict = {}
    if choice.type == "discard":
        fields["cards"] = tuple(rng.sample(list(choice.cards), rng.randint(choice.min_cards, choice.max_cards)))
    elif choice.type == "bet":
        fields["target"] = rng.choice(choice.targets)[0]
        fields["amount"] = rng.randint(choice.min_amount, choice.max_amount)
    elif choice.type == "raise":
        fields["amount"] = rng.randint(choice.min_amount, choice.max_amount)
    return Action(type=choice.type, seat=seat, **fields)


def cards_in_play(state) -> list:
    zones = [state.stock, state.discards, state.set_aside, [c for c in state.banners if c is not None]]
    zones += list(state.palace) + list(state.soldiers)
    return [card for zone in zones for card in zone]


def codes_in(view: object) -> set[str]:
    """Every card code anywhere in a JSON view (strings of two characters that parse as cards)."""
    found: set[str] = set()
    if isinstance(view, dict):
        for key, value in view.items():
            if key != "options":
                found |= codes_in(value)
    elif isinstance(view, list):
        for item in view:
            found |= codes_in(item)
    elif isinstance(view, str) and view in CODES:
        found.add(view)
    return found


CODES = {card.code for card in FULL_DECK}


def next_action(state, rng: random.Random) -> Action:
    """A shuffle when one is due; else now and then a resignation of a random seat still in the match,
    else a random legal action of the seat to act."""
    request = GAME.chance_request(state)
    if request:
        return sample_shuffle(request, rng)
    if rng.random() < RESIGN_RATE:
        return Action(type="resign", seat=rng.choice([seat for seat in range(state.seats) if state.in_match[seat]]))
    return random_action(state, GAME.to_act(state)[0], rng)


def play_match(options: dict, seats: int, rng: random.Random):
    """Play to the end; check invariants at every step; return the log of actions and the state."""
    state = GAME.new_game(options, seats)
    total_chips = options["starting_stack"] * seats
    log: list[dict] = []
    known: dict = {seat: set() for seat in [*range(seats), SPECTATOR]}
    for _ in range(MAX_STEPS):
        if GAME.is_over(state):
            break
        action = next_action(state, rng)
        log.append(action.to_json())
        state, events = GAME.apply(state, action)
        assert sum(state.stacks) + state.pot == total_chips
        assert not set(GAME.to_act(state)) & set(state.resigned), "a seat that resigned acts"
        assert all(not state.in_match[seat] and not state.in_hand[seat] for seat in state.resigned)
        assert all(stack >= 0 for stack in state.stacks) and state.pot >= 0
        if state.phase == PLAY:
            cards = cards_in_play(state)
            assert len(cards) == 52 and set(cards) == set(FULL_DECK)
        for event in events:
            if event.type == "hand_started":
                known = {viewer: set() for viewer in known}
            for viewer in known:
                known[viewer] |= codes_in(event.to_json(viewer))
        for viewer in known:
            view = GAME.view(state, viewer)
            assert codes_in(view) <= known[viewer], f"view of {viewer!r} shows cards it was never shown"
            assert "stock" not in view
        json.dumps(GAME.view(state, STAFF))
    else:
        raise AssertionError(f"the match did not end within {MAX_STEPS} actions")
    return log, state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(min_value=2, max_value=10),
    betting=st.sampled_from(["limit", "no_limit"]),
    small_bet=st.integers(min_value=1, max_value=10),
    stack_bets=st.integers(min_value=4, max_value=40),
    first_dealer=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_matches_keep_every_invariant_and_replay_equal(
    seats, betting, small_bet, stack_bets, first_dealer, seed
):
    rng = random.Random(seed)
    options = {
        "betting": betting,
        "small_bet": small_bet,
        "big_bet": 2 * small_bet,
        "starting_stack": stack_bets * small_bet,
        "first_dealer": 0 if first_dealer else None,
        "max_hands": 6,
    }
    log, final = play_match(options, seats, rng)
    assert GAME.is_over(final)
    # A resigned seat's stack is out of play: the winners are the largest stacks of those still in.
    in_match = [seat for seat in range(seats) if final.in_match[seat]]
    assert final.winners and all(final.stacks[w] == max(final.stacks[s] for s in in_match) for w in final.winners)
    assert not set(final.winners) & set(final.resigned)

    replayed = GAME.new_game(options, seats)
    for raw in json.loads(json.dumps(log)):
        replayed, _ = GAME.apply(replayed, Action.from_json(raw))
    assert replayed == final
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(final)))) == final


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), seats=st.integers(min_value=2, max_value=10))
def test_state_json_round_trips_mid_hand(seed, seats):
    rng = random.Random(seed)
    state = GAME.new_game({"max_hands": 2}, seats)
    for _ in range(rng.randint(0, 120)):
        if GAME.is_over(state):
            break
        state, _ = GAME.apply(state, next_action(state, rng))
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
