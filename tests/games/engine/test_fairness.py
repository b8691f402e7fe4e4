"""Commit-reveal shuffles (``games.engine.fairness``, ``games.engine.seeding``; README "Provably fair shuffles").

Given seeds, the deck order is a pure function of them (the README's worked example is pinned here, and an
independent transcription of the README's steps gives the same); a match begun with seeds commits each deal's
seeds before its first shuffle, refuses any other order, and reveals every seed at its end (with
``reveal_seeds: "hand"``, each hand's as the next opens); a match begun without them plays as before.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine.cards import FULL_DECK, parse_cards
from games.engine.chance import fair_shuffle, sample_shuffle
from games.engine.errors import EngineError
from games.engine.fairness import SeedDraw, commitment, derive_order
from games.engine.master_seed import master_draw, master_mismatch
from games.engine.protocol import SPECTATOR, STAFF, Action, action_for_viewer
from games.engine.registry import KINDS
from tests.games.api.test_event_schema import decision

EXAMPLE = SeedDraw(
    server_seed="00" * 31 + "01", salt="aa" * 16, game="42", deal=1, players=("0badc0de", "5eed"), drawn=(1,)
)
EXAMPLE_COMMITMENT = "0e48263607f8e69d01aff9088f2f36c7147795419be2fc03e602e6b93a0935b2"
EXAMPLE_FIRST_TEN = "Ad 7h 6h 5c 4c 2d 4d 6d 8d 3d"
"""README, "Provably fair shuffles", the worked example: shuffle 1 of deal 1 of game 42, the full deck."""


def readme_transcription(codes: list[str], draw: SeedDraw, number: int) -> list[str]:
    """The README's steps written out again from the text alone, as a verifier in another language would."""
    ranks = "23456789TJQKA"
    deck = sorted(codes, key=lambda code: (ranks.index(code[0]), code[1]))
    key = bytes.fromhex(draw.server_seed)
    prefix = "|".join(["palace-shuffle-1", draw.game, str(draw.deal), str(number), *draw.players])
    stream = b"".join(hmac.new(key, f"{prefix}|{k}".encode(), hashlib.sha256).digest() for k in range(64))
    at = 0
    for i in range(len(deck) - 1, 0, -1):
        while True:
            r = int.from_bytes(stream[at : at + 4], "big")
            at += 4
            if r < 2**32 - 2**32 % (i + 1):
                break
        j = r % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_readme_worked_example_gives_its_commitment_and_first_ten_cards() -> None:
    order = derive_order(FULL_DECK, EXAMPLE, 1)
    assert EXAMPLE.commitment == EXAMPLE_COMMITMENT
    assert hashlib.sha256(bytes.fromhex("aa" * 16) + bytes.fromhex("00" * 31 + "01")).hexdigest() == EXAMPLE_COMMITMENT
    assert " ".join(card.code for card in order[:10]) == EXAMPLE_FIRST_TEN
    assert [card.code for card in order] == readme_transcription([c.code for c in FULL_DECK], EXAMPLE, 1)


def test_the_derivation_matches_the_readme_steps_for_random_seeds_and_decks() -> None:
    """Any seeds, any deck (a part of one, or the two-deck staff decks), asked twice in a row (the second answer
    is remembered): the README's steps give the same order."""
    rng = random.Random("transcription")
    for _ in range(150):
        cards = rng.sample(FULL_DECK * 2, rng.randint(2, 104))
        draw = SeedDraw(
            rng.randbytes(32).hex(),
            rng.randbytes(16).hex(),
            str(rng.randint(1, 10**6)),
            rng.randint(0, 300),
            tuple(rng.randbytes(rng.randint(1, 32)).hex() for _ in range(rng.randint(2, 10))),
        )
        number = rng.randint(0, 10**4)
        expected = readme_transcription([card.code for card in cards], draw, number)
        assert [card.code for card in derive_order(cards, draw, number)] == expected
        assert [card.code for card in derive_order(list(reversed(cards)), draw, number)] == expected


