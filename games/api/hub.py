"""Per-process fan-out for the live streams: wakes each open stream when a game it watches moves.

A stream registers a ``Waiter`` for a game (``games/{id}/stream/``) or a user (``me/stream/``), reads what is new
from the database, then waits on the waiter. One background task per process wakes the waiters:

- with Redis (``settings.STREAMS_REDIS_URL``): it subscribes to ``games.services.fanout.CHANNEL``, where every
  commit that moves a game is announced with the game's seated users; while Redis is unreachable it polls
  instead and retries;
- on the embedded default: every ``settings.STREAMS_POLL_SECONDS`` it reads the versions of the watched games
  (and a fingerprint of each watched user's games) in one or two indexed queries, whatever the number of streams.

A wake-up is only a hint to read the database again (the streams send what the log holds), so a spurious wake
costs a read and a lost one is made up by a read every heartbeat.

The streams of one game share a ``GameFeed``: after a move, one read of the game and its new log entries serves
all of them, and each entry is redacted and rendered once per viewer (a seat, a spectator, staff), not once per
stream. A thousand streams on fifty games cost fifty reads per round of moves, not a thousand.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.api.side_events import side_start
from games.engine.protocol import Viewer
from games.selectors import live
from games.selectors.read_models import event_json, viewer_for
from games.services.fanout import CHANNEL
from palace_api.errors import NotFoundError

if TYPE_CHECKING:
    from games.models import Event, Game

logger = logging.getLogger(__name__)

T = TypeVar("T")

REDIS_RETRY_SECONDS = 2.0
"""Seconds of polling between two attempts to reach Redis again."""


_executor: ThreadPoolExecutor | None = None


def _database_executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(settings.STREAMS_DATABASE_THREADS, thread_name_prefix="palace-streams")
    return _executor


async def database(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run the synchronous ``function`` (ORM reads) in the streams' few database threads and return its result.

    Not Django's per-request thread: an open stream would keep that thread, and its database connection, for as
    long as it is open. Connections are closed when broken or older than ``CONN_MAX_AGE``, as around a request.
    """

    def call() -> T:
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return await sync_to_async(call, thread_sensitive=False, executor=_database_executor())()


@dataclass(frozen=True)
class FeedPage:
    """Log entries for one stream: ``chunks`` (``(seq, the SSE event's bytes)`` in ``seq`` order), ``more`` (another
    page follows at once), and the game's ``version`` and ``ended`` as read before the entries (as
    ``live.StreamPage``)."""

    chunks: list[tuple[int, bytes]]
    more: bool
    version: int
    ended: bool


Renderer = Callable[[dict[str, Any]], bytes]
"""Turns one entry, as ``events/`` gives it to a viewer, into the bytes of its SSE event."""


