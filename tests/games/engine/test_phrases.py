"""Each game's phrase table (``games.engine.poker.phrases``, ``games.engine.shedding.phrases``) says every event of
its catalogue in words, for every viewer, without a placeholder, a code or a card it may not show.

Given random games of both kinds on the engine (every option at random, 2 to 10 seats, random decisions now and
then a resignation or a turn timeout, some seats played by the bots, and the rare scenarios of
tests/games/api/test_event_schema.py: tied draws for the deal, a stock run out in the banner deal or rebuilt, tied
battles and showdowns), when every event is phrased as each seat, a spectator and staff receive it
(``Event.view_json``), then:

- each catalogue type has exactly one phrase, and each was used;
- no line holds ``?``, ``None``, a brace, or a snake_case code (an event type, a field or a choice as the engine
  names it), and no line lists a card twice (with two decks, no card more than twice);
- a line shows only cards its viewer receives in that event; a group hidden from some viewer was phrased both
  ways (listed to those who see it, counted to the others);
- a showdown's line names the hand and lists its (up to) five cards, then the palace cards it does not use.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.bots import get_bot
from games.engine.cards import parse_cards
from games.engine.chance import fair_shuffle, prearranged
from games.engine.event_fields import PUBLIC
from games.engine.phrasing import Cards, Line, Names
from games.engine.protocol import SPECTATOR, STAFF, Action
from games.engine.registry import KINDS
from tests.games.api.test_event_schema import MAX_STEPS, RARE, Scenario, decision, moved, random_scenario
from tests.games.engine.poker.helpers import deck_starting_with

GAMES_PER_KIND = 60
BOT_RATE = 0.5
"""The chance that a game has bot seats (half its seats, each a ``basic`` or ``random`` bot)."""
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
FORBIDDEN = ("?", "None", "{", "}")


def names_for(seats: int, bots: dict[int, str]) -> Names:
    """People's names, and the server's one naming for a bot's seat (``games.selectors.words.seat_name``)."""
    people = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
    return Names({seat: f"bot {seat} ({bots[seat]})" if seat in bots else people[seat] for seat in range(seats)})


