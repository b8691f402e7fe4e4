"""Middleware of every request: the request log line, and JSON errors under /api/ whatever Django's mode.

- ``RequestLogMiddleware``: one line per request on the ``palace.requests`` logger (stderr, settings.LOGGING):
  method, path, status, milliseconds, user id and game id (``-`` where there is none).
- ``ApiErrorMiddleware``: under /api/, a POST, PUT or PATCH body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes is
  refused before anything reads it (413 ``payload_too_large`` with ``limit``; under ASGI ``BodyLimitMiddleware``
  below refuses it first, so this serves WSGI: Django's test client, its live server, runserver), and an error
  page that Django made in HTML (its DEBUG 404 and 500 pages, which bypass handler404/handler500) is answered in
  the API's JSON shape instead.
- ``ContentSecurityPolicyMiddleware``: django-csp's middleware (settings.CONTENT_SECURITY_POLICY on every
  response), with inline styles allowed on the pages of DRF's browsable API, whose templates write them.
- ``BodyLimitMiddleware``: ASGI, around Django (palace_api/asgi.py). Django's ASGI handler reads a whole body
  before any middleware runs; this refuses a POST, PUT or PATCH body over the limit first, unread, on every path
  (the API, the pages' forms, multipart): 413 with ``Connection: close``, so a client that stopped sending the
  body (``Expect: 100-continue`` gets no ``100 Continue``) never has its next request read as that body. The body
  of any other method, which nothing reads, is drained and dropped.
- ``NulQueryMiddleware``: outside /api/, a query string with a NUL byte is a 400 page (PostgreSQL stores none).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from csp.constants import SELF, UNSAFE_INLINE
from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from rest_framework.renderers import BrowsableAPIRenderer

from palace_api.both_modes import BothModes
from palace_api.errors import API_PREFIX, ErrorCode, error_body

request_log = logging.getLogger("palace.requests")

BODY_METHODS = ("POST", "PUT", "PATCH")
"""Methods whose body the API reads; the body of any other is never read, so never refused."""

_HTML_ERRORS = {
    400: (ErrorCode.BAD_REQUEST, "Bad request."),
    403: (ErrorCode.PERMISSION_DENIED, "You do not have permission to perform this action."),
    404: (ErrorCode.NOT_FOUND, "Not found."),
    500: (ErrorCode.SERVER_ERROR, "Server error."),
}


def payload_too_large_body(limit: int) -> dict[str, Any]:
    """The API's 413 body: ``payload_too_large`` with ``limit``, the largest body accepted in bytes."""
    return error_body(ErrorCode.PAYLOAD_TOO_LARGE, f"The body is over {limit} bytes.", limit=limit)


class RequestLogMiddleware(BothModes):
    """Logs ``<method> <path> <status> <ms>ms user=<id> game=<id>`` once per request, at INFO (WARNING for 5xx)."""

    def before(self, request: HttpRequest) -> None:
        request._palace_started = time.perf_counter()  # type: ignore[attr-defined]
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        elapsed = (time.perf_counter() - request._palace_started) * 1000  # type: ignore[attr-defined]
        user = getattr(request, "user", None)
        user_id = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
        match = getattr(request, "resolver_match", None)
        game_id = match.kwargs.get("game_id") if match is not None else None
        level = logging.WARNING if response.status_code >= 500 else logging.INFO
        request_log.log(
            level,
            "%s %s %s %.1fms user=%s game=%s",
            request.method,
            request.path,
            response.status_code,
            elapsed,
            "-" if user_id is None else user_id,
            "-" if game_id is None else game_id,
        )
        return response


class ApiErrorMiddleware(BothModes):
    """JSON errors under /api/ in every mode; see the module docstring."""

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        if not request.path_info.startswith(API_PREFIX):
            return None
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit and request.method in BODY_METHODS:
            return JsonResponse(payload_too_large_body(limit), status=413)
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not request.path_info.startswith(API_PREFIX):
            return response
        known = _HTML_ERRORS.get(response.status_code)
        if known is not None and not response.get("Content-Type", "").startswith("application/json"):
            status = response.status_code
            response = JsonResponse(error_body(*known), status=status)
        return response


LIBRARY_STYLES = {"style-src": [SELF, UNSAFE_INLINE]}
"""The policy's change on the pages of libraries whose templates or scripts write inline styles (DRF's browsable
API; Redoc, palace_api/urls.py): their styles, never their scripts, may be inline. Those pages show the API's own
data and schema, escaped."""


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware (the extension point its docs name: ``get_policy_parts``); a page of DRF's browsable
    API gets ``LIBRARY_STYLES`` (its base template writes a <style> and style attributes)."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request=request, response=response, report_only=report_only)
        if parts.replace is None and isinstance(getattr(response, "accepted_renderer", None), BrowsableAPIRenderer):
            parts.replace = LIBRARY_STYLES
        return parts


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


