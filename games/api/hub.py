"""Per-process fan-out for the live streams: wakes each open stream when a game it watches moves.

A stream registers a ``Waiter`` for a game (``games/{id}/stream/``) or a user (``me/stream/``), reads what is new
from the database, then waits on the waiter. One background task per process wakes the waiters:

- with Redis (``settings.STREAMS_REDIS_URL``): it subscribes to ``games.services.fanout.CHANNEL``, where every
  commit that moves a game is announced with the game's seated users; while Redis is unreachable it polls
  instead and retries;
- on the embedded default: every ``settings.STREAMS_POLL_SECONDS`` it reads the versions of the watched games
  (and a fingerprint of each watched user's games) in one or two indexed queries, whatever the number of streams.

A wake-up is only a hint to read the database again (the streams send what the log holds), so a spurious wake
costs a read and a lost one is made up by each stream's own read every heartbeat.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.selectors import live
from games.services.fanout import CHANNEL

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


class Waiter:
    """One open stream's wake-up flag. ``clear()`` before reading the database, then ``wait()``."""

    def __init__(self, hub: Hub, *, game: int | None, user: int | None) -> None:
        self.hub = hub
        self.game = game
        self.user = user
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
        self._task: asyncio.Task[None] | None = None
        self._seen_games: dict[int, int] = {}
        self._seen_users: dict[int, int] = {}

    def watch(self, *, game: int | None = None, user: int | None = None) -> Waiter:
        """A new waiter for ``game`` or ``user`` (one of them); starts the hub's task if it is not running."""
        waiter = Waiter(self, game=game, user=user)
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

    @property
    def watching(self) -> int:
        """How many waiters are registered."""
        return sum(len(waiters) for waiters in self._games.values()) + sum(len(w) for w in self._users.values())

    def notify(self, game: int, players: list[int]) -> None:
        """Wake the waiters of ``game`` and of each user in ``players``."""
        for waiter in self._games.get(game, ()):
            waiter.wake()
        for player in players:
            for waiter in self._users.get(player, ()):
                waiter.wake()

    def wake_all(self) -> None:
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