@pytest.mark.parametrize(
    "change",
    [
        {"server_seed": "00" * 31 + "02"},
        {"game": "43"},
        {"deal": 2},
        {"players": ("0badc0df", "5eed")},
        {"players": ("5eed", "0badc0de")},
    ],
)
def test_every_input_of_the_derivation_changes_the_order(change: dict[str, Any]) -> None:
    values = {**EXAMPLE.to_json(), **change}
    values["players"] = list(values["players"])
    other = SeedDraw.from_json(values)
    assert derive_order(FULL_DECK, other, 1) != derive_order(FULL_DECK, EXAMPLE, 1)
    assert derive_order(FULL_DECK, EXAMPLE, 2) != derive_order(FULL_DECK, EXAMPLE, 1)


def test_a_derived_order_is_a_permutation_that_ignores_the_input_order() -> None:
    cards = parse_cards("As Ks Qs 2c 2c 3d")
    order = derive_order(cards, EXAMPLE, 0)
    assert Counter(order) == Counter(cards)
    assert derive_order(tuple(reversed(cards)), EXAMPLE, 0) == order


def test_the_first_card_is_spread_over_the_deck_by_the_derivation() -> None:
    """Over 2,600 server seeds each card comes first 50 times on average; none is far off (a gross bias test:
    the chi-square of tests/games/engine/test_chance.py holds the uniformity of the shuffle itself)."""
    rng = random.Random("spread")
    firsts = Counter(
        derive_order(FULL_DECK, SeedDraw(rng.randbytes(32).hex(), "00" * 16, "1", 0, ("00",)), 0)[0]
        for _ in range(2600)
    )
    assert len(firsts) == 52 and max(firsts.values()) < 100 and min(firsts.values()) > 15


def play(
    kind: str, options: dict[str, Any], seats: int, seed: str, master: str | None = None
) -> tuple[Any, list[tuple[Action, tuple[Any, ...]]]]:
    """One match with commit-reveal shuffles (under the master seed ``master``, hex, if given), random decisions,
    to its end."""
    game = KINDS[kind].game
    rng = random.Random(seed)
    state = game.new_game(options, seats)
    log = []
    for _ in range(20_000):
        if game.is_over(state):
            return state, log
        request = game.chance_request(state)
        if request is not None:
            action = fair_shuffle(request, game=seed, players=["ab"] + [None] * (seats - 1), rng=rng, master=master)
        else:
            action = decision(game, state, rng)
        state, events = game.apply(state, action)
        log.append((action, events))
    raise AssertionError("no end")


GAMES = [
    ("palace-poker", {"max_hands": 3}, 3),
    ("palace-poker", {"max_hands": 2, "reveal_seeds": "hand", "first_dealer": 0}, 2),
    ("palace", {}, 3),
    ("palace", {"decks": 2}, 5),
]


@pytest.mark.parametrize(("kind", "options", "seats"), GAMES)
def test_each_deal_is_committed_before_its_shuffles_and_revealed_by_the_end(kind, options, seats) -> None:
    state, log = play(kind, options, seats, f"{kind}-{seats}")
    committed: dict[int, str] = {}
    revealed: dict[int, dict[str, Any]] = {}
    current = None
    for action, events in log:
        types = [event.type for event in events]
        if action.seeds is not None:
            assert types.index("seeds_committed") < types.index("shuffle")
            current = action.seeds
        for event in events:
            if event.type == "seeds_committed":
                committed[event.data["deal"]] = event.data["commitment"]
                assert event.data["players"][0] == "ab" and 0 not in event.data["drawn"]
            if event.type == "seeds_revealed":
                revealed[event.data["deal"]] = dict(event.data)
        if action.type == "shuffle":
            assert current is not None
            shuffle = next(event for event in events if event.type == "shuffle")
            assert action.cards == derive_order(action.cards, current, shuffle.data["number"])
    assert committed and set(revealed) == set(committed)
    for deal, data in revealed.items():
        assert (
            hashlib.sha256(bytes.fromhex(data["salt"]) + bytes.fromhex(data["server_seed"])).hexdigest()
            == (committed[deal])
        )
    assert state.fair.revealed == len(state.fair.draws)


