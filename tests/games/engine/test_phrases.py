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
- no line holds a raw card code (``Th``): a card is drawn, or written as its face (``10♥``);
- every line says who, what and how much: the seat the event concerns and every seat, count, amount and text
  its fields hold (each of a few documented exceptions, ``UNSAID``, with the reason it is left out);
- a line that shows a palace with the hand it makes (at a showdown to all, in a battle to the other side) names
  the hand and lists its (up to) five cards as the engine's evaluator chose them, then the palace cards it does
  not use: each card once, and no other card.
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
from games.engine.chance import prearranged, sample_shuffle
from games.engine.evaluator import best_hand
from games.engine.event_fields import INT, INTS, PER_SEAT, PUBLIC, SEAT, SEATS, TEXT, EventSpec
from games.engine.phrasing import NUMBER_WORDS, Cards, Line, Names, ordinal
from games.engine.protocol import SPECTATOR, STAFF, Action
from games.engine.registry import KINDS
from games.selectors.words import seat_name
from tests.games.api.test_event_schema import MAX_STEPS, RARE, Scenario, decision, moved, random_scenario
from tests.games.engine.poker.helpers import deck_starting_with

GAMES_PER_KIND = 60
BOT_RATE = 0.5
"""The chance that a game has bot seats (half its seats, each a ``basic`` or ``random`` bot)."""
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
CARD_CODE = re.compile(r"\b[2-9TJQKA][cdhs]\b")
FORBIDDEN = ("?", "None", "{", "}")
UNSAID: dict[tuple[str, str], tuple[str | None, str]] = {
    ("shuffle", "number"): (None, "the shuffle's number in the match: staff find it in the hand histories"),
    ("hand_started", "seats"): (None, "the deal order: the ante, banner and palace lines after it name each seat"),
    ("match_ended", "stacks"): ("scores", "under `points` chips are out of play: the line says the scores"),
}
"""(event type, field) -> (the field whose presence leaves it out, else ``None`` for always; why its line does
not say it)."""


def names_for(seats: int, bots: dict[int, str]) -> Names:
    """People's names, and the server's one naming for a bot's seat (``games.selectors.words.seat_name``)."""
    people = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
    return Names(
        {
            seat: seat_name(seat, player=None if seat in bots else people[seat], bot=bots.get(seat))
            for seat in range(seats)
        }
    )


def says_number(text: str, number: int) -> bool:
    """Whether ``text`` says ``number``: in digits, in words (``three``) or as a place (``third``)."""
    words = [str(number), ordinal(number), *NUMBER_WORDS[number : number + 1]]
    return any(re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE) for word in words)


def unsaid(spec: EventSpec, event: dict[str, Any], line: Line, names: Names) -> list[str]:
    """The fields of ``event`` (as its viewer got it) that its ``line`` leaves out: who (the seat, a target, a
    loser...), how much (chips, counts, scores, places) or what (a hand's name). A zero says nothing, a
    ``count`` may be said by the cards listed, a ``position`` (from 0) as a place (``first``)."""
    text = line.text
    missing = [] if event.get("seat") is None or names(event["seat"]) in text else ["seat"]
    for field in spec.fields:
        if field.name not in event:
            continue
        if (spec.type, field.name) in UNSAID:
            unless, _ = UNSAID[spec.type, field.name]
            if unless is None or unless in event:
                continue
        value = event[field.name]
        if field.kind == SEAT:
            said = names(value) in text
        elif field.kind == SEATS:
            said = all(names(seat) in text for seat in value)
        elif field.kind == INTS:
            said = all(f"{names(seat)} {number}" in text for seat, number in enumerate(value))
        elif field.kind == PER_SEAT:
            said = all(names(int(seat)) in text and (not n or says_number(text, n)) for seat, n in value.items())
        elif field.kind == INT:
            shown = field.name == "count" and len(line.cards) == value
            place = field.name == "position" and says_number(text, value + 1)
            said = not value or shown or place or says_number(text, value)
        elif field.kind == TEXT:
            said = value in text
        else:
            continue
        if not said:
            missing.append(field.name)
    return missing


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
                action = sample_shuffle(request, rng)
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
        self.shown_hands: Counter[str] = Counter()

    def check(self, kind: str, event: dict[str, Any], line: Line, names: Names, where: str, *, decks: int = 1) -> None:
        text, spec = line.text, next(spec for spec in KINDS[kind].events if spec.type == event["type"])
        for bad in FORBIDDEN:
            assert bad not in text, f"{where}: {bad!r} in {text!r}"
        assert not SNAKE.search(text), f"{where}: a code in {text!r}"
        assert not CARD_CODE.search(text), f"{where}: a card code in {text!r}"
        assert not unsaid(spec, event, line, names), f"{where}: {text!r} leaves out {unsaid(spec, event, line, names)}"
        for name in (event.get("hand_names") or {}).values():
            assert name in text, f"{where}: {text!r} does not name the hand, {name}"
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

    def check_shown_hand(self, event: dict[str, Any], line: Line, where: str, *, wild: bool) -> None:
        """palace-poker.txt, "Call" and "Winning the Pot": a palace shown with the hand it makes (in a battle
        without the other side's banner suit), the hand named and then its (up to) five cards, the evaluator's,
        then the palace cards it leaves out; each once and no other."""
        cards = event.get("cards") or {}
        hand = [code for code in cards.get("hand", []) if code is not None]
        if not hand:
            return
        palace = cards["palace"]
        name = event["hand"] if "hand" in event else event["hand_names"]["palace"]
        assert f"{name}, " in line.text, f"{where}: {line.text!r}"
        runs = [piece.codes for piece in line.pieces if isinstance(piece, Cards)]
        assert runs[0] == tuple(hand) and len(hand) <= 5, f"{where}: {line.text!r}"
        assert sorted(line.cards) == sorted(set(hand) | set(palace)), f"{where}: {line.text!r}"
        if not wild:
            # The name and the cards are one fact, the evaluator's: these cards make that hand.
            assert best_hand(parse_cards(hand)).name == name, f"{where}: {line.text!r}"
        self.shown_hands["battle" if "to" in event else "showdown"] += 1


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
                    seen.check(scenario.kind, received, line, names, where, decks=scenario.options.get("decks", 1))
                    seen.note_groups(scenario.kind, received, line)
                    if event.type == "palace_shown":
                        wild = bool(scenario.options.get("kings_in_the_house"))
                        seen.check_shown_hand(received, line, where, wild=wild)
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


def test_showdown_and_battle_lines_name_the_hand_and_its_five_cards(phrased: Phrased) -> None:
    assert phrased.shown_hands["showdown"] > 10 and phrased.shown_hands["battle"] > 10, phrased.shown_hands


def test_a_battle_logged_before_hands_carried_their_cards_still_reads() -> None:
    """A ``palace_shown`` of a battle stored before the event carried the hand's cards (README, Changelog): the
    palace and the hand's name, nothing made up."""
    event = {"type": "palace_shown", "seat": 0, "to": 1, "cards": {"palace": ["Qd", "Qc", "8s"]}}
    event["hand_names"] = {"palace": "three queens"}
    line = KINDS["palace-poker"].phrase(event, Names({0: "frank", 1: "brad"}))
    assert line.text == "frank shows brad the palace cards Q\u2666 Q\u2663 8\u2660: three queens"
