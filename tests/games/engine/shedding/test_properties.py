"""Property tests: random legal play to the end of a match, for every option combination.

Hypothesis samples the product of all option values (``OPTION_PRODUCT``, 3072 combinations) with
the seat count, the first dealer, the turn cap and the seed; a pairwise covering set of
combinations (every pair of values of any two options meets in one) plays full matches; and every
combination of the product plays one short match checked for the draw that ends a turn.

Checked after every action: no card lost or created (each code ``decks`` times over all zones);
the public part of each hand is in the hand; every seat in ``to_act`` has a legal action and no
other seat has one; every view and event shows a viewer only cards the events showed it (as many
copies); nobody, the owner included, is ever shown a face-down card, a stock card or another
player's hand card that is not known to all (one deck, where a code names one card). At the end:
replaying the recorded actions (through their JSON form) gives an equal state, and the state's JSON
round-trips. A seat whose last turn ended other than by a pick-up holds at least three cards
while the stock has cards (``TurnEnds``).

Termination: every play decision counts a turn and ``max_turns`` turns end the match (the
stalemate rule, see ``games.engine.shedding``); the setup takes one decision per seat; so a match
takes at most ``seats + max_turns`` decisions besides its shuffles.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK, Card
from games.engine.chance import sample_shuffle
from games.engine.protocol import SPECTATOR, STAFF, Action, Event
from games.engine.shedding import PALACE as GAME
from games.engine.shedding.state import FINISHED, PLAY, SETUP, ShedState, pack

OPTION_VALUES: dict[str, tuple] = {
    "decks": (1, 2),
    "first_player": ("lowest_face_up", "left_of_dealer", 0),
    "setup_deal": ("face_up", "hand"),
    "must_play_if_able": (True, False),
    "two_effect": ("next_player_any", "play_again"),
    "redraw": (True, False),
    "out_of_turn_four": (True, False),
    "face_up_play": ("from_table", "into_hand"),
    "hide_failed_blind_card": (True, False),
    "draw_before_replay": (True, False),
    "finish": ("last_player_loses", "first_out_wins"),
}
OPTION_PRODUCT = [
    dict(zip(OPTION_VALUES, values, strict=True)) for values in itertools.product(*OPTION_VALUES.values())
]
CODES = {card.code for card in FULL_DECK}
MAX_SHUFFLES = 10
RESIGN_RATE = 0.01
"""The chance, at each decision, that a random seat still in the match resigns instead (the README's
decisions list, "Resigning"; ``games.engine.shedding.resign``): on turn or not, in the setup or in play."""
REPEATS = ("legal_actions", "choice")


def random_action(state: ShedState, rng: random.Random) -> Action:
    """Now and then (``RESIGN_RATE``) a resignation of a seat still in the match; else a seat of ``to_act``
    (the race between seats), then one of its legal entries, uniformly; a uniform count of that entry's
    cards; a random face-down position."""
    if rng.random() < RESIGN_RATE:
        return Action(type="resign", seat=rng.choice(state.active()))
    seat = rng.choice(GAME.to_act(state))
    choice = rng.choice(GAME.legal_actions(state, seat))
    if choice.type == "play_face_down":
        left = [i for i, card in enumerate(state.face_down[seat]) if card is not None]
        return Action(type="play_face_down", seat=seat, target=rng.choice([*left, None]))
    cards = tuple(rng.sample(list(choice.cards), rng.randint(choice.min_cards, choice.max_cards)))
    return Action(type=choice.type, seat=seat, cards=cards)


def codes_in(value: object, found: Counter[str] | None = None) -> Counter[str]:
    """Every card code anywhere in a JSON value, with how often it appears (not in ``options``, nor
    in ``legal_actions`` and a pending ``choice``, which name cards the view shows elsewhere)."""
    found = Counter() if found is None else found
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("options", *REPEATS):
                codes_in(item, found)
    elif isinstance(value, list):
        for item in value:
            codes_in(item, found)
    elif isinstance(value, str) and value in CODES:
        found[value] += 1
    return found


def check_state(state: ShedState) -> None:
    if state.phase in (SETUP, PLAY, FINISHED):
        assert state.all_cards() == Counter(pack(state.options.decks)), "a card was lost or created"
        for seat in range(state.seats):
            assert not Counter(state.hand_public[seat]) - Counter(state.hands[seat])
            assert len([c for c in state.face_down[seat] if c is not None]) <= 3
    to_act = GAME.to_act(state)
    if GAME.is_over(state) or GAME.chance_request(state) is not None:
        assert to_act == ()
    else:
        assert to_act and len(set(to_act)) == len(to_act)
        if state.phase == PLAY:
            assert to_act[0] == state.turn and state.turn not in state.out
        assert not set(to_act) & set(state.resigned), "a seat that resigned acts"
    for seat in range(state.seats):
        assert bool(GAME.legal_actions(state, seat)) == (seat in to_act)


def check_views(state: ShedState, known: dict, decks: int) -> None:
    for viewer in known:
        view = GAME.view(state, viewer)
        shown = codes_in(view)
        allowed = {code: min(decks, count) for code, count in known[viewer].items()}
        assert all(count <= allowed.get(code, 0) for code, count in shown.items()), (
            f"view of {viewer!r} shows cards it was never shown"
        )
        repeated = [view["legal_actions"], *(seat.get("choice") for seat in view["seats"])]
        assert set(codes_in({"repeated": repeated})) <= set(shown)
        assert "stock" not in view
        assert all(row["card"] is None for seat in view["seats"] for row in seat["face_down"])
        if decks == 1 and state.phase in (PLAY, FINISHED):
            secret = {c.code for c in state.stock} | {c.code for row in state.face_down for c in row if c}
            for seat in range(state.seats):
                if seat != viewer:
                    secret |= {c.code for c in Counter(state.hands[seat]) - Counter(state.hand_public[seat])}
            assert not secret & set(known[viewer]), f"{viewer!r} was shown a card nobody may know"
    json.dumps(GAME.view(state, STAFF))


class TurnEnds:
    """How each seat's last turn ended, to check the draw that ends a turn (palace-shedding-b.txt
    "Gameplay": every turn ends drawing to three; a¶11.8-9: after a play the hand is replenished, a
    pick-up ends the turn without it): a seat whose last turn ended other than by a pick-up holds at
    least three cards while the stock has cards, however that turn ended (played, burned and played
    on, or cut short by another seat's out-of-turn play)."""

    def __init__(self) -> None:
        self.picked_up: dict[int, bool] = {}

    def check(self, before: ShedState, after: ShedState, events: tuple[Event, ...]) -> None:
        ended = before.turn
        if before.phase == PLAY and ended is not None and after.turn != ended:
            self.picked_up[ended] = any(event.type == "pick_up" and event.seat == ended for event in events)
        if after.phase != PLAY or not after.stock:
            return
        for seat, picked_up in self.picked_up.items():
            if seat != after.turn and seat in after.active() and not picked_up:
                assert len(after.hands[seat]) >= 3, f"seat {seat}'s turn ended without the draw to three"


def play_match(options: dict, seats: int, rng: random.Random, *, views: bool = True) -> tuple[list, ShedState]:
    """Play to the end with random legal actions; check the invariants (the draw that ends a turn
    even without ``views``); return the log and the state."""
    state = GAME.new_game(options, seats)
    decks = state.options.decks
    bound = 2 * seats + state.options.max_turns + MAX_SHUFFLES  # each seat may also resign once
    known: dict = {viewer: Counter() for viewer in [*range(seats), SPECTATOR]}
    turn_ends = TurnEnds()
    log: list[dict] = []
    for _ in range(bound):
        if GAME.is_over(state):
            break
        request = GAME.chance_request(state)
        action = sample_shuffle(request, rng) if request else random_action(state, rng)
        log.append(action.to_json())
        before = state
        state, events = GAME.apply(state, action)
        turn_ends.check(before, state, events)
        if not views:
            continue
        check_state(state)
        for event in events:
            if event.type == "shuffle" and event.data["purpose"] == "deal":
                known = {viewer: Counter() for viewer in known}
            for viewer in known:
                codes_in(event.to_json(viewer), known[viewer])
        check_views(state, known, decks)
    else:
        raise AssertionError(f"the match did not end within {bound} actions")
    check_state(state)
    assert state.turns <= state.options.max_turns
    assert sorted(state.order) == list(range(seats))
    if state.resigned:  # ranked last, the first to resign last of all
        assert state.order[-len(state.resigned) :] == state.resigned[::-1]
    return log, state


def check_replay(options: dict, seats: int, log: list, final: ShedState) -> None:
    replayed = GAME.new_game(options, seats)
    for raw in json.loads(json.dumps(log)):
        replayed, _ = GAME.apply(replayed, Action.from_json(raw))
    assert replayed == final
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(final)))) == final


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    combination=st.sampled_from(OPTION_PRODUCT),
    seats=st.integers(min_value=2, max_value=10),
    drawn_dealer=st.booleans(),
    max_turns=st.sampled_from([30, 120, 300]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_matches_keep_every_invariant_and_replay_equal(combination, seats, drawn_dealer, max_turns, seed):
    if combination["decks"] == 1:
        seats = 2 + seats % 4
    options = {
        **combination,
        "first_dealer": None if drawn_dealer else seats - 1,
        "first_player": combination["first_player"],
        "max_turns": max_turns,
    }
    rng = random.Random(seed)
    log, final = play_match(options, seats, rng)
    assert GAME.is_over(final)
    check_replay(options, seats, log, final)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), combination=st.sampled_from(OPTION_PRODUCT))
