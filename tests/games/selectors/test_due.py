"""One replay and one "decision due" (games/selectors/state.py ``state_at``, games/selectors/due.py; README, "Whose
decision is due"): every reader of a game's past and of whose decision it is tells the same story.

Given random games of both kinds played through the services (every option at random, 2-5 seats, people and now
and then a bot seat, turn timeouts, resignations, absent seats resigned or handed to the bot after their
timeouts), with an oracle here that replays the log from scratch by the definition (a seat's decision is due
while ``due_to_act`` names it, since the entry that made it due; any decision of the seat, a timeout's default
action included, ends it; a seat a bot plays owes a person nothing), then:

- after every service call (each a commit): the projection (``Seat.due_since``, ``Game.deadline``) is the
  oracle's; ``me/turns/`` (the selector at every commit, the HTTP API and the web badge now and then) and
  ``me/games/``'s ``my_turn`` list exactly the decisions due; and ``me/stream/``'s ``turn.due``, the webhooks'
  ``turn.due`` messages and the mail sweep's turn mails each tell exactly the decisions that became due, once,
  at the version they became due; a mail still waits exactly while its decision is due;
- after the game, at every version: ``state_at`` (from snapshots, without the in-memory state) equals the
  oracle's state, and the decisions due that ``decisions_after`` reads from the past (as webhooks read a
  stretch) are the oracle's, deadlines included.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine.chance import sample_shuffle
from games.engine.errors import EngineError
from games.engine.protocol import Action
from games.engine.registry import get_game
from games.messages import TURN_DUE
from games.models import Event, Game, Seat
from games.selectors import live
from games.selectors.due import decisions_after
from games.selectors.home import my_game_row, my_games
from games.selectors.read_models import game_detail, game_get, my_turns
from games.selectors.state import state_at
from games.services import log as log_service
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.lifecycle import game_resign
from games.services.turns import bot_move, timeout_apply
from notifications.models import EmailAddress, Mail, MailGame
from notifications.selectors import still_waiting
from notifications.services.sweep import turn_mails_make
from players.services import player_register
from tests.games.selectors.test_redaction import poker_options, random_body, shedding_options
from webhooks.models import Message
from webhooks.services.dispatch import game_changes_announce
from webhooks.services.endpoints import endpoint_create

GAMES_PER_KIND = 8
MAX_DECISIONS = 1500
RESIGN_RATE = 0.02
TIMEOUT_RATE = 0.08
"""The chances, before each decision, of a resignation and of an expired deadline (when a person's decision has
one); half of the games have a bot seat, two in three a turn timeout."""
SNAPSHOT_EVERY = 16
SAMPLE_HTTP = 9
"""``me/turns/`` over HTTP and the web badge are read at one commit in this many (the selector at every one)."""

pytestmark = pytest.mark.django_db


# --- the oracle: the log replayed from scratch, by the definition ---


@dataclass
class Oracle:
    """The log of one game replayed entry by entry from the initial state: ``states[v]`` and ``due[v]`` (a
    person's seat -> the version its decision is due since) after entry ``v``, and ``deadlines[v]``."""

    game: Game
    states: list[Any] = field(default_factory=lambda: [None])
    due: list[dict[int, int]] = field(default_factory=lambda: [{}])
    deadlines: list[datetime | None] = field(default_factory=lambda: [None])
    rows: list[Event] = field(default_factory=list)
    since: dict[int, int] = field(default_factory=dict)
    handed: set[int] = field(default_factory=set)
    last_action: datetime | None = None

    def read(self) -> None:
        """Replay the entries written since the last call."""
        engine = get_game(self.game.kind)
        people = {seat.number for seat in Seat.objects.filter(game=self.game, player__isnull=False)}
        for row in Event.objects.filter(game=self.game, seq__gt=len(self.rows)).order_by("seq"):
            state = self.states[-1]
            if "action" in row.payload:
                state = state or engine.new_game(self.game.options, self.game.seat_count)
                state, _ = engine.apply(state, Action.from_json(row.payload["action"]))
                self.last_action = row.created
            if row.kind == "seat_to_bot":
                self.handed.add(row.actor)
            decided = row.actor if "action" in row.payload else None
            due = engine.due_to_act(state) if state is not None else ()
            self.since = {seat: self.since.get(seat, row.seq) if seat != decided else row.seq for seat in due}
            owed = {seat: since for seat, since in self.since.items() if seat in people - self.handed}
            timeout = self.game.turn_timeout
            deadline = self.last_action + timedelta(seconds=timeout) if owed and timeout else None
            self.rows.append(row)
            self.states.append(state)
            self.due.append(owed)
            self.deadlines.append(deadline)


# --- one random game ---


@dataclass
class Table:
    """A game being played, its people (seat -> user) and what each reader told so far."""

    game: Game
    people: dict[int, Any]
    oracle: Oracle
    due: dict[int, int] = field(default_factory=dict)
    streams: dict[int, dict[int, live.MyGame] | None] = field(default_factory=dict)
    mails: dict[int, Mail] = field(default_factory=dict)
    api: APIClient = field(default_factory=APIClient)
    browser: Client = field(default_factory=Client)
    commits: int = 0
    told: int = 0

    @property
    def version(self) -> int:
        return len(self.oracle.rows)


def new_table(kind: str, seed: int, clients: tuple[APIClient, Client]) -> Table:
    rng = random.Random(f"due-{kind}-{seed}")
    seats = rng.randint(2, 5)
    if kind == "palace-poker":
        options = poker_options(rng)
    else:  # short matches, and the options that open chances to play out of turn in some of them
        options = {**shedding_options(rng, seats), "max_turns": 60}
        options |= {"out_of_turn_four": True, "redraw": True} if seed % 2 else {}
    options |= {
        "turn_timeout": None if seed % 3 == 2 else rng.choice([60, 3600]),
        "max_timeouts": rng.choice([1, 2, None]),
        "on_absent": rng.choice(["resign", "bot"]),
    }
    tag = f"{kind[-5:]}{seed}"
    users = [player_register(name=f"due{tag}s{seat}")[0] for seat in range(seats)]
    for user in users:
        EmailAddress.objects.create(
            user=user, address=f"{user.get_username()}@example.com", confirmed_at=timezone.now()
        )
        endpoint_create(user=user, url="http://93.184.216.34/hook", events=[TURN_DUE])
    game = game_create(creator=users[0], kind=kind, seats=seats, options=options)
    bot_seat = seats - 1 if seed % 2 == 0 else None
    people = {seat: user for seat, user in enumerate(users) if seat != bot_seat}
    game = Game.objects.get(pk=game.pk)
    table = Table(game=game, people=people, oracle=Oracle(game), api=clients[0], browser=clients[1])
    table.streams = dict.fromkeys(people)
    for seat, user in enumerate(users):
        if seat == bot_seat:
            seat_take(game_id=game.pk, player=users[0], seat=seat, bot="random")
        else:
            seat_take(game_id=game.pk, player=user, seat=seat)
        check_commit(table)
    return table


def play(table: Table, rng: random.Random) -> None:
    """Random decisions through the services to the end, every reader checked after each commit."""
    game_id = table.game.pk
    for _ in range(MAX_DECISIONS):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            return
        # Seats that may act now, chances to play out of turn included (no decision due, but a move).
        humans = list(game.seats.filter(to_act=True, bot="").values_list("number", flat=True))
        if humans and rng.random() < RESIGN_RATE:
            try:
                game_resign(user=table.people[rng.choice(list(table.people))], game_id=game_id)
            except EngineError as error:
                assert error.code == "not_in_match"
        elif not humans:
            assert bot_move(game_id=game_id, version=game.version), "a bot owed a decision and did not act"
        elif game.deadline is not None and rng.random() < TIMEOUT_RATE:
            Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(seconds=1))
            assert timeout_apply(game_id=game_id)
        else:
            # A chance to play out of turn (a move, but no decision due) is taken half the time.
            chances = [seat for seat in humans if seat not in table.due]
            seat = rng.choice(chances if chances and rng.random() < 0.5 else humans)
            legal = game_detail(game_get(game_id), table.people[seat])["legal_actions"]
            action_submit(user=table.people[seat], game_id=game_id, **random_body(rng.choice(legal), rng))
        check_commit(table)
    raise AssertionError(f"game {game_id} did not end within {MAX_DECISIONS} decisions")


