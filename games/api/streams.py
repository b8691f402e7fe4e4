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
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.headers import LAST_EVENT_ID, last_event_id
from games.api.hub import FeedPage, GameFeed, database, hub
from games.api.serializers import EventOutput, render
from games.api.side_events import side_read
from games.messages import STREAM_EVENTS
from games.selectors import live
from palace_api.errors import GAME_NOT_FOUND, NO_BODY, ApplicationError, ErrorCode, NotFoundError, error_responses
from palace_api.serializers import NoQuery, StrictSerializer, query
from players.auth import (
    STREAM_TOKEN_MAX_AGE,
    StreamTokenAuthentication,
    StreamTokenField,
    TokenAuthentication,
    stream_token_for,
)

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
            method = request.method.lower()
            handler = getattr(self, method, None) if method in self.http_method_names else None
            if handler is None:
                # Before authenticating: a method the path does not take is a 405 whoever asks, and costs no read.
                self.http_method_not_allowed(request, *args, **kwargs)
            await database(self.initial, request, *args, **kwargs)
            if iscoroutinefunction(handler):
                response = await handler(request, *args, **kwargs)
            else:
                response = handler(request, *args, **kwargs)
        except Exception as exc:
            response = self.handle_exception(exc)
        if isinstance(response, Response):
            response = self.finalize_response(request, response, *args, **kwargs)
        return response


class GameStreamQuery(StrictSerializer):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=2**31 - 1, help_text="Send the entries after this seq."
    )
    follow = serializers.BooleanField(
        required=False, default=True, help_text="false: send what there is now, then end the stream."
    )
    token = StreamTokenField()


class MyStreamQuery(StrictSerializer):
    follow = serializers.BooleanField(
        required=False, default=True, help_text="false: send the turns due now, then end the stream."
    )
    token = StreamTokenField()


def _stream(body: AsyncIterator[bytes], waiter: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type=EVENT_STREAM, headers=STREAM_HEADERS)
    # The body's own clean-up never runs if the client leaves before its first event: Django closes the response
    # in every case.
    response._resource_closers.append(waiter.close)
    return response


class GameStreamEvent(serializers.Serializer):
    """One event of a game's stream as an SSE client parses it (the schema of each event, not of the stream)."""

    id = serializers.CharField(help_text="The entry's `seq`: send the last one back as `Last-Event-ID`.")
    event = serializers.ChoiceField(choices=EventOutput().fields["kind"].choices, help_text="The entry's `kind`.")
    data = serializers.CharField(help_text="The entry as JSON, exactly as `events/` gives it to you (`EventOutput`).")


class MyStreamEvent(serializers.Serializer):
    """One event of your own stream as an SSE client parses it."""

    event = serializers.ChoiceField(choices=list(STREAM_EVENTS))
    data = serializers.CharField(
        help_text="JSON: `game`, `kind`, `seat`, `version`; `turn.due` adds `deadline` and `seconds_left`, "
        "`game.finished` adds `result`."
    )


STREAM_RESPONSE = OpenApiResponse(
    GameStreamEvent,
    description=(
        "`text/event-stream`; the schema is each event's. Each event: `id` (the entry's seq), `event` (its kind) "
        "and `data` (the entry exactly as `events/` gives it to you). Comments (`: heartbeat`) every 15 s of "
        "silence. The stream ends once a finished game's log is all sent, or at once with `follow=false`."
    ),
)


STREAM_ERRORS = error_responses("GamesStream", {400: (ErrorCode.INVALID,), **GAME_NOT_FOUND}, 401, *NO_BODY)