def test_reveal_per_hand_publishes_a_hands_seeds_when_the_next_hand_opens() -> None:
    _, log = play("palace-poker", {"max_hands": 3, "reveal_seeds": "hand", "first_dealer": 0}, 2, "per-hand")
    opening = [events for action, events in log if action.seeds is not None]
    assert [e.data["deal"] for e in opening[1] if e.type == "seeds_revealed"] == [1]
    assert [e.data["deal"] for e in opening[2] if e.type == "seeds_revealed"] == [2]
    _, log = play("palace-poker", {"max_hands": 3, "first_dealer": 0}, 2, "per-match")
    reveals = [i for i, (_, events) in enumerate(log) for e in events if e.type == "seeds_revealed"]
    assert reveals and set(reveals) == {len(log) - 1}


def test_a_seeded_match_refuses_another_order_and_a_deal_without_its_seeds() -> None:
    game = KINDS["palace"].game
    state = game.new_game({}, 2)
    state, _ = game.apply(state, fair_shuffle(game.chance_request(state), game="1", players=[None, None]))
    request = game.chance_request(state)
    assert request.seeds_due
    with pytest.raises(EngineError) as refused:
        game.apply(state, Action(type="shuffle", cards=tuple(reversed(sorted(request.cards)))))
    assert refused.value.code == "invalid_shuffle"
    seeded = fair_shuffle(request, game="1", players=[None, None])
    wrong = Action(type="shuffle", cards=(seeded.cards[1], seeded.cards[0], *seeded.cards[2:]), seeds=seeded.seeds)
    with pytest.raises(EngineError) as refused:
        game.apply(state, wrong)
    assert refused.value.code == "invalid_shuffle" and "card 0" in refused.value.message
    state, _ = game.apply(state, seeded)


def test_a_match_begun_without_seeds_plays_as_before() -> None:
    """Stored games (and staff's prearranged decks): the first shuffle carries no seeds, no seeds are asked."""
    game = KINDS["palace-poker"].game
    rng = random.Random("legacy")
    state = game.new_game({"max_hands": 1}, 2)
    assert game.chance_request(state).seeds_due
    while not game.is_over(state):
        request = game.chance_request(state)
        if request is not None:
            assert not request.seeds_due or state.shuffles == 0
            state, events = game.apply(state, sample_shuffle(request, rng))
        else:
            state, events = game.apply(state, decision(game, state, rng))
        assert all(event.type not in ("seeds_committed", "seeds_revealed") for event in events)
    assert state.fair is None


def test_seeds_are_staff_alone_in_actions_state_and_views_before_the_reveal() -> None:
    game = KINDS["palace-poker"].game
    state, log = play("palace-poker", {"max_hands": 2}, 3, "views")
    seeds = {action.seeds.server_seed for action, _ in log if action.seeds is not None}
    for action, events in log:
        for viewer in (0, 1, 2, SPECTATOR):
            shown = action_for_viewer(action.to_json(), events, viewer)
            assert "seeds" not in shown
            text = repr(shown) + repr([event.view_json(viewer) for event in events if event.type != "seeds_revealed"])
            assert not any(seed in text for seed in seeds)
        assert ("seeds" in action_for_viewer(action.to_json(), events, STAFF)) == (action.seeds is not None)
    mid = KINDS["palace-poker"].game.new_game({"max_hands": 2}, 3)
    mid, _ = game.apply(mid, fair_shuffle(game.chance_request(mid), game="1", players=[None] * 3))
    for viewer in (0, 1, 2, SPECTATOR):
        assert not any(draw.server_seed in repr(game.view(mid, viewer)) for draw in mid.fair.draws)
    assert game.state_from_json(game.state_to_json(mid)) == mid