def bot_seats(scenario: Scenario, rng: random.Random) -> dict[int, str]:
    if rng.random() >= BOT_RATE:
        return {}
    chosen = rng.sample(range(scenario.seats), max(1, scenario.seats // 2))
    return {seat: rng.choice(["basic", "random"]) for seat in chosen}


def playout(scenario: Scenario, bots: dict[int, str]) -> Iterator[tuple[Any, ...]]:
    """The events of each action of one game to its end: tests/games/api/test_event_schema.py's playout, with the
    bots deciding for their seats from their own views."""
    game = KINDS[scenario.kind].game
    rng = random.Random(f"phrases-{scenario}-{sorted(bots.items())}")
    state = game.new_game(scenario.options, scenario.seats)
    shuffles, moves = list(scenario.shuffles), list(scenario.moves)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return
        request = game.chance_request(state)
        if request is not None:
            if shuffles:
                top = shuffles.pop(0)
                action = prearranged(
                    sorted(request.cards) if top == "sorted" else deck_starting_with(top, request.cards)
                )
            else:
                action = fair_shuffle(request, game="1", players=[None] * scenario.seats, rng=rng)
        elif moves:
            action = moved(game, state, moves.pop(0))
        elif game.to_act(state)[0] in bots and rng.random() < 0.9:
            seat = game.to_act(state)[0]
            body = get_bot(scenario.kind, bots[seat]).choose(game.view(state, seat), rng)
            cards = parse_cards(body.get("cards", []))
            action = Action(
                type=body["type"], seat=seat, cards=cards, target=body.get("target"), amount=body.get("amount")
            )
        else:
            action = decision(game, state, rng)
        state, events = game.apply(state, action)
        yield events
    raise AssertionError(f"{scenario} did not end in {MAX_STEPS} steps")


def shown_to(event: dict[str, Any]) -> set[str]:
    """Every card code the viewer receives in this event."""
    return {code for codes in (event.get("cards") or {}).values() for code in codes if code is not None}


class Phrased:
    """What the games' lines showed: the types phrased per kind, and per (kind, type, group) whether a hidden
    group was phrased listed, counted, or both."""

    def __init__(self) -> None:
        self.types: dict[str, set[str]] = defaultdict(set)
        self.hidden_ways: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        self.lines = 0
        self.showdowns = 0

    def check(self, kind: str, event: dict[str, Any], line: Line, where: str, *, decks: int = 1) -> None:
        text = line.text
        for bad in FORBIDDEN:
            assert bad not in text, f"{where}: {bad!r} in {text!r}"
        assert not SNAKE.search(text), f"{where}: a code in {text!r}"
        # Two decks (the shedding game's ``decks`` option) hold each card twice: a pile may too.
        assert max(Counter(line.cards).values(), default=0) <= decks, f"{where}: a card listed twice in {text!r}"
        assert set(line.cards) <= shown_to(event), f"{where}: {text!r} shows a card the viewer does not get"
        assert all(isinstance(piece, str | Cards) for piece in line.pieces)
        self.types[kind].add(event["type"])
        self.lines += 1

    def note_groups(self, kind: str, event: dict[str, Any], line: Line) -> None:
        listed = set(line.cards)
        for name, codes in (event.get("cards") or {}).items():
            known = [code for code in codes if code is not None]
            if known:
                self.hidden_ways[kind, event["type"], name].add("listed" if set(known) & listed else "unlisted")
            elif codes:
                self.hidden_ways[kind, event["type"], name].add("counted")
        for name in event.get("unseen") or {}:
            self.hidden_ways[kind, event["type"], name].add("counted")

    def check_showdown(self, event: dict[str, Any], line: Line, where: str) -> None:
        """palace-poker.txt, "Winning the Pot": every palace shown, the best hand named with its five cards."""
        hand, palace = event["cards"]["hand"], event["cards"]["palace"]
        assert event["hand"] in line.text, where
        runs = [piece.codes for piece in line.pieces if isinstance(piece, Cards)]
        assert runs[0] == tuple(hand) and len(hand) <= 5, f"{where}: {line.text!r}"
        assert sorted(line.cards) == sorted(set(hand) | set(palace)), f"{where}: {line.text!r}"
        self.showdowns += 1


@pytest.fixture(scope="module")
def phrased() -> Phrased:
    seen = Phrased()
    scenarios = [random_scenario(kind, seed) for kind in KINDS for seed in range(GAMES_PER_KIND)]
    for number, scenario in enumerate(RARE + scenarios):
        parts = KINDS[scenario.kind]
        bots = bot_seats(scenario, random.Random(number))
        names = names_for(scenario.seats, bots)
        for step, events in enumerate(playout(scenario, bots)):
            for event in events:
                for viewer in [*range(scenario.seats), SPECTATOR, STAFF]:
                    received = event.view_json(viewer)
                    where = f"{scenario}, step {step}, {event.type} for {viewer!r}"
                    line = parts.phrase(received, names)
                    seen.check(scenario.kind, received, line, where, decks=scenario.options.get("decks", 1))
                    seen.note_groups(scenario.kind, received, line)
                    if event.type == "palace_shown" and "to" not in received:
                        seen.check_showdown(received, line, where)
    return seen


@pytest.mark.parametrize("kind", KINDS)
def test_each_catalogue_type_has_one_phrase(kind: str) -> None:
    parts = KINDS[kind]
    assert set(parts.phrases) == {spec.type for spec in parts.events}


@pytest.mark.parametrize("kind", KINDS)
def test_every_event_of_random_games_reads_clean_for_every_viewer(phrased: Phrased, kind: str) -> None:
    assert phrased.types[kind] == {spec.type for spec in KINDS[kind].events}
    assert phrased.lines > GAMES_PER_KIND * 100, "the games were too short to say anything"


@pytest.mark.parametrize("kind", KINDS)
def test_a_group_some_viewers_may_not_see_is_listed_to_them_and_counted_to_the_others(
    phrased: Phrased, kind: str
) -> None:
    """A card a viewer may not know is never printed: the phrase counts it ("three palace cards, face down")."""
    for spec in KINDS[kind].events:
        for group in spec.groups:
            if group.shown == PUBLIC or (spec.type, group.name) == ("shuffle", "order"):
                continue
            ways = phrased.hidden_ways[kind, spec.type, group.name]
            assert "counted" in ways, f"{kind} {spec.type}.{group.name} was never phrased hidden"
            assert "listed" in ways, f"{kind} {spec.type}.{group.name} was never listed to who sees it"


def test_showdown_lines_name_the_hand_and_its_five_cards(phrased: Phrased) -> None:
    assert phrased.showdowns > 10
