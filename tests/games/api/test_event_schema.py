"""The typed log: every log entry, as ``events/`` gives it to each viewer, fits the served schema, event by event;
each game's event catalogue (``games.engine.poker.events``, ``games.engine.shedding.events``), from which the
schema's event components are made, names exactly the event types, fields and card groups its engine emits.

Given random games of both kinds on the engine (every option at random, 2 to 10 seats, random legal decisions,
now and then a resignation or a turn timeout) and a few prearranged ones for the rare events (a pack run out among
seats tied for the first deal, a stock run out in the banner deal or rebuilt from the discards, tied battles and
showdowns), when each entry is made as the services store it and rendered for every seat, a spectator and staff
as ``events/`` renders it (``event_json``, then ``EventOutput``), then:

- the entry validates against the served schema's ``EventOutput`` with every object closed
  (``additionalProperties: false``): a field an event carries that its component does not name fails as surely
  as a missing, mistyped or out-of-enum one, and so does an event type without a component;
- ``EventOutput`` renders every field the selector makes;
- each game emits every type its catalogue lists, every field and group of it (those not ``optional`` in every
  event), with the ``seat`` and visibility the catalogue says;
- each event fits exactly one branch of ``GameEvent`` for a validator that ignores the discriminator too.

The entries the services write themselves (seats taken by people and bots, a seat left, a seat handed to the bot,
a cancellation) are read through ``events/`` by every viewer, in games played through the services.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from jsonschema import validators
from jsonschema.exceptions import best_match
from openapi_schema_validator import OAS30Validator, oas30_format_checker
from rest_framework.test import APIClient

from games.api.serializers import EventOutput, render
from games.engine.cards import parse_cards
from games.engine.chance import fair_shuffle, prearranged, sample_shuffle
from games.engine.errors import EngineError
from games.engine.event_fields import (
    EITHER,
    MAYBE_SEATED,
    NO_SEAT,
    PRIVATE,
    PUBLIC,
    SEATED,
    STAFF_ONLY,
    EventSpec,
)
from games.engine.poker.events import EVENTS as POKER_EVENTS
from games.engine.protocol import SPECTATOR, STAFF, Action
from games.engine.protocol import Game as Engine
from games.engine.registry import GAMES
from games.engine.shedding.events import EVENTS as SHED_EVENTS
from games.models import Event, Game
from games.selectors.read_models import event_json, game_get, viewer_for
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.lifecycle import game_cancel, game_resign, seat_leave
from games.services.turns import bot_move, timeout_apply
from players.services import player_register
from tests.games.engine.poker.helpers import deck_starting_with
from tests.games.selectors.test_redaction import poker_options, random_body, shedding_options

POKER, SHED = "palace-poker", "palace"
CATALOGUES: dict[str, tuple[EventSpec, ...]] = {POKER: POKER_EVENTS, SHED: SHED_EVENTS}
GAMES_PER_KIND = 40
FAIR_GAMES = 6
"""More games of each kind whose shuffles follow committed seeds (the first 40 replay as they did before seeds)."""
MAX_STEPS = 20_000
RESIGN_RATE = 0.01
TIMEOUT_RATE = 0.05
"""The chances, before each decision, of a resignation (half of them an absent seat's, marked ``timeout``) and of
a turn timeout (the seat's default action)."""
CREATED = timezone.now()
# The random games run once, for the whole module (the ``seen`` fixture): its tests share one xdist worker.
pytestmark = pytest.mark.xdist_group("event_schema")
GROUP_KEYS = ("cards", "unseen", "hand_names", "visible_to")
"""An event's keys for its card groups (``games.engine.protocol.Event.view_json``); the others are its data."""


# --- the schema ---


def closed(node: Any) -> Any:
    """A copy of a schema in which every object that names its properties admits no other."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: closed(value) for key, value in node.items()}
    if isinstance(node.get("properties"), dict):
        out.setdefault("additionalProperties", False)
    return out


def undiscriminated(node: Any) -> Any:
    """A copy without ``discriminator``: every ``oneOf`` judged as JSON Schema judges it (exactly one branch fits),
    as a validator that ignores OpenAPI's discriminator would."""
    if isinstance(node, list):
        return [undiscriminated(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {key: undiscriminated(value) for key, value in node.items() if key != "discriminator"}


def remembering(validator_class: Any) -> Any:
    """``validator_class`` whose ``$ref`` skips an instance it found valid against the same reference before.

    A verdict depends only on the instance, the schema referred to and the validator (one class per validator made
    here, so one root schema), so the skipped check would give the same answer; an invalid instance is checked
    every time, for its errors. Random games repeat the same events and actions to several viewers and in many
    entries: checking each distinct one once made the event module's games about twice as fast."""
    valid: set[tuple[str, str]] = set()
    ref = validator_class.VALIDATORS["$ref"]

    def remembered(validator: Any, reference: str, instance: Any, schema: Any) -> Iterator[Any]:
        key = (reference, json.dumps(instance, sort_keys=True))
        if key in valid:
            return
        errors = list(ref(validator, reference, instance, schema))
        if not errors:
            valid.add(key)
        yield from errors

    return validators.extend(validator_class, {"$ref": remembered})


@dataclass(frozen=True)
class Contract:
    """The served schema (``schema``) and strict validators of its components (``validator(name)``)."""

    schema: dict[str, Any]

    def validator(self, name: str, *, discriminated: bool = True) -> Any:
        components = closed(self.schema["components"])
        if not discriminated:
            components = undiscriminated(components)
        root = {"$ref": f"#/components/schemas/{name}", "components": components}
        return remembering(OAS30Validator)(root, format_checker=oas30_format_checker)


def check(validator: Any, instance: Any, where: str) -> None:
    error = best_match(validator.iter_errors(instance))
    assert error is None, f"{where}: {error.message} at {list(error.absolute_path)}\n{json.dumps(instance)[:3000]}"


@pytest.fixture(scope="module")
def contract(openapi_text) -> Contract:
    """The schema as ``/api/schema/?format=json`` serves it (tests/conftest.py ``openapi_text``)."""
    return Contract(json.loads(openapi_text))


# --- random games on the engine ---


@dataclass(frozen=True)
class Scenario:
    """A game to play: ``shuffles`` prearrange its first shuffles (``"sorted"``: the cards sorted by rank, so every
    pair ties in a draw for the first deal; else the codes on top); ``moves`` are its first decisions, by type
    (``moved``), before random ones."""

    kind: str
    seats: int
    options: dict[str, Any]
    seed: int
    shuffles: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()
    fair: bool = False
    """Its shuffles follow committed seeds (``games.engine.seeding``), the server's way since they exist."""


def random_scenario(kind: str, seed: int) -> Scenario:
    rng = random.Random(f"events-{kind}-{seed}")
    if kind == POKER:
        seats = rng.choice([2, 2, 3, 3, 4, 5, 6, 10])
        return Scenario(kind, seats, poker_options(rng), seed)
    seats = rng.randint(2, 5)
    return Scenario(kind, seats, shedding_options(rng, seats), seed)


RARE = [
    # palace-poker.txt, "The Deal" (and palace-shedding-a.txt ¶6): every pair ties, so the pack runs out.
    Scenario(POKER, 2, {"first_dealer": None, "max_hands": 1}, 0, ("sorted",)),
    Scenario(SHED, 2, {"first_dealer": None, "max_turns": 60}, 0, ("sorted",)),
    # palace-poker.txt, "Banner Cards": seat 8 must get a heart and none is left (test_rules_scenarios.py).
    Scenario(
        POKER, 8, {"first_dealer": 0, "max_hands": 1}, 0, ("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ac Ad As Kc Kd Ks",)
    ),
    # palace-poker.txt, "Buy": free buys without money (points) until the stock is gone, so the discard pile,
    # shuffled, is the next stock.
    Scenario(
        POKER, 2, {"points": True, "ante": 0, "first_dealer": 0, "max_hands": 1}, 0, moves=("buy", "discard") * 45
    ),
    # palace-poker.txt, "Ties": As Kc Qd 9c against Ah Kd Qc 9d, each without the other's banner suit: a complete
    # tie of the last two, who split the pot.
    Scenario(POKER, 2, {"first_dealer": 0, "max_hands": 1}, 0, ("As Ah", "Kc Kd Qd Qc 9c 9d"), ("bet", "call")),
    # palace-poker.txt, "Palace Poker without money": the same hands at a showdown, an absolute tie.
    Scenario(
        POKER,
        2,
        {"points": True, "ante": 0, "first_dealer": 0, "max_hands": 1},
        0,
        ("As Ah", "Kc Kd Qd Qc 9c 9d"),
        ("stay", "stay"),
    ),
]


def moved(game: Engine, state: Any, type_: str) -> Action:
    """The first seat to act makes its first legal decision of type ``type_``: with every card it offers, its
    first target, its smallest amount."""
    seat = game.to_act(state)[0]
    (legal,) = [choice for choice in game.legal_actions(state, seat) if choice.type == type_]
    target = legal.targets[0][0] if legal.targets else None
    return Action(type=type_, seat=seat, cards=legal.cards, target=target, amount=legal.min_amount)


def decision(game: Engine, state: Any, rng: random.Random) -> Action:
    """Now and then a resignation or a turn timeout; else a random legal decision of a seat to act."""
    if rng.random() < RESIGN_RATE:
        seat = rng.randrange(state.seats)
        resign = Action(type="resign", seat=seat, timeout=rng.random() < 0.5)
        try:
            game.apply(state, resign)
        except EngineError:  # that seat has left already
            pass
        else:
            return resign
    if rng.random() < TIMEOUT_RATE:
        return game.default_action(state, rng.choice(game.due_to_act(state)))
    seat = rng.choice(game.to_act(state))
    body = random_body(rng.choice(game.legal_actions(state, seat)).to_json(), rng)
    cards = parse_cards(body.get("cards", []))
    return Action(type=body["type"], seat=seat, cards=cards, target=body.get("target"), amount=body.get("amount"))


def playout(scenario: Scenario) -> Iterator[tuple[Action, tuple[Any, ...]]]:
    """Each action of one game to its end, with the events it made."""
    game = GAMES[scenario.kind]
    rng = random.Random(f"playout-{scenario}")
    state = game.new_game(scenario.options, scenario.seats)
    shuffles, moves = list(scenario.shuffles), list(scenario.moves)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return
        request = game.chance_request(state)
        if request is None:
            action = moved(game, state, moves.pop(0)) if moves else decision(game, state, rng)
        elif shuffles:
            top = shuffles.pop(0)
            order = sorted(request.cards) if top == "sorted" else deck_starting_with(top, request.cards)
            action = prearranged(order)
        else:
            action = (
                fair_shuffle(request, game="1", players=[None] * scenario.seats, rng=rng)
                if scenario.fair
                else sample_shuffle(request, rng)
            )
        state, events = game.apply(state, action)
        yield action, events
    raise AssertionError(f"{scenario} did not end in {MAX_STEPS} steps")


def stored(seq: int, action: Action, events: tuple[Any, ...]) -> Event:
    """The log row the services write for ``action`` (``games.services.log``), through JSON as the database
    keeps it."""
    payload = {"action": action.to_json(), "events": [event.to_json() for event in events]}
    return Event(seq=seq, kind=action.type, actor=action.seat, payload=json.loads(json.dumps(payload)), created=CREATED)


@dataclass
class Profile:
    """What the events of one type showed staff across the games: each key set (``fields`` and ``groups`` hold
    the union, ``always_fields`` and ``always_groups`` what every event had), what ``seat`` was (``"seat"``,
    ``"null"``), who saw each group (``"all"``, ``"seats"``, ``"staff"``: staff alone) and which groups came with a
    hand's name."""

    fields: set[str] = field(default_factory=set)
    always_fields: set[str] | None = None
    groups: set[str] = field(default_factory=set)
    always_groups: set[str] | None = None
    seats: set[str] = field(default_factory=set)
    shown: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    named: set[str] = field(default_factory=set)

    def add(self, event: dict[str, Any]) -> None:
        data, groups = set(event) - {"type", "seat", *GROUP_KEYS}, set(event.get("cards", {}))
        self.fields |= data
        self.always_fields = data if self.always_fields is None else self.always_fields & data
        self.groups |= groups
        self.always_groups = groups if self.always_groups is None else self.always_groups & groups
        self.seats.add("null" if event["seat"] is None else "seat")
        for name, seen_by in event.get("visible_to", {}).items():
            self.shown[name].add("all" if seen_by == "all" else "seats" if seen_by else "staff")
        self.named |= set(event.get("hand_names", {}))


@dataclass
class Seen:
    """What the games emitted: the event types per kind, a ``Profile`` per kind and type, and ``samples``: one
    event of each kind and type for each set of keys any viewer got."""

    types: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    profiles: dict[tuple[str, str], Profile] = field(default_factory=lambda: defaultdict(Profile))
    samples: dict[tuple[str, str, frozenset[str]], dict[str, Any]] = field(default_factory=dict)
    entries: int = 0

    def add(self, kind: str, entry: dict[str, Any], viewer: object) -> None:
        for event in entry.get("events", []):
            self.samples.setdefault((kind, event["type"], frozenset(event)), event)
            if viewer == STAFF:
                self.types[kind].add(event["type"])
                self.profiles[kind, event["type"]].add(event)


def check_entry(validator: Any, row: Event, viewer: object, where: str) -> dict[str, Any]:
    """``row`` as ``events/`` gives it to ``viewer``: the serializer keeps every field the selector makes, and the
    entry fits the schema. Returns it."""
    made = event_json(row, viewer)
    served = render(EventOutput, made)
    # EventOutput drops a field it does not declare; it adds only `"bot": null` (nullable, so never skipped).
    assert served == {"bot": None, **made}, f"{where}: EventOutput changes the entry"
    check(validator, served, where)
    return served


def play_and_check(scenarios: list[Scenario], contract: Contract) -> Seen:
    validator = contract.validator("EventOutput")
    seen = Seen()
    for scenario in scenarios:
        for seq, (action, events) in enumerate(playout(scenario), start=1):
            row = stored(seq, action, events)
            for viewer in [*range(scenario.seats), SPECTATOR, STAFF]:
                entry = check_entry(validator, row, viewer, f"{scenario}, entry {seq} for {viewer!r}")
                seen.add(scenario.kind, entry, viewer)
            seen.entries += 1
    return seen


@pytest.fixture(scope="module")
def seen(contract: Contract) -> Seen:
    scenarios = [random_scenario(kind, seed) for kind in CATALOGUES for seed in range(GAMES_PER_KIND)]
    fair = [
        replace(random_scenario(kind, seed), fair=True)
        for kind in CATALOGUES
        for seed in range(GAMES_PER_KIND, GAMES_PER_KIND + FAIR_GAMES)
    ]
    return play_and_check(RARE + scenarios + fair, contract)


def test_every_entry_of_random_games_fits_the_schema_for_every_viewer(seen: Seen) -> None:
    assert seen.entries > GAMES_PER_KIND * 2 * 20, "the games were too short to say anything"


@pytest.mark.parametrize("kind", CATALOGUES)
def test_each_game_emits_every_event_type_of_its_catalogue_and_no_other(seen: Seen, kind: str) -> None:
    assert seen.types[kind] == {spec.type for spec in CATALOGUES[kind]}


SEATS_SEEN = {SEATED: {"seat"}, NO_SEAT: {"null"}, MAYBE_SEATED: {"seat", "null"}}
SHOWN_TO = {PUBLIC: {"all"}, PRIVATE: {"seats"}, EITHER: {"all", "seats"}, STAFF_ONLY: {"staff"}}


@pytest.mark.parametrize("kind", CATALOGUES)
def test_each_catalogue_entry_is_what_its_game_emits(seen: Seen, kind: str) -> None:
    """No more than the schema checks above, no less: every field and group a type lists is emitted, those not
    ``optional`` by every event, its ``seat`` is what the entry says, each group is seen by whom it says (both
    ways for ``EITHER``), and the groups said to be ``named`` come with a hand's name."""
    for spec in CATALOGUES[kind]:
        profile = seen.profiles[kind, spec.type]
        where = f"{kind} {spec.type}"
        assert profile.fields == {field.name for field in spec.fields}, where
        assert profile.always_fields == {field.name for field in spec.fields if not field.optional}, where
        assert profile.groups == {group.name for group in spec.groups}, where
        assert profile.always_groups == {group.name for group in spec.groups if not group.optional}, where
        assert profile.seats == SEATS_SEEN[spec.seat], where
        assert {name: profile.shown[name] for name in profile.groups} == {
            group.name: SHOWN_TO[group.shown] for group in spec.groups
        }, where
        assert profile.named == {group.name for group in spec.groups if group.named}, where


def test_a_remembering_validator_still_refuses_what_it_has_not_accepted() -> None:
    """``remembering`` skips only instances found valid: after a valid event, an invalid one of the same component
    (and the valid one changed in one field) is refused as by the plain validator."""
    root = {
        "$ref": "#/components/schemas/Entry",
        "components": {
            "schemas": {
                "Entry": {
                    "type": "object",
                    "properties": {"events": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}}},
                },
                "Event": {"type": "object", "properties": {"seat": {"type": "integer"}}, "additionalProperties": False},
            }
        },
    }
    validator = remembering(OAS30Validator)(root, format_checker=oas30_format_checker)
    check(validator, {"events": [{"seat": 1}, {"seat": 1}]}, "valid")
    for bad in ({"seat": "1"}, {"seat": 1, "cards": []}):
        with pytest.raises(AssertionError):
            check(validator, {"events": [{"seat": 1}, bad]}, "invalid")
        assert not OAS30Validator(root).is_valid({"events": [bad]})


def test_the_event_union_is_discriminated_by_type_with_a_component_per_type(contract: Contract) -> None:
    schemas = contract.schema["components"]["schemas"]
    union = schemas["GameEvent"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(mapping) == {spec.type for specs in CATALOGUES.values() for spec in specs}
    assert sorted(ref["$ref"] for ref in union["oneOf"]) == sorted(mapping.values())
    items = schemas["EventOutput"]["properties"]["events"]["items"]
    assert items == {"$ref": "#/components/schemas/GameEvent"}
    for type_, ref in mapping.items():
        component = schemas[ref.rsplit("/", 1)[-1]]
        for variant in [schemas[one["$ref"].rsplit("/", 1)[-1]] for one in component.get("oneOf", [])] or [component]:
            assert variant["properties"]["type"] == {"type": "string", "enum": [type_]}
            assert {"type", "seat"} <= set(variant["required"])


def test_each_event_fits_exactly_one_branch_of_the_union(seen: Seen, contract: Contract) -> None:
    """Without the discriminator too: a validator that ignores it finds one component per event (the games'
    variants of one type are told apart by what they require)."""
    plain = contract.validator("GameEvent", discriminated=False)
    for (kind, type_, _), event in seen.samples.items():
        check(plain, event, f"{kind} {type_}")


# --- the entries the services write themselves: seats, bots, a cancellation ---


def read_log(game_id: int, user: Any) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    answer = client.get(f"/api/v1/games/{game_id}/events/?limit=500")
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.mark.django_db
def test_seat_bot_and_cancellation_entries_fit_the_schema_as_events_serves_them(contract: Contract, throttle_rates):
    throttle_rates(user=None, anon=None)
    page = contract.validator("EventPageOutput")
    ann, ben, cat, dan = (player_register(name=f"typed-{name}")[0] for name in ("ann", "ben", "cat", "dan"))
    staff = player_register(name="typed-staff")[0]
    staff.is_staff = True
    staff.save()
    # Seats taken by a person and by a bot, a seat left, a cancellation.
    waiting = game_create(creator=ann, kind=SHED, seats=4)
    seat_take(game_id=waiting.pk, player=ann, seat=0)
    seat_take(game_id=waiting.pk, player=ann, seat=2, bot="random")
    seat_take(game_id=waiting.pk, player=ben, seat=1)
    seat_leave(user=ben, game_id=waiting.pk)
    game_cancel(user=ann, game_id=waiting.pk)
    # A seat handed to the bot at its first timeout, a resignation, then random decisions to the end.
    rng = random.Random("typed")
    played = game_create(
        creator=ann, kind=POKER, seats=3, options={"max_hands": 2, "max_timeouts": 1, "on_absent": "bot"}
    )
    for seat, user in enumerate((ann, ben, cat)):
        seat_take(game_id=played.pk, player=user, seat=seat)
    Game.objects.filter(pk=played.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=played.pk)
    users = {0: ann, 1: ben, 2: cat}
    resigned = False
    for _ in range(3000):
        game = Game.objects.get(pk=played.pk)
        if game.status != "active":
            break
        humans = list(game.seats.filter(to_act=True, bot="").values_list("number", flat=True))
        if not humans:
            assert bot_move(game_id=game.pk, version=game.version)
        elif not resigned:
            game_resign(user=users[humans[0]], game_id=game.pk)
            resigned = True
        else:
            seat = humans[0]
            view = read_view(game.pk, users[seat])
            body = random_body(rng.choice(view["legal_actions"]), rng)
            action_submit(user=users[seat], game_id=game.pk, expected_version=view["version"], **body)
    else:
        raise AssertionError("the match did not end")
    kinds = set()
    for game_id in (waiting.pk, played.pk):
        rows = list(Event.objects.filter(game_id=game_id).order_by("seq"))
        for user in (ann, ben, cat, dan, staff):  # dan watches both
            log = read_log(game_id, user)
            check(page, log, f"game {game_id} for {user}")
            # Every field the selector makes is served (`"bot": null` added, see check_entry).
            viewer = viewer_for(game_get(game_id), user)
            assert log["results"] == [{"bot": None, **event_json(row, viewer)} for row in rows]
            kinds |= {entry["kind"] for entry in log["results"]}
    assert {"seat_taken", "seat_left", "game_cancelled", "seat_to_bot", "resign"} <= kinds


def read_view(game_id: int, user: Any) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    return client.get(f"/api/v1/games/{game_id}/").json()
