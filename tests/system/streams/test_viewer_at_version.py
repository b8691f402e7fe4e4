"""Every entry a game's stream sends is the entry ``events/`` gives the same viewer at the same version, while seats
change (a seat taken; left, and taken by another; the last one, which starts the match and deals) between a read of
the game with its seats and the read of its log (issue #27: one who took the last seat got his deal as a spectator
would; one who left would have got his successor's cards).

The race is forced in every trial, not waited for: ``live.game_get`` is wrapped so that a batch of steps commits
right after the game and its seats are read and before the log is, on both paths of a stream (the shared
``GameFeed``, and a stream's own pages when it is further back than the feed keeps, ``live.stream_page``). The
streams run the views' own code (``streams._page``: the feed, its chunks rendered once per viewer, the SSE bytes) on
the test's database connection, one for each player and one for a spectator, all opened before the first seat is
taken; late streams join from the start of the log.

Each entry a stream got is checked three ways: against ``events/`` asked by the same viewer once the game has dealt
(over HTTP in one game of ``HTTP_EVERY``, else through its view's selectors and serializer); byte for byte against
the entry rendered for the user's seat as the log says it stood at that entry's version; and card by card against
who may see each group (``visible_to`` in staff's view of the stored event).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from rest_framework.renderers import JSONRenderer

from games.api import hub as hub_module
from games.api import streams
from games.api.hub import GameFeed
from games.api.serializers import EventPageOutput, render
from games.engine.protocol import SPECTATOR, STAFF, Viewer
from games.models import Event, Game, GameStatus
from games.selectors import live
from games.selectors.read_models import event_json, game_events, game_get
from games.selectors.state import engine_of, game_state
from games.services import action_submit, game_create, seat_take
from games.services.lifecycle import seat_leave

TRIALS = 500
SEATS = (2, 2, 2, 3)
"""A game has one of these numbers of seats (two more often: a trial costs less)."""
KINDS = ("palace", "palace-poker")
DECIDES = 0.2
"""The share of games where a seat also makes a decision after the deal (a sealed choice in Palace)."""
HTTP_EVERY = 20
"""One trial in this many asks ``events/`` over HTTP; the others call its view's selectors and serializer."""
NAMES = ("ann", "ben", "cat", "dan", "eve")
"""Players who take and leave seats; ``sam`` follows every game and never sits."""

Step = tuple[str, Callable[[], Any]]
"""What a step is (``take``, ``leave``, ``last take``: the one that deals; ``decision``) and the call that makes it."""
T = TypeVar("T")


@dataclass
class Stream:
    """One open stream of a game: its user, the last seq it got, and what it got (``(seq, SSE bytes)``)."""

    user: Any
    game_id: int
    after: int = 0
    got: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass
class Tally:
    """What the trials did and found: ``forced``, the reads with steps committed inside them by path (``feed``,
    ``pages``) and by the steps they held; the entries checked; each difference and each card of another seat."""

    entries: int = 0
    forced: Counter[str] = field(default_factory=Counter)
    differences: list[str] = field(default_factory=list)
    foreign_cards: list[str] = field(default_factory=list)