# --- after each commit ---


def check_commit(table: Table) -> None:
    """The projection is the oracle's, the lists list it, and each channel tells exactly the new decisions."""
    before = table.version
    table.oracle.read()
    version = table.version
    game = Game.objects.get(pk=table.game.pk)
    assert game.version == version
    due = table.oracle.due[version]
    projected = dict(
        Seat.objects.filter(game=game, due_since__isnull=False, bot="", player__isnull=False).values_list(
            "number", "due_since"
        )
    )
    where = f"game {game.pk} ({game.kind}) at version {version}"
    assert projected == due, where
    assert game.deadline == table.oracle.deadlines[version], where
    new = {seat: since for seat, since in due.items() if table.due.get(seat) != since}
    expected = sorted((seat, version) for seat in new)
    assert new == {seat: since for seat, since in due.items() if since > before}, where
    changed = set(new) | (set(table.due) - set(due))
    table.due = due
    table.commits += 1
    table.told += len(new)
    check_lists(table, game, where)
    assert streamed(table) == expected, f"{where}: me/stream/"
    assert webhooks_told(table, before) == expected, f"{where}: webhooks"
    assert mailed(table, changed) == expected, f"{where}: mails"


def check_lists(table: Table, game: Game, where: str) -> None:
    """``me/turns/`` of every person at the game lists exactly the decisions due from him; now and then, so do
    the HTTP answer, the web badge and ``me/games/``'s ``my_turn``."""
    sample = table.commits % SAMPLE_HTTP == 0
    for seat, user in table.people.items():
        owed = [(game.pk, seat, game.version, game.deadline)] if seat in table.due else []
        turns = [(row["game"], row["seat"], row["version"], row["deadline"]) for row in my_turns(user)]
        assert turns == owed, f"{where}: me/turns/ of seat {seat}"
        if not sample:
            continue
        table.api.force_authenticate(user)
        served = table.api.get("/api/v1/me/turns/").json()
        assert [(turn["game"], turn["seat"]) for turn in served] == [row[:2] for row in owed], where
        table.browser.force_login(user)
        html = table.browser.get("/mine/badge/").content.decode()
        shown = int(html.split('data-turns="', 1)[1].split('"', 1)[0]) if "data-turns" in html else 0
        assert shown == len(owed), f"{where}: the web badge of seat {seat}"
        mine = my_games(user).filter(pk=game.pk).first()  # None before he sits
        my_turn = mine is not None and my_game_row(mine, user)["my_turn"]
        assert my_turn == (seat in table.due), f"{where}: me/games/ of seat {seat}"


