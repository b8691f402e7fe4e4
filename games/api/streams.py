"""Live event streams (Server-Sent Events): ``games/{id}/stream/``, ``me/stream/`` and ``me/stream-token/``.

The stream views are async: an open stream waits on the event loop (``games.api.hub``), holding no worker
thread, and runs its database reads in the hub's few threads. They authenticate, throttle and answer errors as
the rest of the API does (``AsyncAPIView``), and also take a short-lived signed ``?token=`` (browsers'
``EventSource`` cannot send an ``Authorization`` header).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from inspect import iscoroutinefunction
from typing import Any

from django.conf import settings
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.hub import FeedPage, GameFeed, database, hub
from games.api.serializers import EventOutput, render
from games.selectors import live
from palace_api.errors import ApplicationError, NotFoundError, error_responses
from players.auth import STREAM_TOKEN_MAX_AGE, StreamTokenAuthentication, TokenAuthentication, stream_token_create

PAGE = 200
"""Log entries read per query while a stream catches up."""

EVENT_STREAM = "text/event-stream"

STREAM_HEADERS = {
    "Cache-Control": "no-cache",
    # A reverse proxy (nginx) must pass each event on at once rather than buffer the response.
    "X-Accel-Buffering": "no",
}


def sse(data: Any, *, event: str | None = None, event_id: int | None = None) -> bytes:
    """One Server-Sent Event: optional ``id:`` and ``event:`` lines, then ``data:`` (compact JSON, one line)."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event is not None:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return ("\n".join(lines) + "\n\n").encode()


HEARTBEAT = b": heartbeat\n\n"
"""An SSE comment: clients ignore it; it keeps proxies from closing an idle connection and finds dead ones."""


class AsyncAPIView(APIView):
    """An ``APIView`` whose handlers are coroutines: DRF's authentication, permissions, throttles and error
    shape, with the synchronous part (authentication reads the database) run in the streams' database threads.

    Errors always answer JSON (``palace_api.errors``), whatever the client accepts: ``EventSource`` asks for
    ``text/event-stream`` only.
    """

    renderer_classes = [JSONRenderer]
    authentication_classes = [TokenAuthentication, StreamTokenAuthentication, SessionAuthentication]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[JSONRenderer, str]:
        renderer = JSONRenderer()
        return renderer, renderer.media_type

    async def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponseBase:  # type: ignore[override]
        self.args, self.kwargs = args, kwargs
        request = self.initialize_request(request, *args, **kwargs)
        self.request = request
        self.headers = self.default_response_headers
        try:
            await database(self.initial, request, *args, **kwargs)
            method = request.method.lower()
            handler = getattr(self, method, None) if method in self.http_method_names else None
            if handler is None:
                handler = self.http_method_not_allowed
            if iscoroutinefunction(handler):
                response = await handler(request, *args, **kwargs)
            else:
                response = handler(request, *args, **kwargs)
        except Exception as exc:
            response = self.handle_exception(exc)
        if isinstance(response, Response):
            response = self.finalize_response(request, response, *args, **kwargs)
        return response