LINGER_SECONDS = 5.0
"""After a 413 the server goes on reading and dropping the body, until it ends or for this long at most, before
it closes the connection: closing on unread data would make the kernel reset the connection, and a reset can lose
the answer that a client still sending its body has not read yet (RFC 9112, section 9.6: close in stages)."""


class BodyLimitMiddleware:
    """ASGI middleware: bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes refused before Django reads them.

    - POST, PUT, PATCH over the limit (by ``Content-Length`` at once; a chunked body as soon as it passes the
      limit): 413 with ``Connection: close``, the body never handed to Django; under /api/ the API's
      ``payload_too_large`` JSON (with ``limit``), elsewhere plain text. The server then reads and drops what
      the client still sends (for ``LINGER_SECONDS`` at most) and closes the connection, so the rest of
      the body is never taken for a next request. A client that waits to send its body (``Expect:
      100-continue``) gets the 413 instead of ``100 Continue``, and the connection closes at once.
    - A chunked body within the limit is read, then handed to Django as it came.
    - Any other method: its body is read and dropped as it arrives (nothing reads it), so it costs no memory or
      disk and the connection stays usable.
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if scope["type"] != "http" or limit is None:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in BODY_METHODS:
            await self.app(scope, _dropping(receive), send)
            return
        length = _header(scope, b"content-length")
        # Whether more of the body may come: not once it ended, nor while the client waits for 100 Continue.
        linger = (_header(scope, b"expect") or "").lower() != "100-continue"
        if length is None:
            messages, finished = await _read(receive, limit)
            if finished:
                await self.app(scope, _replaying(messages, receive), send)
                return
            if messages[-1]["type"] != "http.request":
                return  # the client went away: nobody to answer
            linger = messages[-1].get("more_body", False)
        elif length.isdigit() and int(length) <= limit:
            await self.app(scope, receive, send)
            return
        await _refuse(scope, receive, send, limit, linger=linger)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1").strip()
    return None


async def _read(receive: Receive, budget: int) -> tuple[list[Message], bool]:
    """Read the body's messages while they add up to ``budget`` bytes at most: ``(messages, finished)``, where
    ``finished`` says the body ended within the budget (false past it, or when the client went away)."""
    messages, size = [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, False
        size += len(message.get("body", b""))
        if size > budget:
            return messages, False
        if not message.get("more_body", False):
            return messages, True


async def _drain(receive: Receive) -> None:
    """Read and drop the rest of the body, until it ends or the client goes away."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replay() -> Message:
        return pending.pop(0) if pending else await receive()

    return replay


def _dropping(receive: Receive) -> Receive:
    async def drop() -> Message:
        message = await receive()
        if message["type"] == "http.request" and message.get("body"):
            message = {**message, "body": b""}
        return message

    return drop


async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int, *, linger: bool) -> None:
    """The 413, whole, then (``linger``) the rest of the body read and dropped within the bounds, then the end of
    the response, after which the server closes the connection (``Connection: close``)."""
    started = time.perf_counter()
    if scope["path"].startswith(API_PREFIX):
        body, content_type = json.dumps(payload_too_large_body(limit)).encode(), b"application/json"
    else:
        body, content_type = f"The body is over {limit} bytes.\n".encode(), b"text/plain; charset=utf-8"
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"x-content-type-options", b"nosniff"),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": linger})
    request_log.info(
        "%s %s 413 %.1fms user=- game=-", scope["method"], scope["path"], (time.perf_counter() - started) * 1000
    )
    if linger:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_drain(receive), LINGER_SECONDS)
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class NulQueryMiddleware(BothModes):
    """Outside /api/, a query string holding a NUL byte (``%00``) is a 400 page before any view reads it.

    PostgreSQL keeps no NUL in text, so a filter or a search of the admin with one fails in the database: a 500.
    The pages' own parameters are parsed strictly where they are read (``web.forms``), and under /api/ each
    parameter's serializer refuses a NUL by name (400 ``invalid``).
    """

    def before(self, request: HttpRequest) -> None:
        if not request.path_info.startswith(API_PREFIX) and "%00" in request.META.get("QUERY_STRING", ""):
            raise BadRequest("a NUL byte in the query string")
        return None
