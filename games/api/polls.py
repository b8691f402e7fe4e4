"""The poll gate: a current ``If-None-Match`` of ``me/turns/`` or the game view answered ``304`` on the event loop,
before Django, from two Redis reads; and a game view this process has just committed, answered from memory.

A thousand clients polling every half second send two thousand requests a second, nearly all asking whether
anything changed. Through Django each one costs a thread of its own under ASGI, the token's database check and
DRF's dispatch: milliseconds of CPU, which two cores cannot give two thousand times a second. The gate answers
them in tens of microseconds and sends everything else (a first request, a stale tag, anything it is unsure of)
on to Django, which answers as it always did.

What the gate checks, in one ``MGET`` on the shared cache's Redis (``settings.VIEW_VERSIONS_CACHE``), which the
polls arriving while the previous one is on its way share:

- the tag's version token is still current (``games.selectors.versions``: the same check as the views make);
- the caller's token has a *poll pass* for the user (and staff flag) the tag names. Django writes the pass
  (``remember_poller``) each time it answers one of these views to a caller it authenticated by token (knox's
  check, in full); the pass lives ``POLL_PASS_SECONDS`` and the gate never renews it. So a revoked or logged-out
  token gets ``304``s (which tell nothing but "no change") for at most that long after its last full check, and
  then Django's ``401``; and every poller passes through Django's full check at least that often.

The gate also answers a plain GET of a game view (``view_ask_of``: no ``If-None-Match``, query string or cookie,
a JSON ``Accept``) when this process can from memory alone, as Django's view would answer it: the caller's user
from this process's token memory (``players.auth.remembered_user``: the bound within which Django itself honours a
revocation), the game from what this process committed (``games.selectors.state.game_as_committed``: the game's
version token in Redis must be the one it wrote after that commit), the body Django renders for that caller
(``games.api.rendered``), and the headers of Django's last answer to a request of the same shape (scheme, ``Host``,
``Accept``) in this process, so that nothing Django's middlewares add is written twice and a ``Host`` Django
refuses is never answered here. The rendering runs on the event loop: anything that would need the database
raises ``SynchronousOnlyOperation`` there, and Django answers. That is the next seat's GET after an action on one
connection, which otherwise paid Django's handler, its middlewares, DRF and a thread for a body already in memory.

Nothing is sent on when the gate answers: no throttle counts the request (it costs less than the throttle's own
cache round trips). The gate is off (every request goes to Django) unless the shared cache is Django's
``RedisCache``; a Redis error sends the request to Django and quiets the gate for ``QUIET_AFTER_ERROR`` seconds.
Its 304s are logged one line each at DEBUG (``palace.requests``) and counted in one INFO line every
``COUNT_EVERY`` seconds; each game view it answers gets a line at INFO, as Django's answers do (``via=gate``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisSerializer
from django.core.exceptions import SynchronousOnlyOperation
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from games.api.rendered import game_detail_body
from games.selectors.state import game_as_committed
from games.selectors.versions import game_key, game_view_etag, turns_key, versions_cache
from players.auth import TokenAuthentication, remembered_user

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

POLL_PASS_SECONDS = 30
"""How long a token's poll pass lives after Django last authenticated it: the longest a revoked token still gets
``304``s from the gate, and the longest a poller goes without Django's full check."""
PASS_RENEW_AFTER = POLL_PASS_SECONDS / 2
"""Seconds a process leaves a pass it wrote before writing it again (``remember_poller``)."""
PASSES_REMEMBERED = 100_000
"""Passes a process remembers writing (``remember_poller``) before it forgets them all."""
QUIET_AFTER_ERROR = 5.0
REDIS_TIMEOUT = 2.0
"""Seconds to connect to Redis or wait for its answer; past them Django answers, and the gate rests."""
REDIS_CONNECTIONS = 2
"""Redis connections per web process for the gate: one MGET is on its way at a time (``PollGate._read``)."""
BATCH = 256
"""Polls answered by one MGET at most (two keys each)."""
COUNT_EVERY = 10.0
"""Seconds between two INFO lines counting the gate's 304s (each 304 has its own line at DEBUG)."""

