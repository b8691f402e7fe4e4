"""The handlers that answer errors in the one shape (``palace_api.errors.codes.error_body``).

- ``exception_handler``: DRF's EXCEPTION_HANDLER. Maps ApplicationError, the engine's EngineError and DRF's own
  exceptions to the one shape. Anything else is a bug: it is re-raised, the transaction rolls back, and Django
  answers with ``server_error`` below.
- ``bad_request``, ``permission_denied``, ``page_not_found``, ``server_error``: Django's handler400/403/404/500
  (palace_api/urls.py). Under /api/ they answer JSON in the same shape; elsewhere Django's usual pages.
"""

from __future__ import annotations

import logging
import math
import re
import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from games.engine.errors import EngineError
from palace_api.errors.codes import ApplicationError, ErrorCode, error_body

API_PREFIX = "/api/"

DATABASE_RETRY_AFTER = 5
"""Seconds a client is asked to wait (``Retry-After``) when the database cannot be reached."""
DATABASE_DOWN = (OperationalError, InterfaceError)
"""What the database driver raises when the server is down, restarting or unreachable: not a bug, a 503."""

# The name the module had before it became a package, so that logging configured for it still applies.
logger = logging.getLogger("palace_api.errors")


# --- DRF's exception handler ---


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every error a DRF view raises, in the one shape; None (a 500) for bugs."""
    if isinstance(exc, ApplicationError):
        # A service's own 429 says how long to wait as DRF's throttles do: in the body and in Retry-After.
        retry_after = exc.extra.get("retry_after")
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        return _respond(exc.status, error_body(exc.code, exc.detail, **exc.extra), headers=headers)
    if isinstance(exc, EngineError):
        return _respond(400, error_body(exc.code, exc.message))
    if isinstance(exc, DATABASE_DOWN):
        return _database_unavailable(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if not isinstance(exc, exceptions.APIException):
        return None

    headers: dict[str, str] = {}
    extra: dict[str, Any] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        retry_after = max(1, math.ceil(exc.wait))
        headers["Retry-After"] = str(retry_after)
        extra["retry_after"] = retry_after

    if isinstance(exc, exceptions.ValidationError):
        errors = _validation_errors(exc.detail)
        body = error_body(ErrorCode.INVALID, _first_message(errors), errors=errors)
    else:
        body = error_body(_api_exception_code(exc), _plain(exc.detail), **extra)
    return _respond(exc.status_code, body, headers=headers)


def database_unavailable_body() -> dict[str, Any]:
    """The 503 body for a database outage: ``service_unavailable`` with ``retry_after`` (seconds). A request
    refused with it did not commit, except in the rare case of a connection lost during its COMMIT: a client
    that must know sends an Idempotency-Key and retries with it."""
    return error_body(
        ErrorCode.SERVICE_UNAVAILABLE,
        "The database is unavailable. Try again shortly.",
        retry_after=DATABASE_RETRY_AFTER,
    )


def _database_unavailable(exc: BaseException) -> Response:
    logger.error("database unavailable: %s", exc)
    return Response(database_unavailable_body(), status=503, headers={"Retry-After": str(DATABASE_RETRY_AFTER)})


def _respond(status: int, body: dict[str, Any], *, headers: dict[str, str] | None = None) -> Response:
    set_rollback()
    return Response(body, status=status, headers=headers)


def _api_exception_code(exc: exceptions.APIException) -> str:
    """The code the exception was raised with (``NotFound(code="game_not_found")``), or its class's default."""
    code = getattr(exc.detail, "code", None) or getattr(exc, "default_code", None) or _snake_case(type(exc).__name__)
    if code == "parse_error":
        # The only parser is JSONParser: a body that does not parse is malformed JSON.
        return ErrorCode.MALFORMED_JSON
    return str(code)


def _snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _plain(detail: Any) -> Any:
    """ErrorDetail strings (and lists and dicts of them) as plain JSON values."""
    if isinstance(detail, dict):
        return {str(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_plain(item) for item in detail]
    return str(detail)


def _validation_errors(detail: Any) -> dict[str, list[str]]:
    """``{field: [messages]}``, flat: a nested field's messages are prefixed with where they belong
    (``"0: Not a valid string."`` for an item of a list). Errors not tied to a field go under DRF's
    NON_FIELD_ERRORS_KEY."""
    if isinstance(detail, dict):
        return {str(key): _messages(value) for key, value in detail.items()}
    return {api_settings.NON_FIELD_ERRORS_KEY: _messages(detail)}


def _messages(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [message for key, value in detail.items() for message in _messages(value, f"{prefix}{key}: ")]
    if isinstance(detail, list):
        return [message for item in detail for message in _messages(item, prefix)]
    return [f"{prefix}{detail}"]


def _first_message(errors: dict[str, list[str]]) -> str:
    """A readable summary for ``detail``: the first message, with the field it belongs to."""
    for field, messages in errors.items():
        if messages:
            return messages[0] if field == api_settings.NON_FIELD_ERRORS_KEY else f"{field}: {messages[0]}"
    return "Invalid input."


# --- Django's error handlers (handler400/403/404/500 in palace_api/urls.py) ---


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body(ErrorCode.BAD_REQUEST, "Bad request."), status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        body = error_body(ErrorCode.PERMISSION_DENIED, "You do not have permission to perform this action.")
        return JsonResponse(body, status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body(ErrorCode.NOT_FOUND, "Not found."), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        # Django calls this while handling the exception: a database outage outside a DRF view (a middleware's
        # query) is a 503 too.
        if isinstance(sys.exc_info()[1], DATABASE_DOWN):
            headers = {"Retry-After": str(DATABASE_RETRY_AFTER)}
            return JsonResponse(database_unavailable_body(), status=503, headers=headers)
        return JsonResponse(error_body(ErrorCode.SERVER_ERROR, "Server error."), status=500)
    return defaults.server_error(request)
