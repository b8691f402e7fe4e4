"""Middleware of every request: the request log line, and JSON errors under /api/ whatever Django's mode.

- ``RequestLogMiddleware``: one line per request on the ``palace.requests`` logger (stderr, settings.LOGGING):
  method, path, status, milliseconds, user id and game id (``-`` where there is none).
- ``ApiErrorMiddleware``: under /api/, a POST, PUT or PATCH body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes is
  refused before anything reads it (413 ``payload_too_large`` with ``limit``), and an error page that Django
  made in HTML (its DEBUG 404 and 500 pages, which bypass handler404/handler500) is answered in the API's JSON
  shape instead.
- ``NulQueryMiddleware``: outside /api/, a query string with a NUL byte is a 400 page (PostgreSQL stores none).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, JsonResponse

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


class RequestLogMiddleware:
    """Logs ``<method> <path> <status> <ms>ms user=<id> game=<id>`` once per request, at INFO (WARNING for 5xx)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = (time.perf_counter() - started) * 1000
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


class ApiErrorMiddleware:
    """JSON errors under /api/ in every mode; see the module docstring."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit and request.method in BODY_METHODS:
            body = error_body(ErrorCode.PAYLOAD_TOO_LARGE, f"The body is over {limit} bytes.", limit=limit)
            return JsonResponse(body, status=413)
        response = self.get_response(request)
        known = _HTML_ERRORS.get(response.status_code)
        if known is not None and not response.get("Content-Type", "").startswith("application/json"):
            status = response.status_code
            response = JsonResponse(error_body(*known), status=status)
        return response


class NulQueryMiddleware:
    """Outside /api/, a query string holding a NUL byte (``%00``) is a 400 page before any view reads it.

    PostgreSQL keeps no NUL in text, so a filter or a search of the admin with one fails in the database: a 500.
    The pages' own parameters are parsed strictly where they are read (``web.forms``), and under /api/ each
    parameter's serializer refuses a NUL by name (400 ``invalid``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(API_PREFIX) and "%00" in request.META.get("QUERY_STRING", ""):
            raise BadRequest("a NUL byte in the query string")
        return self.get_response(request)