class GameStreamView(AsyncAPIView):
    @extend_schema(
        operation_id="games_stream",
        parameters=[
            GameStreamQuery,
            LAST_EVENT_ID,
        ],
        responses={
            (200, EVENT_STREAM): STREAM_RESPONSE,
            204: OpenApiResponse(description="The game is over and you have its whole log: stop reconnecting."),
            **STREAM_ERRORS,
        },
    )
    async def get(self, request: Request, game_id: int) -> HttpResponseBase:
        """Every new log entry of the game as you may see it, live, with nothing lost or repeated on
        reconnecting: `EventSource` sends the last `id` it saw as `Last-Event-ID`. With `follow=false`, the
        entries there are now, then the stream ends (a catch-up read)."""
        params = query(request, GameStreamQuery)
        resume = last_event_id(request)  # what EventSource sends when it reconnects wins over ?after=
        after = params["after"] if resume is None else resume
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
        # Chat said before the stream opened is read over the API; the stream sends what is said from now on.
        marks = dict(waiter.feed.side)
        events = self._events(game_id, user, waiter, first, after, marks, follow=params["follow"])
        return _stream(events, waiter)

    @staticmethod  # an open stream's generator holds no view, nor so DRF's request: less memory per stream
    async def _events(
        game_id: int, user: Any, waiter: Any, page: FeedPage, after: int, marks: dict[str, int], *, follow: bool
    ) -> Any:
        heartbeat = settings.STREAMS_HEARTBEAT_SECONDS
        feed = waiter.feed
        try:
            while True:
                for seq, chunk in page.chunks:
                    yield chunk
                    after = seq
                if feed.side_newer(marks):
                    side, marks = await database(side_read, game_id, user, marks)
                    for name, data in side:
                        yield sse(data, event=name)  # no id: Last-Event-ID stays the log's
                if not page.more:
                    if page.ended and after >= page.version:
                        return  # the log is complete; the client's reconnection gets a 204
                    if not follow:
                        return
                    while not await waiter.wait(heartbeat):
                        yield HEARTBEAT
                        # A lost hint costs one heartbeat at most: the feed reads again if it has not lately.
                        await feed.refresh(older_than=heartbeat)
                        if feed.gone or feed.newer_than(after) or feed.side_newer(marks):
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
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    page = feed.page(user, after, _render, limit=PAGE)
    if page is not None:
        return page
    read = await database(live.stream_page, game_id, user, after=after, limit=PAGE)
    chunks = [(entry["seq"], _render(entry)) for entry in read.entries]
    return FeedPage(chunks=chunks, more=read.more, version=read.version, ended=read.ended)


class MyStreamView(AsyncAPIView):
    @extend_schema(
        operation_id="me_stream",
        parameters=[MyStreamQuery],
        responses={
            (200, EVENT_STREAM): OpenApiResponse(
                MyStreamEvent,
                description=(
                    "`text/event-stream` (the schema is each event's) of your games: first a `turn.due` for each "
                    "decision yours now, then "
                    "`game.started`, `turn.due` (`game`, `kind`, `seat`, `version`, `deadline`, `seconds_left`) "
                    "and `game.finished` (with `result`) as they happen. Comments every 15 s of silence."
                ),
            ),
            **error_responses("MeStream", {400: (ErrorCode.INVALID,)}, 401, *NO_BODY),
        },
    )
    async def get(self, request: Request) -> HttpResponseBase:
        """Your turns and your games' starts and ends, across all your games, live. With `follow=false`, the
        turns due now, then the stream ends."""
        params = query(request, MyStreamQuery)
        user_id = request.user.pk
        if user_id is None:  # IsAuthenticated lets no anonymous caller here; be explicit all the same
            raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in to follow your games")
        waiter = hub().watch(user=user_id)
        return _stream(self._events(user_id, waiter, follow=params["follow"]), waiter)

    @staticmethod  # as GameStreamView._events
    async def _events(user_id: int, waiter: Any, *, follow: bool) -> Any:
        heartbeat = settings.STREAMS_HEARTBEAT_SECONDS
        before: dict[int, live.MyGame] | None = None
        try:
            while True:
                waiter.clear()
                now = await database(live.stream_games, user_id, also=list(before or {}))
                news = await database(live.my_stream_news, before, now)
                for name, payload in news:
                    yield sse(payload, event=name)
                if not follow:
                    return
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
        responses={
            201: StreamTokenOutput,
            # 413: the middleware refuses an oversized body before the view, which reads none.
            **error_responses("MeStreamTokenCreate", {400: (ErrorCode.INVALID,)}, 401, 413, *NO_BODY),
        },
    )
    def post(self, request: Request) -> Response:
        """A token that opens your streams as `?token=` for 60 s, for browsers' `EventSource`, which cannot send
        an `Authorization` header. A stream opened with it stays open; revoking your API token (`auth/logout/`),
        or logging out of the session that asked for it, voids it."""
        query(request, NoQuery)
        token = stream_token_for(request)
        return Response(StreamTokenOutput({"token": token, "expires_in": STREAM_TOKEN_MAX_AGE}).data, status=201)