MASTER = "5a" * 32


@pytest.mark.parametrize(("kind", "options", "seats"), [*GAMES, ("palace-poker", {"max_hands": 12}, 2)])
def test_under_a_master_seed_the_state_keeps_one_deals_seeds_and_the_log_reads_as_with_every_deals(
    kind, options, seats
) -> None:
    """A match under a master seed: its first shuffle alone carries the master; the state keeps the current deal's
    seeds alone (so its JSON does not grow with the deals), and every event is the one the same match gives when
    the state keeps every deal's seeds (the same shuffles without the master): the reveals derived again from the
    master are the seeds each deal committed."""
    game = KINDS[kind].game
    state, log = play(kind, options, seats, f"master-{kind}-{seats}", master=MASTER)
    assert [i for i, (action, _) in enumerate(log) if action.master is not None] == [0]
    assert log[0][0].master == MASTER and state.fair.master == MASTER and len(state.fair.draws) == 1
    with_master = game.new_game(options, seats)
    every_deal = game.new_game(options, seats)
    sizes = set()
    for action, events in log:
        with_master, again = game.apply(with_master, Action.from_json(action.to_json()))
        every_deal, old = game.apply(every_deal, dataclasses.replace(action, master=None))
        assert (
            [event.to_json() for event in again]
            == [event.to_json() for event in old]
            == [event.to_json() for event in events]
        )
        assert len(with_master.fair.draws) == 1 and with_master.fair.committed == len(every_deal.fair.draws)
        sizes.add(len(json.dumps(game.state_to_json(with_master)["fair"])))
        assert game.state_from_json(game.state_to_json(with_master)) == with_master
    assert with_master == state and len(every_deal.fair.draws) >= 2 and max(sizes) - min(sizes) < 8
    revealed = [e.data for _, events in log for e in events if e.type == "seeds_revealed"]
    assert [data["deal"] for data in revealed] == [draw.deal for draw in every_deal.fair.draws]
    for data, draw in zip(revealed, every_deal.fair.draws, strict=True):
        assert (data["server_seed"], data["salt"], data["commitment"]) == (draw.server_seed, draw.salt, draw.commitment)


def test_under_a_master_seed_only_its_seeds_deal_after_deal_are_taken() -> None:
    """The master comes with the match's first seeds alone, and every later deal's seeds are the ones it gives, for
    the next deal: anything else is refused (``invalid_seeds``) and the state is unchanged."""
    game = KINDS["palace-poker"].game
    options = {"max_hands": 5, "first_dealer": 0}
    state = game.new_game(options, 2)
    request = game.chance_request(state)
    unseeded = fair_shuffle(request, game="9", players=[None, None], rng=random.Random(1))
    with pytest.raises(EngineError) as refused:  # a master without its seeds' derivation
        game.apply(state, dataclasses.replace(unseeded, master=MASTER))
    assert refused.value.code == "invalid_seeds"
    first = fair_shuffle(request, game="9", players=[None, None], master=MASTER)
    state, _ = game.apply(state, first)
    rng = random.Random(2)
    while game.chance_request(state) is None or not game.chance_request(state).seeds_due:
        request = game.chance_request(state)
        state, _ = game.apply(state, sample_shuffle(request) if request else decision(game, state, rng))
    request = game.chance_request(state)
    good = fair_shuffle(request, game="9", players=[None, None], master=MASTER)
    assert good.master is None and good.seeds.deal == first.seeds.deal + 1
    other = fair_shuffle(request, game="9", players=[None, None], master="77" * 32)
    skipped = fair_shuffle(
        dataclasses.replace(request, deal=request.deal + 1), game="9", players=[None, None], master=MASTER
    )
    for bad in (
        other,  # another master's seeds
        fair_shuffle(request, game="9", players=[None, None], rng=random.Random(3)),  # drawn, not derived
        skipped,  # the deal after next
        dataclasses.replace(good, master=MASTER),  # the master again
    ):
        with pytest.raises(EngineError) as refused:
            game.apply(state, bad)
        assert refused.value.code == "invalid_seeds", bad
    state, _ = game.apply(state, good)
    assert state.fair.draws == (good.seeds,) and state.fair.committed == 2