def streamed(table: Table) -> list[tuple[int, int]]:
    """``turn.due`` that each person's ``me/stream/`` announces now (each stream opened before the game)."""
    told = []
    for seat, user in table.people.items():
        before = table.streams[seat]
        now = live.stream_games(user.pk, also=list(before or {}))
        news = live.my_stream_news(before, now)
        table.streams[seat] = now
        told += [(payload["seat"], payload["version"]) for name, payload in news if name == TURN_DUE]
    return sorted(told)


def webhooks_told(table: Table, before: int) -> list[tuple[int, int]]:
    """The ``turn.due`` messages the log's new entries make (as the ``game_changed`` task makes them)."""
    first = Message.objects.order_by("-id").values_list("id", flat=True).first() or 0
    game_changes_announce(game_id=table.game.pk, version=table.version)
    bodies = Message.objects.filter(id__gt=first, event_type=TURN_DUE).values_list("body", flat=True)
    return sorted((body["data"]["seat"], body["data"]["version"]) for body in bodies)


def mailed(table: Table, changed: set[int]) -> list[tuple[int, int]]:
    """The turn mails the sweep makes now (no grace, as if nobody's program heard ``turn.due``); and each
    person's last mail still waits exactly while the decision it told of is due (checked when it changes)."""
    first = MailGame.objects.order_by("-id").values_list("id", flat=True).first() or 0
    turn_mails_make(now=timezone.now())
    made = list(MailGame.objects.filter(id__gt=first, game=table.game).select_related("mail"))
    for row in made:
        table.mails[row.seat] = row.mail
    for seat, mail in table.mails.items():
        if seat not in changed:
            continue
        version = mail.game_rows.get().version
        assert still_waiting(mail) == (table.due.get(seat, version + 1) <= version), f"mail of seat {seat}"
    return sorted((row.seat, row.version) for row in made)


# --- after the game ---


def check_the_past(table: Table) -> None:
    """At every version: ``state_at`` is the oracle's state; the decisions that became due there, read from the
    past as a webhook reads a stretch, are the oracle's, with their deadline."""
    game = game_get(table.game.pk)
    oracle = table.oracle
    for version in range(1, table.version + 1):
        assert state_at(game, version, use_memory=False) == oracle.states[version], f"state_at {version}"
        read = decisions_after(game, first=version - 1, rows=oracle.rows[version - 1 : version])
        new = {seat: since for seat, since in oracle.due[version].items() if since == version}
        assert {due.seat: due.since for due in read} == new, f"decisions due at {version}"
        assert all(due.deadline == oracle.deadlines[version] for due in read), f"deadline at {version}"
    for version in random.Random(game.pk).sample(range(1, table.version + 1), 3):
        read = decisions_after(game, first=0, rows=oracle.rows[:version])
        assert {due.seat: due.since for due in read} == oracle.due[version], f"every decision due at {version}"