class GameFeed:
    """The recent log of one watched game, read once per move for every stream of it in this process.

    ``hint()`` (a move was announced) makes the feed stale; ``refresh()`` returns once a read that started after
    the latest hint has completed, reading the database at most once however many streams ask at the same time;
    ``page()`` gives a stream the entries after its last one, as its viewer may see them, rendered once per
    viewer. The last ``keep`` entries are kept (``settings.STREAMS_FEED_ENTRIES``). Raises nothing of its own:
    ``gone`` says the game was deleted.
    """

    def __init__(self, game_id: int, *, keep: int) -> None:
        self.game_id = game_id
        self.keep = keep
        self.game: Game | None = None
        self.rows: list[Event] = []
        self.gone = False
        self._hints = 1  # a new feed has read nothing
        self._read_hints = 0  # the hint count when the last completed read started
        self._read_at = float("-inf")  # when it started (the loop's clock)
        self._reading: asyncio.Task[None] | None = None
        self._rendered: dict[tuple[int, Viewer], bytes] = {}
        # The side sources' newest marks (the chat's last message id), read with each refresh for all streams.
        self.side: dict[str, int] = {}

    def hint(self) -> None:
        self._hints += 1

    async def refresh(self, *, older_than: float | None = None) -> None:
        """Return once a read started after the latest hint has completed (``older_than``: also once one has
        started within that many seconds, hint or not). Database errors are raised to every caller waiting."""
        loop = asyncio.get_running_loop()
        if older_than is not None and loop.time() - self._read_at > older_than:
            self.hint()
        target = self._hints
        while self._read_hints < target and not self.gone:
            if self._reading is None or self._reading.done():
                self._reading = loop.create_task(self._read(self._hints, loop.time()))
            # One stream leaving must not cancel the read the others wait for.
            await asyncio.shield(self._reading)

    @property
    def _last(self) -> int | None:
        """The seq the feed has read up to: ``None`` before its first read."""
        if self.rows:
            return self.rows[-1].seq
        return None if self.game is None else self.game.version

    @property
    def _ended(self) -> bool:
        return self.game is not None and self.game.status not in live.LIVE_STATUSES

    async def _read(self, hints: int, started: float) -> None:
        last = self._last
        try:
            read, side = await database(_feed_read, self.game_id, after=last, keep=self.keep)
        except NotFoundError:
            self.gone = True
            return
        self.game = read.game
        self.side = side
        if read.rows:
            if last is not None and read.rows[0].seq == last + 1:
                self.rows.extend(read.rows)
            else:  # the first read, or a gap (the feed fell far behind): start anew
                self.rows = read.rows
                self._rendered.clear()
            if len(self.rows) > self.keep:
                self.rows = self.rows[-self.keep :]
                first = self.rows[0].seq
                self._rendered = {key: chunk for key, chunk in self._rendered.items() if key[0] >= first}
        self._read_hints = max(self._read_hints, hints)
        self._read_at = max(self._read_at, started)

    def side_newer(self, marks: dict[str, int]) -> bool:
        """Whether a side source (the chat) has something after a stream's ``marks``."""
        return any(mark > marks.get(name, 0) for name, mark in self.side.items())

    def newer_than(self, seq: int) -> bool:
        """Whether the feed has read an entry after ``seq`` or the game's end."""
        last = self._last
        return (last is not None and last > seq) or self._ended

    def page(self, user: Any, after: int, render: Renderer, *, limit: int) -> FeedPage | None:
        """The entries after ``after`` (at most ``limit``) as ``user`` may see them, or ``None`` when the feed has
        not read the game or does not reach back to ``after``. The viewer is worked out on each call from the
        seats last read: one who takes a seat sees his cards from then on, as ``events/`` would show them.

        Those seats are the game's at its version as last read, and every row held is at or before it
        (``live.feed_read``); seats change only while the game waits, whose entries are the same for every viewer.
        So the viewer is each row's as its seat stood then, and a chunk rendered for a viewer (a seat, a spectator,
        staff: not a user) is the same whichever stream asks for it, before or after its user sits or leaves."""
        game = self.game
        if game is None:
            return None
        start = self.rows[0].seq - 1 if self.rows else game.version
        if after < start:
            return None
        viewer = viewer_for(game, user)
        chunks = []
        for row in self.rows[after - start : after - start + limit]:
            key = (row.seq, viewer)
            chunk = self._rendered.get(key)
            if chunk is None:
                chunk = self._rendered[key] = render(event_json(row, viewer))
            chunks.append((row.seq, chunk))
        more = after + len(chunks) < start + len(self.rows)
        return FeedPage(chunks=chunks, more=more, version=game.version, ended=self._ended)


def _feed_read(game_id: int, *, after: int | None, keep: int) -> tuple[live.FeedRead, dict[str, int]]:
    """One thread hop for a feed's read: the log (``live.feed_read``) and the side sources' marks (the chat's)."""
    return live.feed_read(game_id, after=after, keep=keep), side_start(game_id)