class Interleaver:
    """Wraps ``live.game_get``: the steps queued commit right after it has read the game and its seats."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.queued: list[Step] = []
        self.hint_inside = True
        self.path = ""
        self.feed: GameFeed | None = None
        self.game_get = live.game_get

    def __call__(self, game_id: int) -> Game:
        game = self.game_get(game_id)
        if self.queued:
            steps, self.queued = self.queued, []
            for _, call in steps:
                call()
            self.tally.forced[self.path] += 1
            self.tally.forced[" + ".join(what for what, _ in steps)] += 1
            if self.feed is not None and self.hint_inside:
                self.feed.hint()  # the commits' announcement, heard at once (else with the next batch)
        return game

    def on_path(self, path: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.path = path
            return function(*args, **kwargs)

        return call


@pytest.fixture
def interleaver(monkeypatch) -> Interleaver:
    hook = Interleaver(Tally())
    monkeypatch.setattr(live, "game_get", hook)
    monkeypatch.setattr(live, "feed_read", hook.on_path("feed", live.feed_read))
    monkeypatch.setattr(live, "stream_page", hook.on_path("pages", live.stream_page))

    async def database(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)  # the test's connection and transaction, in order

    monkeypatch.setattr(hub_module, "database", database)
    monkeypatch.setattr(streams, "database", database)
    # The ORM on the event loop's thread: the test awaits nothing else meanwhile.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    return hook


def seat_changes(rng: random.Random, game_id: int, count: int, players: list[Any], *, leaves: int) -> list[Step]:
    """From an empty table of ``count`` seats to a full one: ``leaves`` of the ``players`` take a seat and leave it
    again (another may take that seat after them), and the take of the last free seat starts the match and deals.
    Each player takes a seat once."""
    steps: list[Step] = []
    seated: dict[int, Any] = {}
    waiting = list(players)
    while len(seated) < count:
        if leaves and seated and (len(seated) == count - 1 or rng.random() < 0.5):
            user = seated.pop(rng.choice(sorted(seated)))
            steps.append(("leave", lambda user=user: seat_leave(user=user, game_id=game_id)))
            leaves -= 1
            continue
        number = rng.choice([number for number in range(count) if number not in seated])
        user = seated[number] = waiting.pop()
        what = "last take" if len(seated) == count else "take"
        steps.append((what, lambda user=user, number=number: seat_take(game_id=game_id, player=user, seat=number)))
    return steps


def decision(game_id: int, players: list[Any]) -> Step:
    """The default decision (a timeout's) of the first seat the match waits for, made by its player."""

    def step() -> None:
        game = Game.objects.get(pk=game_id)
        if game.status != GameStatus.ACTIVE:
            return
        state = game_state(game)
        engine = engine_of(game)
        due = list(engine.due_to_act(state))
        if not due:
            return
        seat = due[0]
        action = engine.default_action(state, seat)
        user = next(user for user in players if user.seats.filter(game=game, number=seat).exists())
        cards = [card.code for card in action.cards] or None
        action_submit(
            user=user, game_id=game_id, type=action.type, cards=cards, target=action.target, amount=action.amount
        )

    return ("decision", step)


def in_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` in an event loop on this thread's database connection (an event loop's context would
    get a connection of its own, outside the test's transaction)."""
    outer = connections[DEFAULT_DB_ALIAS]

    async def main() -> T:
        connections[DEFAULT_DB_ALIAS] = outer
        return await coroutine

    return asyncio.run(main())


async def catch_up(stream: Stream, feed: GameFeed, game_id: int) -> None:
    """What an open stream does when woken: the pages after its last entry until there is no more."""
    while True:
        page = await streams._page(feed, game_id, stream.user, stream.after)
        for seq, chunk in page.chunks:
            stream.got.append((seq, chunk))
            stream.after = seq
        if not page.more:
            return


async def run_trial(number: int, rng: random.Random, users: dict[str, Any], hook: Interleaver) -> list[Stream]:
    """One game from an empty table to its deal (and a decision, in some), followed by a stream of each player and
    of the spectator opened before the first seat is taken, and late streams from the start of the log; returns
    the streams, caught up.

    The steps go in batches of one to three. The batch of the last take, which deals, always commits inside a read
    of the game: the feed's (a wake-up was on its way), or the pages of a late stream that starts further back than
    the feed keeps. The others commit plainly or inside the feed's read, the streams hearing of it or not."""
    game = game_create(creator=users["ann"], kind=KINDS[number % len(KINDS)], seats=rng.choice(SEATS))
    leaves = rng.choice((1, 1, 1, 2))
    players = rng.sample([users[name] for name in NAMES], game.seat_count + leaves)
    dealt_by = rng.choice(("feed", "feed", "pages"))
    feed = hook.feed = GameFeed(game.pk, keep=2 if dealt_by == "pages" else 64)
    followers = [Stream(user, game.pk) for user in (*players, users["sam"])]
    for stream in followers:
        await catch_up(stream, feed, game.pk)
    seats = seat_changes(rng, game.pk, game.seat_count, players, leaves=leaves)
    # The batch of the last take holds up to two seat changes before it (often a seat left and taken again).
    together = min(len(seats), rng.choice((1, 2, 3, 3)))
    batches: list[list[Step]] = []
    while len(seats) - together > sum(map(len, batches)):
        done = sum(map(len, batches))
        batches.append(seats[done : min(done + rng.randint(1, 3), len(seats) - together)])
    dealing = len(batches)
    batches.append(seats[-together:])
    if rng.random() < DECIDES:
        batches.append([decision(game.pk, players)])
    for index, batch in enumerate(batches):
        how = dealt_by if index == dealing else rng.choice(("feed", "plain", "quiet", "quiet"))
        if how in ("plain", "quiet"):
            for _, call in batch:
                call()
            if how == "quiet":
                continue  # the streams hear of it with the next batch's wake-up
        else:
            hook.queued, hook.hint_inside = batch, rng.random() < 0.5
        if how == "pages":
            late = Stream(rng.choice(list(users.values())), game.pk)
            followers.append(late)
            await catch_up(late, feed, game.pk)
        else:
            feed.hint()  # a wake-up on its way (or the plain commit's own)
        order = rng.sample(followers, len(followers))
        for stream in order:
            if rng.random() < 0.7:  # some streams lag behind and read later
                await catch_up(stream, feed, game.pk)
        if hook.queued:  # the feed reaches back to the late stream's start: the feed's next read takes the steps
            feed.hint()
            await catch_up(order[0], feed, game.pk)
    feed.hint()  # the last commit's announcement
    for stream in followers:
        await catch_up(stream, feed, game.pk)
    return followers


def seat_at(rows: list[Event], user: Any, seq: int) -> Viewer:
    """Where ``user`` sat once entry ``seq`` was written, as the log says (its ``seat_taken`` and ``seat_left``)."""
    seat: Viewer = SPECTATOR
    for row in rows[:seq]:
        if row.kind in ("seat_taken", "seat_left") and (row.payload.get("player") or {}).get("id") == user.pk:
            seat = row.payload["seat"] if row.kind == "seat_taken" else SPECTATOR
    return seat


def foreign_cards(stored: list[dict[str, Any]], shown: dict[str, Any], viewer: Viewer) -> list[str]:
    """The codes ``shown`` (an entry as a stream sent it) has in groups that ``viewer`` may not see; ``stored``:
    the entry's events as staff see them (with ``visible_to``)."""
    out = []
    for event, full in zip(shown.get("events", []), stored, strict=True):
        for group, codes in (event.get("cards") or {}).items():
            allowed = full.get("visible_to", {}).get(group, "all")
            if allowed != "all" and viewer not in allowed:
                out += [code for code in codes if code is not None]
    return out


def events_answer(game: Game, user: Any, client: Any) -> list[dict[str, Any]]:
    """``events/``'s entries for ``user``: asked over HTTP with ``client``, else what its view answers (its
    selectors and serializer on ``game`` as ``game_get`` read it, without the request's round trip)."""
    if client is not None:
        answer = client.get(f"/api/v1/games/{game.pk}/events/", {"limit": 500})
        assert answer.status_code == 200, answer.content
        return list(answer.json()["results"])
    page = render(EventPageOutput, game_events(game, user, after=0, limit=500))
    return list(json.loads(JSONRenderer().render(page))["results"])


def check(trial: int, followers: list[Stream], clients: dict[int, Any], tally: Tally) -> None:
    """Each stream got every entry once, in order, each equal to ``events/``'s for its user and to the entry for
    the user's seat at that entry's version, with no card of another seat."""
    game_id = followers[0].game_id
    rows = list(Event.objects.filter(game_id=game_id).order_by("seq"))
    stored = [event_json(row, STAFF).get("events", []) for row in rows]
    # events/ answers alike all who see as one viewer (a seat, or a spectator): asked once per viewer.
    asking = {seat_at(rows, stream.user, len(rows)): stream.user for stream in followers}
    client_of = clients.get if trial % HTTP_EVERY == 0 else lambda pk: None
    game = game_get(game_id)
    answers = {viewer: events_answer(game, user, client_of(user.pk)) for viewer, user in asking.items()}
    rendered: dict[tuple[int, Viewer], bytes] = {}
    for stream in followers:
        name = stream.user.username
        seqs = [seq for seq, _ in stream.got]
        if seqs != list(range(1, len(rows) + 1)):
            tally.differences.append(f"trial {trial}, {name}: got seqs {seqs} of {len(rows)}")
            continue
        for (seq, chunk), expected in zip(stream.got, answers[seat_at(rows, stream.user, len(rows))], strict=True):
            tally.entries += 1
            row = rows[seq - 1]
            sent = json.loads(chunk.decode().split("\ndata: ", 1)[1])
            viewer = seat_at(rows, stream.user, seq)
            if (seq, viewer) not in rendered:
                rendered[seq, viewer] = streams._render(event_json(row, viewer))
            if sent != expected or chunk != rendered[seq, viewer]:
                tally.differences.append(f"trial {trial}, {name}, seq {seq} ({row.kind}) as {viewer}")
            for code in foreign_cards(stored[seq - 1], sent, viewer):
                tally.foreign_cards.append(f"trial {trial}, {name} ({viewer}), seq {seq}: {code}")


def test_every_stream_entry_is_the_events_entry_of_its_viewer_at_its_version_while_seats_change(
    interleaver, make_player, auth_client
):
    """Given streams of every player and a spectator open on a game whose seats are taken, left and taken again,
    when each seat change and the deal commit between a read of the game and the read of its log (500 games),
    then every entry each stream got equals ``events/``'s for the same user at the same version: 0 differences,
    0 cards of another seat."""
    users, clients = {}, {}
    for name in (*NAMES, "sam"):
        user, token = make_player(name)
        users[name], clients[user.pk] = user, auth_client(token)
    rng = random.Random(27)
    tally = interleaver.tally

    for number in range(TRIALS):
        followers = in_loop(run_trial(number, rng, users, interleaver))
        check(number, followers, clients, tally)
    forced = tally.forced
    leave_and_deal = sum(count for what, count in forced.items() if "leave" in what and "last take" in what)
    assert forced["feed"] >= TRIALS // 2 and forced["pages"] >= TRIALS // 20 and leave_and_deal >= TRIALS // 5, forced
    assert sum(count for what, count in forced.items() if "last take" in what) == TRIALS, forced
    assert tally.entries >= TRIALS * 20, tally.entries
    summary = (
        f"{len(tally.differences)} of {tally.entries} entries differ ({tally.differences[:3]}); "
        f"{len(tally.foreign_cards)} cards of another seat ({tally.foreign_cards[:3]}); forced reads {dict(forced)}"
    )
    assert not tally.differences and not tally.foreign_cards, summary
    print(summary)  # with -s: the figures of the run