@pytest.fixture
def readers(monkeypatch, settings) -> None:
    """Every reader reads at once: webhooks reach a (never contacted) public address, the turn mails' grace is
    0 and each person's webhook for turn.due, which would spare him the mail, is not counted by the sweep. The
    same games at every run: shuffles and bots' choices from seeded generators instead of the system's."""
    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    monkeypatch.setattr("notifications.selectors._webhook_listeners", lambda user_ids, event_type: set())
    settings.NOTIFICATION_GRACE_SECONDS = 0
    chance = random.Random("due-chance")
    monkeypatch.setattr("games.services.log.sample_shuffle", lambda request: sample_shuffle(request, chance))
    # A deal's fair shuffle derives from the game's master seed and its id: a seeded master and one id for
    # every game, so that the seeded deals do not depend on the system's draws or the database's sequences.
    masters = random.Random("due-masters")
    monkeypatch.setattr("games.services.games.secrets", SimpleNamespace(token_hex=lambda n: masters.randbytes(n).hex()))
    fair = log_service.fair_shuffle
    monkeypatch.setattr(
        "games.services.log.fair_shuffle",
        lambda request, *, game, players, master: fair(request, game="due", players=players, master=master),
    )
    monkeypatch.setattr("games.services.turns._RNG", random.Random("due-bots"))


@pytest.mark.parametrize("kind", ["palace-poker", "palace"])
def test_every_reader_tells_the_same_decisions_due_and_state_at_is_a_full_replay(kind, readers, monkeypatch):
    # Snapshots more often than in production, so that state_at starts from many of them.
    monkeypatch.setattr("games.selectors.state.SNAPSHOT_EVERY", SNAPSHOT_EVERY)
    monkeypatch.setattr("games.services.log.SNAPSHOT_EVERY", SNAPSHOT_EVERY)
    clients = (APIClient(), Client())  # made once: a client sets its middleware up once
    commits = told = 0
    seen: Counter[str] = Counter()
    for seed in range(GAMES_PER_KIND):
        table = new_table(kind, seed, clients)
        play(table, random.Random(f"due-play-{kind}-{seed}"))
        check_the_past(table)
        commits, told = commits + table.commits, told + table.told
        seen.update(exercised(table))
    assert commits > GAMES_PER_KIND * 20 and told > GAMES_PER_KIND * 10, (commits, told)
    assert set(seen) >= EXERCISED[kind], seen


EXERCISED = {
    "palace-poker": {"timeout", "resign", "absent", "bot"},
    "palace": {"timeout", "resign", "absent", "bot", "people due at once", "out of turn"},
}
"""What the games of each kind must have exercised between them (``exercised``)."""


def exercised(table: Table) -> set[str]:
    """The situations a game went through: a turn timeout's default action, a resignation, an absent seat resigned
    or handed to the bot, a bot's decision, several people owing a decision at once, a play out of turn."""
    bots = set(Seat.objects.filter(game=table.game).exclude(bot="").values_list("number", flat=True))
    found = set()
    for row in table.oracle.rows:
        action = row.payload.get("action", {})
        if row.kind == "seat_to_bot" or (row.kind == "resign" and action.get("timeout")):
            found.add("absent")
        elif row.kind == "resign":
            found.add("resign")
        elif action.get("timeout"):
            found.add("timeout")
        if row.actor in bots and action and row.kind != "resign" and not action.get("timeout"):
            found.add("bot")
        if any(event.get("out_of_turn") for event in row.payload.get("events", ())):
            found.add("out of turn")
    if any(len(due) > 1 for due in table.oracle.due):
        found.add("people due at once")
    return found


def test_the_migration_fills_in_the_decisions_due_of_running_games(readers):
    """games/migrations/0003_due_since.py: a running game's ``Seat.due_since``, made by replaying its log, is
    what the services would have written."""
    backfill = importlib.import_module("games.migrations.0003_due_since").due_since_backfill
    tables = [new_table(kind, seed, (APIClient(), Client())) for kind in ("palace", "palace-poker") for seed in (1, 2)]
    rng = random.Random("backfill")
    for table in tables:
        for _ in range(rng.randint(3, 12)):
            game = Game.objects.get(pk=table.game.pk)
            seats = list(game.seats.filter(to_act=True, bot="").values_list("number", flat=True))
            if not seats:
                break
            seat = rng.choice(seats)
            legal = game_detail(game_get(game.pk), table.people[seat])["legal_actions"]
            action_submit(user=table.people[seat], game_id=game.pk, **random_body(rng.choice(legal), rng))
    written = dict(Seat.objects.values_list("pk", "due_since"))
    assert any(written.values())
    Seat.objects.update(due_since=None)
    backfill(django_apps, None)
    assert dict(Seat.objects.values_list("pk", "due_since")) == written