def test_the_master_seed_is_staff_alone_in_actions() -> None:
    """The first shuffle's master seed gives every deal's seeds: no player or spectator sees it in an action, even
    once that deal's seeds are revealed (``reveal_seeds: "hand"``)."""
    state, log = play("palace-poker", {"max_hands": 3, "reveal_seeds": "hand"}, 2, "master-views", master=MASTER)
    assert log[0][0].master == MASTER
    for action, events in log:
        for viewer in (0, 1, SPECTATOR):
            shown = action_for_viewer(action.to_json(), events, viewer)
            assert "master" not in shown and MASTER not in repr(shown)
            assert MASTER not in repr([event.view_json(viewer) for event in events])
    assert action_for_viewer(log[0][0].to_json(), log[0][1], STAFF)["master"] == MASTER
    for viewer in (0, 1, SPECTATOR):
        assert MASTER not in repr(KINDS["palace-poker"].game.view(state, viewer))


def test_the_readme_master_seed_example_gives_its_commitment_seeds_and_first_ten_cards() -> None:
    """README, "The master seed, palace-master-1": the worked example, and its HMACs transcribed by hand."""
    master, salt = "00" * 31 + "02", "bb" * 16
    assert commitment(master, salt) == "ac9dda1a86d656c9dcd22c50c76feaf959c95e2dbff73fd660308d538dccb4cd"
    draw = master_draw(master, game="42", deal=1, players=["0badc0de", None])
    key = bytes.fromhex(master)
    by_hand = hmac.new(key, b"palace-master-1|seat|42|1|1", hashlib.sha256).hexdigest()
    assert draw.server_seed == "7cc1e774da1e5c471557eef4fda63d2cfa8bcb550b90272c3b41019a263fc4a1"
    assert draw.server_seed == hmac.new(key, b"palace-master-1|server|42|1", hashlib.sha256).hexdigest()
    assert draw.salt == "c9027ebe2f8c01515a8391cbb49348cd"
    assert draw.salt == hmac.new(key, b"palace-master-1|salt|42|1", hashlib.sha256).hexdigest()[:32]
    assert draw.players == ("0badc0de", by_hand) and draw.drawn == (1,)
    assert by_hand == "9feb33df4496ac80e01ffab4bd60d0557d7e9b66ae40780e468261536a595163"
    order = derive_order(FULL_DECK, draw, 1)
    assert " ".join(card.code for card in order[:10]) == "9h 7c 4c 6s 2d Ac Js Kd 3h Td"


def test_the_master_seed_derives_different_seeds_for_each_game_deal_and_seat() -> None:
    master = "12" * 32
    seen = {
        seed
        for game in ("1", "2")
        for deal in (0, 1, 2)
        for seed in master_draw(master, game=game, deal=deal, players=[None, None, None]).players
    }
    seen |= {master_draw(master, game=g, deal=d, players=[]).server_seed for g in ("1", "2") for d in (0, 1, 2)}
    assert len(seen) == 2 * 3 * 3 + 2 * 3
    draw = master_draw(master, game="1", deal=1, players=[None, "ab"])
    assert master_mismatch(master, "34" * 16, commitment(master, "34" * 16), game="1", draws=[draw]) is None
    other = master_draw("56" * 32, game="1", deal=1, players=[None, "ab"])
    mixed = SeedDraw(draw.server_seed, draw.salt, "1", 1, other.players, other.drawn)
    assert "seat 0 in deal 1" in (
        master_mismatch(master, "34" * 16, commitment(master, "34" * 16), game="1", draws=[mixed]) or ""
    )