def test_state_json_round_trips_mid_match(seed, combination):
    rng = random.Random(seed)
    seats = rng.randint(2, 5)
    state = GAME.new_game(combination, seats)
    for _ in range(rng.randint(0, 150)):
        if GAME.is_over(state):
            break
        request = GAME.chance_request(state)
        state, _ = GAME.apply(state, sample_shuffle(request, rng) if request else random_action(state, rng))
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state


def covering_rows(seed: int = 2) -> list[dict]:
    """Option combinations such that every pair of values of two options appears in one of them
    (a pairwise covering array, built greedily from seeded random candidates: deterministic)."""
    rng = random.Random(seed)
    names = list(OPTION_VALUES)
    uncovered = {
        ((a, va), (b, vb))
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        for va in OPTION_VALUES[a]
        for vb in OPTION_VALUES[b]
    }

    def pairs(row: dict) -> set:
        return {((a, row[a]), (b, row[b])) for i, a in enumerate(names) for b in names[i + 1 :]}

    rows = []
    while uncovered:
        best = max(rng.sample(OPTION_PRODUCT, 300), key=lambda row: len(pairs(row) & uncovered))
        rows.append(best)
        uncovered -= pairs(best)
    return rows


COVERING_ROWS = covering_rows()


@pytest.mark.parametrize("number", range(len(COVERING_ROWS)))
def test_every_pair_of_option_values_plays_a_full_match(number):
    """Every pair of values of any two options meets in at least one of these matches, each played
    to its end (within 300 turns) with every per-step check; two decks seat 6 to 10 players."""
    combination = COVERING_ROWS[number]
    seats = 6 + number % 5 if combination["decks"] == 2 else 2 + number % 4
    options = {**combination, "max_turns": 300, "first_dealer": None if number % 2 else 0}
    rng = random.Random(f"pairwise-{number}")
    log, final = play_match(options, seats, rng)
    check_replay(options, seats, log, final)