_TURNS_PATH = "/api/v1/me/turns/"
_GAME_PATH = re.compile(r"/api/v1/games/([0-9]{1,18})/")
_TURNS_TAG = re.compile(r'"tv([0-9]{1,18})-([0-9a-f]{16})"')
_GAME_TAG = re.compile(r'"gv([0-9]{1,18})-([0-9a-f]{16})-(u[0-9]{1,18}s?)"')
_SCHEMES = (b"token", b"bearer")
_HEADERS = [
    (b"vary", b"Authorization, Accept"),
    (b"content-length", b"0"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]

_UNSET = object()

_passes_written: dict[tuple[str, str], tuple[str, float]] = {}
"""(the cache's key prefix, a pass's key) -> (the mark written, when: ``time.monotonic()``), in this process."""

_SERIALIZER = RedisSerializer()
"""How Django's Redis cache stores a value (a string pickled): the gate reads the values the cache wrote."""

request_log = logging.getLogger("palace.requests")
logger = logging.getLogger(__name__)


def pass_key(token: bytes) -> str:
    """The cache key of the poll pass of the API token ``token`` (its SHA-256: the key never holds the token)."""
    return f"palace:poll:{hashlib.sha256(token).hexdigest()}"


def viewer_mark(user: Any) -> str:
    """What a poll pass holds, and a game view's tag ends with: ``u<user id>``, ``s`` added for staff."""
    return f"u{user.pk}{'s' if getattr(user, 'is_staff', False) else ''}"


def _bearer(header: bytes) -> bytes | None:
    """The token of an ``Authorization: Token <t>`` (or ``Bearer``) header, or ``None`` for any other shape."""
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() not in _SCHEMES or not parts[1].isascii():
        return None
    return parts[1]


def remember_poller(request: Request) -> None:
    """Give the caller's API token a poll pass for ``POLL_PASS_SECONDS``: called by the two views once DRF has
    authenticated the request. Nothing for a session (no token to tie the pass to) or without the gate's Redis;
    a cache error is logged, never raised.

    A process that wrote the same pass less than ``PASS_RENEW_AFTER`` seconds ago does not write it again (a
    client that acts polls the game view before each move: a Redis round trip each time, for nothing). So a pass
    lives at most ``POLL_PASS_SECONDS`` after a full check, as before, and at least ``POLL_PASS_SECONDS -
    PASS_RENEW_AFTER`` after this process's last one; a pass the cache lost comes back within
    ``PASS_RENEW_AFTER`` (Django answers the polls meanwhile)."""
    cache = _gate_cache()
    token = _bearer(get_authorization_header(request))
    if cache is None or token is None or not isinstance(request.successful_authenticator, TokenAuthentication):
        return
    key, mark, now = pass_key(token), viewer_mark(request.user), time.monotonic()
    memo = (cache.key_prefix, key)
    written = _passes_written.get(memo)
    if written is not None and written[0] == mark and now - written[1] < PASS_RENEW_AFTER:
        return
    try:
        cache.set(key, mark, timeout=POLL_PASS_SECONDS)
    except Exception:  # any cache or socket error: the answer stands, the next poll goes through Django
        logger.warning("poll gate: could not write a poll pass", exc_info=True)
        return
    if len(_passes_written) >= PASSES_REMEMBERED:
        _passes_written.clear()  # rare, and only costs each token one more write
    _passes_written[memo] = (mark, now)


def _gate_cache() -> Any:
    """The shared cache, if it is Django's Redis cache (the gate reads it with its own Redis client)."""
    cache = versions_cache()
    return cache if isinstance(cache, RedisCache) else None


class Question:
    """A poll the gate may answer: the version token's key and the token the tag names, the marks a poll pass
    must hold, the tag itself, and the caller's API token."""

    __slots__ = ("key", "marks", "tag", "token", "version")

    def __init__(self, *, key: str, version: str, marks: tuple[str, ...], tag: str, token: bytes) -> None:
        self.key, self.version, self.marks, self.tag, self.token = key, version, marks, tag, token


def question_of(scope: Scope) -> Question | None:
    """The poll in ``scope``, or ``None`` for anything the gate leaves to Django: only a GET of one of the two
    paths with no query string, an API token, and one tag of the versions' shape in ``If-None-Match``."""
    if scope["type"] != "http" or scope["method"] != "GET" or scope.get("query_string"):
        return None
    headers = dict(scope["headers"])
    token = _bearer(headers.get(b"authorization", b""))
    tag = headers.get(b"if-none-match", b"").decode("latin-1").strip()
    if token is None or not tag:
        return None
    path = scope["path"]
    if path == _TURNS_PATH and (turns := _TURNS_TAG.fullmatch(tag)):
        # me/turns/ is the same for a staff user: either pass of the user will do.
        marks = (f"u{turns[1]}", f"u{turns[1]}s")
        return Question(key=turns_key(int(turns[1])), version=turns[2], marks=marks, tag=tag, token=token)
    game_path, game = _GAME_PATH.fullmatch(path), _GAME_TAG.fullmatch(tag)
    if game_path and game and game_path[1] == game[1]:
        return Question(key=game_key(int(game[1])), version=game[2], marks=(game[3],), tag=tag, token=token)
    return None


VIEW_ACCEPTS = (None, b"*/*", b"application/json")
"""``Accept`` headers of a game view's GET the gate may answer: those for which DRF picks its JSON renderer."""
LEARNED_SHAPES = 64
"""Request shapes (scheme, host, accept) whose answer headers the gate keeps from Django, at most per process."""
_NOT_LEARNED = frozenset((b"date", b"server", b"etag", b"content-length"))


class ViewAsk:
    """A plain GET of a game view the gate may answer: the game, the path, the caller's API token, and the
    request's shape (scheme, ``Host``, ``Accept``), of which Django's answer headers are kept."""

    __slots__ = ("game_id", "path", "shape", "token")

    def __init__(self, *, game_id: int, path: str, shape: tuple[Any, ...], token: bytes) -> None:
        self.game_id, self.path, self.shape, self.token = game_id, path, shape, token


def view_ask_of(scope: Scope) -> ViewAsk | None:
    """The plain GET of a game view in ``scope``, or ``None``: a GET of ``/api/v1/games/<id>/`` with no query
    string, an API token, no ``If-None-Match`` (``question_of``'s), no cookie, an ``Accept`` of
    ``VIEW_ACCEPTS``, and no header twice (Django joins repeated headers; the gate leaves them to it)."""
    if scope["type"] != "http" or scope["method"] != "GET" or scope.get("query_string"):
        return None
    path = scope["path"]
    match = _GAME_PATH.fullmatch(path)
    if match is None:
        return None
    pairs = scope["headers"]
    headers = dict(pairs)
    if len(headers) != len(pairs) or b"if-none-match" in headers or b"cookie" in headers:
        return None
    accept = headers.get(b"accept")
    token = _bearer(headers.get(b"authorization", b""))
    if accept not in VIEW_ACCEPTS or token is None:
        return None
    shape = (scope.get("scheme", "http"), scope.get("root_path", ""), headers.get(b"host"), accept)
    return ViewAsk(game_id=int(match[1]), path=path, shape=shape, token=token)


class PollGate:
    """ASGI middleware around Django: answers a current conditional poll, and a game view this process has just
    committed (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._redis: Any = None
        self._quiet_until = 0.0
        self._cache: Any = _UNSET
        # The polls waiting for the next MGET: (their two keys, the future of their two values).
        self._waiting: list[tuple[tuple[str, ...], asyncio.Future[list[Any]]]] = []
        self._sender: asyncio.Task[None] | None = None
        self._answered = 0
        self._counted_since = time.monotonic()
        # Request shape -> the headers of Django's last 200 of a game view to a request of that shape.
        self._learned: dict[tuple[Any, ...], list[tuple[bytes, bytes]]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        question = question_of(scope)
        if question is None:
            ask = view_ask_of(scope)
            if ask is not None:
                if await self._serve_view(ask, send):
                    return
                if ask.shape not in self._learned:
                    send = self._learning(ask, send)
            await self.app(scope, receive, send)
            return
        if not await self._current(question):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        headers = [(b"etag", question.tag.encode()), *_HEADERS]
        await send({"type": "http.response.start", "status": 304, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        # A line per 304 cost the gate more than its answer (a write to stderr on the event loop, thousands a
        # second): at DEBUG only; at INFO one line counts them every COUNT_EVERY seconds.
        request_log.debug(
            "GET %s 304 %.1fms user=%s game=- via=gate",
            scope["path"],
            (time.perf_counter() - started) * 1000,
            question.marks[0][1:],
        )
        self._count()

    async def _serve_view(self, ask: ViewAsk, send: Send) -> bool:
        """Answer ``ask`` as Django would, if this process can from memory alone: the caller's token is in its
        token memory, the game's version token is the one it wrote after its own last commit of the game
        (``game_as_committed``), and it has Django's headers for the request's shape. Returns whether it did."""
        headers = self._learned.get(ask.shape)
        if headers is None:
            return False
        user = remembered_user(ask.token)
        if user is None:
            return False
        values = await self._values((game_key(ask.game_id),))
        if values is None or values[0] is None:
            return False
        held = values[0]
        started = time.perf_counter()
        version = _SERIALIZER.loads(held)
        game = game_as_committed(ask.game_id, version)
        if game is None:
            return False
        try:
            body = game_detail_body(game, user)
        except SynchronousOnlyOperation:  # the memory lacked something the view needs: Django reads it
            return False
        etag = game_view_etag(ask.game_id, user, version).encode()
        answer = [*headers, (b"etag", etag), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": answer})
        await send({"type": "http.response.body", "body": body})
        request_log.info(
            "GET %s 200 %.1fms user=%s game=%s via=gate",
            ask.path,
            (time.perf_counter() - started) * 1000,
            user.pk,
            ask.game_id,
        )
        return True

    def _learning(self, ask: ViewAsk, send: Send) -> Send:
        """``send``, which also keeps the headers of Django's 200 JSON answer for ``ask``'s shape."""

        async def learn(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = [(name.lower(), value) for name, value in message.get("headers", ())]
                found = dict(headers)
                if b"set-cookie" not in found and found.get(b"content-type") == b"application/json":
                    if len(self._learned) >= LEARNED_SHAPES:
                        self._learned.clear()
                    self._learned[ask.shape] = [(n, v) for n, v in headers if n not in _NOT_LEARNED]
            await send(message)

        return learn

    def _gate(self) -> Any:
        """The shared cache if the gate may use Redis now, else ``None`` (no gate, or Redis quiet after an error)."""
        if self._cache is _UNSET:
            # Once per process: Django's ``caches[...]`` makes a new cache object in each request's context, which
            # cost a gate's answer more than its own work (the gate only needs the cache's key function).
            self._cache = _gate_cache()
        if self._cache is None or time.monotonic() < self._quiet_until:
            return None
        return self._cache

    def _count(self) -> None:
        self._answered += 1
        now = time.monotonic()
        if now - self._counted_since >= COUNT_EVERY:
            request_log.info("poll gate: %d 304s in %.0f s", self._answered, now - self._counted_since)
            self._answered, self._counted_since = 0, now

    async def _current(self, question: Question) -> bool:
        """Whether the tag's version token is current and the caller's API token holds a pass for one of its
        marks. ``False`` on any doubt: no gate, Redis quiet after an error, or failing now."""
        values = await self._values((question.key, pass_key(question.token)))
        if values is None or None in values:
            return False
        version, held = values
        return _SERIALIZER.loads(version) == question.version and _SERIALIZER.loads(held) in question.marks

    async def _values(self, names: tuple[str, ...]) -> list[Any] | None:
        """The cache's values (as stored) of the keys ``names``, read by this process's next MGET (``_read``), or
        ``None`` when the gate may not ask Redis now (``_gate``) or the read failed: then the gate rests for
        ``QUIET_AFTER_ERROR`` seconds and Django answers, as without the gate."""
        cache = self._gate()
        if cache is None:
            return None
        try:
            return await self._read(tuple(cache.make_key(name) for name in names))
        except Exception:  # any Redis or socket error
            self._quiet_until = time.monotonic() + QUIET_AFTER_ERROR
            logger.warning("poll gate: Redis unavailable, polls and game views go through Django", exc_info=True)
            return None

    async def _read(self, keys: tuple[str, ...]) -> list[Any]:
        """The values at ``keys``, from this process's next MGET: one MGET is on its way to Redis at a time, and
        the polls that arrive meanwhile share the next one (at most ``BATCH`` polls each). A round trip per poll
        was most of the gate's cost on the event loop (redis-py's pool, its lock, a send and a read per poll);
        now the busier the gate, the more polls each round trip answers. Raises what the MGET raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[Any]] = loop.create_future()
        self._waiting.append((keys, future))
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send())
        return await future

    async def _send(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting[:BATCH], self._waiting[BATCH:]
            try:
                values = await self._client().mget([key for keys, _ in batch for key in keys])
            except Exception as error:  # every poll of the batch goes to Django; the caller rests the gate
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            start = 0
            for keys, future in batch:
                if not future.done():  # a poll whose client left is cancelled
                    future.set_result(values[start : start + len(keys)])
                start += len(keys)

    def _client(self) -> Any:
        """This process's Redis client for the gate, made on first use (in the server's event loop)."""
        if self._redis is None:
            import redis.asyncio

            location = settings.CACHES[settings.VIEW_VERSIONS_CACHE]["LOCATION"]
            url = (location[0] if isinstance(location, list | tuple) else location.split(",")[0]).strip()
            pool = redis.asyncio.ConnectionPool.from_url(
                url,
                max_connections=REDIS_CONNECTIONS,
                socket_timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
            )
            self._redis = redis.asyncio.Redis(connection_pool=pool)
        return self._redis