def _int_or_400(name: str, raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if not 0 <= value < 2**31:
        raise ApplicationError("invalid_parameter", f"'{name}' must be an integer from 0 to {2**31 - 1}")
    return value


def _start_after(request: Request) -> int:
    """Where the stream resumes: ``Last-Event-ID`` (what ``EventSource`` sends when it reconnects) before
    ``?after=``; 0 (the whole log) when neither is given."""
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip() != "":
        return _int_or_400("Last-Event-ID", header.strip())
    raw = request.query_params.get("after")
    return 0 if raw is None or raw == "" else _int_or_400("after", raw)


def _stream(body: AsyncIterator[bytes], waiter: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type=EVENT_STREAM, headers=STREAM_HEADERS)
    # The body's own clean-up never runs if the client leaves before its first event: Django closes the response
    # in every case.
    response._resource_closers.append(waiter.close)
    return response


STREAM_RESPONSE = OpenApiResponse(
    OpenApiTypes.STR,
    description=(
        "`text/event-stream`. Each event: `id` (the entry's seq), `event` (its kind) and `data` (the entry "
        "exactly as `events/` gives it to you). Comments (`: heartbeat`) every 15 s of silence. The stream "
        "ends once a finished game's log is all sent."
    ),
)


class GameStreamView(AsyncAPIView):
    @extend_schema(
        operation_id="games_stream",
        parameters=[
            OpenApiParameter("after", int, description="Send the entries after this seq (default 0: all)."),
            OpenApiParameter(
                "Last-Event-ID", int, OpenApiParameter.HEADER, description="Resume after this seq (wins over after)."
            ),
            OpenApiParameter("token", str, description="A stream token (`me/stream-token/`) instead of a header."),
        ],
        responses={
            (200, EVENT_STREAM): STREAM_RESPONSE,
            204: OpenApiResponse(description="The game is over and you have its whole log: stop reconnecting."),
            **error_responses(400, 401, 404, 429),
        },
    )
    async def get(self, request: Request, game_id: int) -> HttpResponseBase:
        """Every new log entry of the game as you may see it, live, with nothing lost or repeated on
        reconnecting: `EventSource` sends the last `id` it saw as `Last-Event-ID`."""
        after = _start_after(request)
        user = request.user
        waiter = hub().watch(game=game_id)  # before the first read: a move in between wakes it
        try:
            first = await _page(waiter.feed, game_id, user, after)
        except BaseException:
            waiter.close()
            raise
        if first.ended and not first.chunks and after >= first.version:
            waiter.close()
            return HttpResponse(status=204)
        return _stream(self._events(game_id, user, waiter, first, after), waiter)

    async def _events(self, game_id: int, user: Any, waiter: Any, page: FeedPage, after: int) -> Any:
        heartbeat = settings.STREAMS_HEARTBEAT_SECONDS
        feed = waiter.feed
        try:
            while True:
                for seq, chunk in page.chunks:
                    yield chunk
                    after = seq
                if not page.more:
                    if page.ended and after >= page.version:
                        return  # the log is complete; the client's reconnection gets a 204
                    while not await waiter.wait(heartbeat):
                        yield HEARTBEAT
                        # A lost hint costs one heartbeat at most: the feed reads again if it has not lately.
                        await feed.refresh(older_than=heartbeat)
                        if feed.gone or feed.newer_than(after):
                            break
                waiter.clear()
                try:
                    page = await _page(feed, game_id, user, after)
                except ApplicationError:
                    return  # the game is gone
        finally:
            waiter.close()


def _render(entry: dict[str, Any]) -> bytes:
    return sse(render(EventOutput, entry), event=entry["kind"], event_id=entry["seq"])


async def _page(feed: GameFeed, game_id: int, user: Any, after: int) -> FeedPage:
    """The entries after ``after`` for ``user``: from the game's shared feed (one read per move for all its
    streams), or from the database when the stream is further behind than the feed keeps. Raises
    ``NotFoundError("game_not_found")``."""
    await feed.refresh()
    if feed.gone:
        raise NotFoundError("game_not_found", "no such game")
    page = feed.page(user, after, _render, limit=PAGE)
    if page is not None:
        return page
    read = await database(live.stream_page, game_id, user, after=after, limit=PAGE)
    chunks = [(entry["seq"], _render(entry)) for entry in read.entries]
    return FeedPage(chunks=chunks, more=read.more, version=read.version, ended=read.ended)


class MyStreamView(AsyncAPIView):
    @extend_schema(
        operation_id="me_stream",
        parameters=[OpenApiParameter("token", str, description="A stream token instead of a header.")],
        responses={
            (200, EVENT_STREAM): OpenApiResponse(
                OpenApiTypes.STR,
                description=(
                    "`text/event-stream` of your games: first a `turn.due` for each decision yours now, then "
                    "`game.started`, `turn.due` (`game`, `kind`, `seat`, `version`, `deadline`, `seconds_left`) "
                    "and `game.finished` (with `result`) as they happen. Comments every 15 s of silence."
                ),
            ),
            **error_responses(401, 429),
        },
    )
    async def get(self, request: Request) -> HttpResponseBase:
        """Your turns and your games' starts and ends, across all your games, live."""
        user_id = request.user.pk
        if user_id is None:  # IsAuthenticated lets no anonymous caller here; be explicit all the same
            raise ApplicationError("not_authenticated", "log in to follow your games")
        waiter = hub().watch(user=user_id)
        return _stream(self._events(user_id, waiter), waiter)

    async def _events(self, user_id: int, waiter: Any) -> Any:
        heartbeat = settings.STREAMS_HEARTBEAT_SECONDS
        before: dict[int, live.MyGame] | None = None
        try:
            while True:
                waiter.clear()
                now = await database(live.my_games, user_id, also=list(before or {}))
                news = await database(live.my_stream_news, before, now)
                for name, payload in news:
                    yield sse(payload, event=name)
                before = {game: row for game, row in now.items() if row.status in live.LIVE_STATUSES}
                if not await waiter.wait(heartbeat):
                    yield HEARTBEAT  # then read again: a lost hint costs one heartbeat at most
        finally:
            waiter.close()


class StreamTokenOutput(serializers.Serializer):
    token = serializers.CharField(help_text="Pass as `?token=` to a stream endpoint.")
    expires_in = serializers.IntegerField(help_text="Seconds left to open a stream with it.")


class StreamTokenView(APIView):
    @extend_schema(
        operation_id="me_stream_token_create",
        request=None,
        responses={201: StreamTokenOutput, **error_responses(401, 429)},
    )
    def post(self, request: Request) -> Response:
        """A token that opens your streams as `?token=` for 60 s, for browsers' `EventSource`, which cannot send
        an `Authorization` header. A stream opened with it stays open; revoking your API token voids it."""
        token = stream_token_create(request.user, request.auth)
        return Response(StreamTokenOutput({"token": token, "expires_in": STREAM_TOKEN_MAX_AGE}).data, status=201)