def test_a_card_code_names_either_copy_with_two_decks():
    """With two decks each code is in play exactly twice (the conservation check counts copies)."""
    state = GAME.new_game({"decks": 2, "first_dealer": 0}, 6)
    request = GAME.chance_request(state)
    assert request is not None and len(request.cards) == 104
    assert Counter(request.cards) == Counter({card: 2 for card in FULL_DECK})
    assert isinstance(request.cards[0], Card)


SWEEP_CHUNKS = 32
SWEEP_TURNS = 60


@pytest.mark.parametrize("chunk", range(SWEEP_CHUNKS))
def test_every_option_combination_ends_each_turn_with_the_draw_to_three(chunk):
    """palace-shedding-b.txt "Gameplay" (every turn ends drawing to three) and a¶11.8-9 (the hand is
    replenished after a play; a pick-up ends the turn without it), under every combination of
    ``OPTION_PRODUCT``: given one short random match per combination (``SWEEP_TURNS`` decisions;
    the combinations are split in chunks for the parallel runner), when each turn ends, then the
    seat whose turn it was, unless he picked up, holds three cards or more while the stock lasts
    (``TurnEnds``). Turns cut short by an out-of-turn four of twos (``play_again``) are the case
    this guards: about one match in 300 meets one."""
    assert len(OPTION_PRODUCT) % SWEEP_CHUNKS == 0
    size = len(OPTION_PRODUCT) // SWEEP_CHUNKS
    for number in range(chunk * size, (chunk + 1) * size):
        combination = OPTION_PRODUCT[number]
        seats = 6 + number % 5 if combination["decks"] == 2 else 2 + number % 4
        rng = random.Random(f"sweep-{number}")
        _, final = play_match({**combination, "max_turns": SWEEP_TURNS}, seats, rng, views=False)
        assert GAME.is_over(final)
