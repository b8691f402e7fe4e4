"""Redaction property: random games of both kinds, played through the services, never show a viewer a
card he may not know, in any view or any field of any log entry (``action`` included).

Given 200 games (100 of each kind; every option drawn at random per game, 2-5 seats, humans, now and
then a bot seat, an expired deadline, a resignation, and ``max_timeouts`` that resign an absent seat or
hand it to the basic bot), when each decision is applied through ``action_submit``, ``game_resign``,
``bot_move`` or ``timeout_apply``, then every seat, a spectator and an anonymous client read the game
view and every new log entry, and no card code in them lies outside what that viewer knows.

Every game deals with commit-reveal shuffles (games.engine.seeding; half the players bring their own seed,
Palace Poker reveals per match or per hand at random) under a master seed: no read of a viewer who is not staff,
the game's export included (audited again and again while the match runs, ``EXPORT_EVERY``), holds a server
seed or salt before the ``seeds_revealed`` event that publishes it, nor the master seed.

What a viewer knows is derived here from the staff log by the rules, never from the log's visibility
fields (one table per game, below): a card becomes known to a viewer when the rules show it to him,
and knowledge starts again with each deal, since a card code seen in one hand names a hidden card in
the next. A log entry is checked when it is written, when its viewer knows the least he ever will.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.engine.cards import FULL_DECK
from games.engine.errors import EngineError
from games.engine.protocol import SPECTATOR, STAFF
from games.models import Event, Game
from games.selectors.export import game_export
from games.selectors.read_models import event_json, game_detail, game_get
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.lifecycle import game_resign
from games.services.turns import bot_move, timeout_apply
from players.services import player_register
from tests.games.engine.shedding.test_properties import OPTION_VALUES as SHEDDING_OPTION_VALUES

CODES = {card.code for card in FULL_DECK}
GAMES_PER_KIND = 100
"""In the suite; ``benchmarks/redaction_soak.py`` plays 1,000 of each kind with the same audit."""
BLOCKS = 10
"""The games of a kind run in this many tests, so that pytest-xdist spreads them over its workers."""
MAX_DECISIONS = 3000
EXPORT_EVERY = 8
"""A running game's exports are audited after this many writes, then at gaps of a quarter of the writes so far
(each audit reads the whole log: audits at a fixed gap made long shedding games quadratic). An export's entries
are compared whole at every audit, and a seed leaked in it stays there until its reveal, so a sparser audit
still meets what a denser one would."""
RESIGN_RATE = 0.01
"""The chance, before each decision, that a random human seat resigns (README decisions, "Resigning")."""


def codes_in(value: object, found: set[str] | None = None) -> set[str]:
    """Every card code anywhere in a JSON value, the engine's options aside (an option is no card)."""
    found = set() if found is None else found
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "options":
                codes_in(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            codes_in(item, found)
    elif isinstance(value, str) and value in CODES:
        found.add(value)
    return found


# --- who learns which cards, by the rules (each function: event, seats, options -> viewers) ---

Everyone = Callable[[dict, int, dict], Iterable[object]]


def _all(event: dict, seats: int, options: dict) -> list[object]:
    return [*range(seats), SPECTATOR]


def _owner(event: dict, seats: int, options: dict) -> list[object]:
    return [event["seat"]]


def _nobody(event: dict, seats: int, options: dict) -> list[object]:
    return []


def _poker_palace_shown(event: dict, seats: int, options: dict) -> list[object]:
    # palace-poker.txt, "Call": the caller alone is shown the palace; "Winning the Pot": a showdown shows all.
    return [event["seat"], event["to"]] if "to" in event else _all(event, seats, options)


POKER_RULES: dict[str, dict[str, Everyone]] = {
    # palace-poker.txt, "The Deal", "Banner Cards", "Buy", "Discard", "Palace Cards"; the Open Market Rule.
    "dealer_card": {"card": _all},
    "banner_dealt": {"banner": _all},
    "banner_rejected": {"card": _all},
    "soldier_drawn": {"card": _all},
    "buy_discard": {"card": _all},
    "discard": {"cards": _all},
    "captured": {"cards": _all},
    "palace_dealt": {"palace": _owner},
    "palace_shown": {"palace": _poker_palace_shown, "hand": _poker_palace_shown},
    "shuffle": {"order": _nobody},
}


def _shed_dealt_face_up(event: dict, seats: int, options: dict) -> list[object]:
    # palace-shedding-a.txt ¶8.5 deals the face-up row for all to see; text b deals six cards to the hand.
    return _all(event, seats, options) if options["setup_deal"] == "face_up" else [event["seat"]]


def _shed_failed_blind_card(event: dict, seats: int, options: dict) -> list[object]:
    # palace-shedding-b.txt, "Gameplay": the house rule hides the failed face-down card in the hand.
    return [event["seat"]] if options["hide_failed_blind_card"] else _all(event, seats, options)


SHEDDING_RULES: dict[str, dict[str, Everyone]] = {
    # palace-shedding-a.txt ¶7-13 and palace-shedding-b.txt "Setup", "Gameplay".
    "dealer_card": {"card": _all},
    "dealt": {"face_down": _nobody, "face_up": _shed_dealt_face_up, "hand": _owner},
    "face_up_chosen": {"cards": _owner},  # sealed until every seat has chosen
    "face_up_set": {"face_up": _all, "to_hand": _all},
    "play": {"cards": _all},
    "burn": {"cards": _all},
    "pick_up": {"cards": _all},
    "face_up_taken": {"cards": _all},
    "draw": {"cards": _owner},
    "face_down_failed": {"card": _shed_failed_blind_card},
    "shuffle": {"order": _nobody},
}

RULES = {"palace-poker": POKER_RULES, "palace": SHEDDING_RULES}
NEW_DEAL = {"palace-poker": "banner_deal", "palace": "deal"}


def learn(known: dict, kind: str, staff_entry: dict, seats: int, options: dict) -> None:
    """Add what one staff-view log entry shows to whom; a new deal forgets every card code."""
    for event in staff_entry.get("events", []):
        if event["type"] == "shuffle" and event.get("purpose") == NEW_DEAL[kind]:
            for cards in known.values():
                cards.clear()
        groups = event.get("cards", {})
        if not groups:
            continue
        rules = RULES[kind].get(event["type"])
        assert rules is not None, f"an event with cards the oracle has no rule for: {event['type']}"
        for name, codes in groups.items():
            assert name in rules, f"a card group the oracle has no rule for: {event['type']}.{name}"
            for viewer in rules[name](event, seats, options):
                known[viewer] |= set(codes)


# --- random games ---


def poker_options(rng: random.Random) -> dict:
    """Every option of Palace Poker at random (palace-poker.txt "Variations", palace-poker-hindi.txt),
    with small stacks and few hands so that a match ends soon."""
    small_bet = rng.randint(1, 6)
    points = rng.random() < 0.3
    options = {
        "betting": rng.choice(["limit", "no_limit"]),
        "small_bet": small_bet,
        "big_bet": 2 * small_bet,
        "starting_stack": rng.randint(4, 12) * small_bet,
        "first_dealer": rng.choice([0, None]),
        "max_hands": rng.randint(1, 3),
        "max_raises": rng.randint(1, 3),
        "no_pot_sharing": rng.random() < 0.5,
        "open_market": rng.random() < 0.5,
        "points": points,
        "kings_in_the_house": rng.random() < 0.5,
        "showdown_tie": rng.choice(["own_suit_count", "split"]),
        "two_left_must_battle": rng.random() < 0.5,
        "reveal_seeds": rng.choice(["match", "hand"]),
    }
    if options["betting"] == "no_limit":
        options["no_limit_first_raise"] = rng.choice(["small_bet_without_soldiers", "big_bet"])
    if points:
        options["ante"] = 0
        options["target_points"] = rng.randint(5, 20)
    return options


def shedding_options(rng: random.Random, seats: int) -> dict:
    """Every option of the shedding game at random (each value of each option of both texts)."""
    options = {name: rng.choice(values) for name, values in SHEDDING_OPTION_VALUES.items()}
    options["first_dealer"] = rng.choice([None, seats - 1])
    options["max_turns"] = rng.choice([60, 200])
    return options


def random_body(choice: dict, rng: random.Random) -> dict:
    """A request for one legal entry: a uniform count of its cards, a target, an amount in range."""
    body: dict = {"type": choice["type"]}
    if choice.get("max_cards"):
        body["cards"] = rng.sample(choice["cards"], rng.randint(choice["min_cards"], choice["max_cards"]))
    if "targets" in choice:
        body["target"] = rng.choice(choice["targets"])["seat"]
    if "min_amount" in choice:
        body["amount"] = rng.randint(choice["min_amount"], choice["max_amount"])
    return body


class Audit:
    """One game, its viewers and what each knows; ``check`` raises on any card a viewer may not know."""

    def __init__(self, game: Game, humans: dict, spectator) -> None:
        self.game_id = game.pk
        self.kind = game.kind
        self.seats = game.seat_count
        self.options = game.options
        self.users = {**humans, SPECTATOR: spectator}
        self.known: dict = {viewer: set() for viewer in [*range(self.seats), SPECTATOR]}
        self.seen = 0
        self.entries = 0
        self.views = 0
        self.writes = 0
        self.next_export = EXPORT_EVERY
        self.served: dict[tuple[object, int], dict] = {}
        """Each viewer's log entries as checked when written (an export must give the same)."""
        self.views_now: dict[object, dict] = {}
        """Each viewer's game view as checked after the last write: what the players decide from."""
        self.secrets: set[str] = {game.seed_master, game.seed_master_salt}
        """The server seeds and salts committed and not yet revealed: staff's alone. The match's master seed
        (games.engine.master_seed) is one from the start; no read audited here may show it (an export reveals
        it only with the whole log, once the match is over, when the audit of exports stops)."""

    def check(self, viewer: object, value: object, where: str) -> None:
        self.views += 1
        leaked = codes_in(value) - self.known[viewer]
        assert not leaked, f"{where} showed {viewer!r} {sorted(leaked)} in game {self.game_id} ({self.kind})"
        text = json.dumps(value, default=str)
        seeds = [secret for secret in self.secrets if secret in text]
        assert not seeds, f"{where} showed {viewer!r} an unrevealed seed in game {self.game_id} ({self.kind})"

    def learn_seeds(self, staff_entry: dict) -> None:
        """Seeds committed by an entry are secret until an entry reveals them (games.engine.seeding)."""
        seeds = (staff_entry.get("action") or {}).get("seeds")
        if seeds:
            self.secrets |= {seeds["server_seed"], seeds["salt"]}
        for event in staff_entry.get("events", []):
            if event["type"] == "seeds_revealed":
                self.secrets -= {event["server_seed"], event["salt"]}

    def after_write(self, answer: dict | None = None, actor: int | None = None) -> None:
        """Learn from, then check, every entry written since the last call; then every view."""
        rows = list(Event.objects.filter(game_id=self.game_id, seq__gt=self.seen).order_by("seq"))
        checked: dict[int, dict] = {}
        for row in rows:
            staff_entry = event_json(row, STAFF)
            learn(self.known, self.kind, staff_entry, self.seats, self.options)
            self.learn_seeds(staff_entry)
            for viewer in self.users:
                entry = event_json(row, viewer)
                self.check(viewer, entry, f"log entry {row.seq} ({row.kind})")
                self.served[viewer, row.seq] = entry
                if viewer == actor:
                    checked[row.seq] = entry
            self.seen = row.seq
            self.entries += 1
        if answer is not None:
            # The answer's entries are the log's, checked above as they were written (a deal among them
            # starts the knowledge again); the rest of the answer is checked against what is known now.
            assert {entry["seq"]: entry for entry in answer["events"]} == checked
            self.check(actor, {**answer, "events": []}, "the action answer")
        game = game_get(self.game_id)
        for viewer, user in self.users.items():
            self.views_now[viewer] = game_detail(game, user)
            self.check(viewer, self.views_now[viewer], "the game view")
        self.writes += 1
        if game.status == "active" and self.writes >= self.next_export:
            self.next_export = self.writes + max(EXPORT_EVERY, self.writes // 4)
            # Once the match is over and its seeds revealed, an export is the whole log (games.selectors.export).
            for viewer, user in self.users.items():
                export = game_export(game, user)
                # Its entries are those checked when written (a viewer knows less of an old hand today).
                assert export["log"] == [self.served[viewer, entry["seq"]] for entry in export["log"]]
                self.check(viewer, {**export, "log": []}, "the export")
        self.check(SPECTATOR, game_detail(game, AnonymousUser()), "the anonymous game view")


def play_audited(kind: str, seed: int) -> Audit:
    """Create, seat and play one game to its end with random legal decisions, auditing every step."""
    rng = random.Random(f"{kind}-{seed}")
    seats = rng.randint(2, 5)
    options = poker_options(rng) if kind == "palace-poker" else shedding_options(rng, seats)
    tag = "pk" if kind == "palace-poker" else "sh"
    users = [player_register(name=f"r{seed}s{seat}{tag}")[0] for seat in range(seats)]
    spectator = player_register(name=f"r{seed}watch{tag}")[0]
    # Absent players (games.services.turns.timeout_apply): resigned, or handed to the basic bot.
    absent = {"max_timeouts": rng.choice([1, 2, None]), "on_absent": rng.choice(["resign", "bot"])}
    game = game_create(creator=users[0], kind=kind, seats=seats, options={**options, **absent})
    bot_seat = rng.choice([None, None, seats - 1])
    for seat, user in enumerate(users):
        if seat == bot_seat:
            seat_take(game_id=game.pk, player=users[0], seat=seat, bot="random")
        else:
            # Half the players bring their own shuffle seed (games.engine.fairness).
            seed = rng.randbytes(8).hex() if rng.random() < 0.5 else ""
            seat_take(game_id=game.pk, player=user, seat=seat, seed=seed)
    humans = {seat: user for seat, user in enumerate(users) if seat != bot_seat}
    audit = Audit(Game.objects.get(pk=game.pk), humans, spectator)
    audit.after_write()
    for _ in range(MAX_DECISIONS):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            return audit
        detail = audit.views_now[0]  # the game is as the last write left it, read and checked then
        # A seat handed to the bot after its timeouts is the bot's from then on.
        humans = list(game.seats.filter(to_act=True, bot="").values_list("number", flat=True))
        if humans and rng.random() < RESIGN_RATE:
            seat = rng.choice([seat for seat in range(seats) if seat != bot_seat])
            try:
                resigned = game_resign(user=users[seat], game_id=game.pk)
            except EngineError as error:
                assert error.code == "not_in_match"
            else:
                audit.after_write(resigned.to_json(), seat)
            continue
        if not humans:
            assert bot_move(game_id=game.pk, version=game.version), "a bot owed a decision and did not act"
            audit.after_write()
            continue
        if rng.random() < 0.05:
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            if timeout_apply(game_id=game.pk):
                audit.after_write()
                continue
        seat = rng.choice(humans)
        legal = audit.views_now[seat]["legal_actions"]
        body = random_body(rng.choice(legal), rng)
        result = action_submit(user=users[seat], game_id=game.pk, expected_version=detail["version"], **body)
        audit.after_write(result.to_json(), seat)
    raise AssertionError(f"game {game.pk} did not end within {MAX_DECISIONS} decisions")


@pytest.mark.django_db
@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("kind", ["palace-poker", "palace"])
def test_no_view_or_log_entry_shows_a_card_its_viewer_may_not_know(kind: str, block: int) -> None:
    per_block = GAMES_PER_KIND // BLOCKS
    entries = 0
    for seed in range(block * per_block, (block + 1) * per_block):
        audit = play_audited(kind, seed)
        entries += audit.entries
    assert entries > per_block * 10, "the games were too short to say anything"


@pytest.mark.django_db
def test_a_sealed_face_up_choice_is_not_in_other_seats_log_entry() -> None:
    """palace-shedding-a.txt ¶9: each player sees only his own choice until all have chosen; the logged
    ``choose_face_up`` action names the chooser's cards to him and staff alone."""
    users = [player_register(name=f"sealed{seat}")[0] for seat in range(3)]
    game = game_create(creator=users[0], kind="palace", seats=3, options={"setup_deal": "hand", "first_dealer": 2})
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)
    detail = game_detail(game_get(game.pk), users[0])
    chosen = detail["legal_actions"][0]["cards"][:3]
    result = action_submit(user=users[0], game_id=game.pk, type="choose_face_up", cards=chosen)
    row = Event.objects.get(game=game, seq=result.version)
    assert event_json(row, 0)["action"]["cards"] == chosen
    assert event_json(row, STAFF)["action"]["cards"] == chosen
    for viewer in (1, 2, SPECTATOR):
        assert event_json(row, viewer)["action"]["cards"] == [None, None, None]


def shuffle_only(entry: dict[str, Any]) -> dict[str, Any]:
    """A shuffle's entry with its ``shuffle`` event alone (the first of a deal also commits its seeds)."""
    return {**entry, "events": [event for event in entry["events"] if event["type"] == "shuffle"]}


@pytest.mark.django_db
def test_a_shuffle_shows_players_its_size_and_staff_its_order() -> None:
    """palace-shedding-a.txt ¶7 (the dealer shuffles): nobody at the table sees the order, so a player's log
    entry counts the cards instead of listing a null per card; staff get the order, group by group."""
    users = [player_register(name=f"shuffle{seat}")[0] for seat in range(2)]
    game = game_create(creator=users[0], kind="palace", seats=2, options={"first_dealer": 1})
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)
    row = Event.objects.filter(game=game, kind="shuffle").order_by("seq").first()
    staff = shuffle_only(event_json(row, STAFF))
    assert len(staff["action"]["cards"]) == 52 and staff["events"][0]["cards"]["order"] == staff["action"]["cards"]
    assert staff["events"][0]["visible_to"] == {"order": []}
    for viewer in (0, 1, SPECTATOR):
        entry = shuffle_only(event_json(row, viewer))
        assert entry["action"] == {"type": "shuffle", "size": 52}
        assert "cards" not in entry["events"][0] and entry["events"][0]["unseen"] == {"order": 52}