class Waiter:
    """One open stream's wake-up flag. ``clear()`` before reading the database, then ``wait()``. A game's
    waiter has the game's shared ``feed``."""

    def __init__(self, hub: Hub, *, game: int | None, user: int | None, feed: GameFeed | None = None) -> None:
        self.hub = hub
        self.game = game
        self.user = user
        self.feed = feed
        self._event = asyncio.Event()

    def wake(self) -> None:
        self._event.set()

    def clear(self) -> None:
        self._event.clear()

    async def wait(self, timeout: float) -> bool:
        """Wait until woken (``True``) or ``timeout`` seconds pass (``False``)."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self.hub.unwatch(self)


class Hub:
    """The waiters of one event loop, and the task that wakes them (see the module's docstring)."""

    def __init__(self, *, redis_url: str | None, poll_seconds: float) -> None:
        self.redis_url = redis_url
        self.poll_seconds = poll_seconds
        self._games: dict[int, set[Waiter]] = defaultdict(set)
        self._users: dict[int, set[Waiter]] = defaultdict(set)
        self._feeds: dict[int, GameFeed] = {}
        self._task: asyncio.Task[None] | None = None
        self._seen_games: dict[int, int] = {}
        self._seen_users: dict[int, int] = {}

    def watch(self, *, game: int | None = None, user: int | None = None) -> Waiter:
        """A new waiter for ``game`` or ``user`` (one of them); starts the hub's task if it is not running."""
        feed = None
        if game is not None:
            feed = self._feeds.get(game)
            if feed is None:
                feed = self._feeds[game] = GameFeed(game, keep=settings.STREAMS_FEED_ENTRIES)
        waiter = Waiter(self, game=game, user=user, feed=feed)
        if game is not None:
            self._games[game].add(waiter)
        if user is not None:
            self._users[user].add(waiter)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="palace-streams-hub")
        return waiter

    def unwatch(self, waiter: Waiter) -> None:
        for key, table in ((waiter.game, self._games), (waiter.user, self._users)):
            if key is not None and key in table:
                table[key].discard(waiter)
                if not table[key]:
                    del table[key]
                    if table is self._games:
                        self._feeds.pop(key, None)

    @property
    def watching(self) -> int:
        """How many waiters are registered."""
        return sum(len(waiters) for waiters in self._games.values()) + sum(len(w) for w in self._users.values())

    def notify(self, game: int, players: list[int]) -> None:
        """Wake the waiters of ``game`` (its feed is stale) and of each user in ``players``."""
        feed = self._feeds.get(game)
        if feed is not None:
            feed.hint()
        for waiter in self._games.get(game, ()):
            waiter.wake()
        for player in players:
            for waiter in self._users.get(player, ()):
                waiter.wake()

    def wake_all(self) -> None:
        for feed in self._feeds.values():
            feed.hint()
        for table in (self._games, self._users):
            for waiters in table.values():
                for waiter in waiters:
                    waiter.wake()

    async def _run(self) -> None:
        while True:
            try:
                if self.redis_url:
                    await self._listen()
                else:
                    await self._poll_forever()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("live streams: Redis unreachable, polling the database meanwhile", exc_info=True)
                # Messages may have been lost: every stream reads again, and polling keeps them fresh until
                # Redis answers.
                self.wake_all()
                await self._poll_for(REDIS_RETRY_SECONDS)

    async def _listen(self) -> None:
        import redis.asyncio as redis

        client = redis.Redis.from_url(self.redis_url, socket_connect_timeout=2, health_check_interval=30)
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(CHANNEL)
            while True:
                message = await pubsub.get_message(timeout=30.0)
                if message is None:
                    continue
                if message["type"] == "subscribe":
                    # Whatever moved before the subscription took effect was not heard: read again.
                    self.wake_all()
                elif message["type"] == "message":
                    try:
                        body = json.loads(message["data"])
                        self.notify(int(body["game"]), [int(player) for player in body.get("players", [])])
                    except (ValueError, KeyError, TypeError):
                        logger.warning("live streams: ignoring a malformed message %r", message["data"])
        finally:
            await pubsub.aclose()
            await client.aclose()

    async def _poll_forever(self) -> None:
        while True:
            await self._poll_once()
            await asyncio.sleep(self.poll_seconds)

    async def _poll_for(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while loop.time() < end:
            await self._poll_once()
            await asyncio.sleep(min(self.poll_seconds, max(0.0, end - loop.time())))

    async def _poll_once(self) -> None:
        if not self._games and not self._users:
            self._seen_games.clear()
            self._seen_users.clear()
            return
        try:
            games, users = await database(live.watched_versions, list(self._games), list(self._users))
        except Exception:
            logger.warning("live streams: could not poll the database", exc_info=True)
            return
        for game, version in games.items():
            if self._seen_games.get(game) != version:
                self.notify(game, [])
        for user, fingerprint in users.items():
            if self._seen_users.get(user) != fingerprint:
                for waiter in self._users.get(user, ()):
                    waiter.wake()
        self._seen_games, self._seen_users = games, users


_hubs: dict[int, Hub] = {}


def hub() -> Hub:
    """The hub of the running event loop (one per process under uvicorn), made on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(id(loop))
    if found is None:
        found = Hub(redis_url=settings.STREAMS_REDIS_URL, poll_seconds=settings.STREAMS_POLL_SECONDS)
        _hubs.clear()  # an earlier loop's hub (tests) has no waiters left
        _hubs[id(loop)] = found
    return found
