"""The API's one error shape: ``{"code": "...", "detail": "...", ...extra}`` for every error under /api/.

- ``ErrorCode``: every code the project itself raises, in one place (Zulip's idea): clients match on ``code``,
  never on ``detail``, which is for people. The engine's codes come from ``games.engine.errors``.
- ``ApplicationError`` and its subclasses: what services raise; the status comes with the class.
- ``exception_handler``: DRF's EXCEPTION_HANDLER. Maps ApplicationError, the engine's EngineError and DRF's own
  exceptions to the one shape. Anything else is a bug: it is re-raised, the transaction rolls back, and Django
  answers with ``server_error`` below.
- ``bad_request``, ``permission_denied``, ``page_not_found``, ``server_error``: Django's handler400/403/404/500
  (palace_api/urls.py). Under /api/ they answer JSON in the same shape; elsewhere Django's usual pages.
- ``ErrorSerializer`` (the OpenAPI ``Error`` component) and ``error_responses``: the shape in the schema. Views list
  their errors beside their success responses::

      @extend_schema(responses={201: GameOut, **error_responses(400, 401, 404, 409)})

  400 is documented as ``ValidationError`` (it may carry ``errors``), 429 as ``ThrottledError`` (``retry_after``).
  Knox's "Authorization: Token <token>" scheme reaches the schema through drf-spectacular's bundled knox
  extension (``knoxApiToken``).
"""

from __future__ import annotations

import logging
import math
import re
import sys
from enum import StrEnum
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from games.engine.errors import EngineError

API_PREFIX = "/api/"

DATABASE_RETRY_AFTER = 5
"""Seconds a client is asked to wait (``Retry-After``) when the database cannot be reached."""
DATABASE_DOWN = (OperationalError, InterfaceError)
"""What the database driver raises when the server is down, restarting or unreachable: not a bug, a 503."""

logger = logging.getLogger(__name__)


class ErrorCode(StrEnum):
    """Every ``code`` the project raises itself. Add a member when a new refusal needs its own code."""

    # Generic, from the exception handler.
    INVALID = "invalid"
    MALFORMED_JSON = "malformed_json"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    NOT_ACCEPTABLE = "not_acceptable"
    NOT_AUTHENTICATED = "not_authenticated"
    AUTHENTICATION_FAILED = "authentication_failed"
    PERMISSION_DENIED = "permission_denied"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    THROTTLED = "throttled"
    BAD_REQUEST = "bad_request"
    SERVER_ERROR = "server_error"
    SERVICE_UNAVAILABLE = "service_unavailable"
    # Players and tokens.
    INVALID_NAME = "invalid_name"
    NAME_TAKEN = "name_taken"
    INVALID_CREDENTIALS = "invalid_credentials"
    INVALID_PASSWORD = "invalid_password"  # noqa: S105  (an error code, not a secret)
    TOKEN_NOT_FOUND = "token_not_found"  # noqa: S105  (an error code, not a secret)


class ApplicationError(Exception):
    """A refusal a service raises on purpose: answered with ``status`` and ``{"code", "detail", **extra}``.

    ``extra`` must be JSON-serialisable.
    """

    status = 400

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = str(code)
        self.detail = detail
        self.extra = extra

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.detail!r})"


class NotFoundError(ApplicationError):
    status = 404


class ForbiddenError(ApplicationError):
    status = 403


class ConflictError(ApplicationError):
    status = 409


class UnprocessableError(ApplicationError):
    status = 422


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": str(code), "detail": str(detail), **extra}


# --- the shape in the OpenAPI schema ---


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable snake_case code; clients match on it.")
    detail = serializers.CharField(help_text="Human-readable explanation; may change wording.")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='Only with code "invalid": the messages of each field of the request body.',
    )


class ThrottledErrorSerializer(ErrorSerializer):
    retry_after = serializers.IntegerField(help_text="Seconds to wait; also sent as the Retry-After header.")


ERROR_DESCRIPTIONS = {
    400: "Invalid request: invalid (with errors), malformed_json, or a refusal with its own code.",
    401: "not_authenticated (no token) or authentication_failed (unknown or revoked token).",
    403: "permission_denied, or a refusal with its own code.",
    404: "not_found, or a refusal with its own code.",
    405: "method_not_allowed.",
    409: "A conflict with the current state, with its own code.",
    415: "unsupported_media_type: the request body must be JSON.",
    422: "A well-formed request the current state cannot accept, with its own code.",
    429: "throttled: wait retry_after seconds.",
    503: "service_unavailable: the database cannot be reached; wait retry_after seconds (also Retry-After).",
}

_SERIALIZER_BY_STATUS = {400: ValidationErrorSerializer, 429: ThrottledErrorSerializer, 503: ThrottledErrorSerializer}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """``{status: OpenApiResponse(Error...)}`` for ``@extend_schema(responses=...)``."""
    return {
        status: OpenApiResponse(
            response=_SERIALIZER_BY_STATUS.get(status, ErrorSerializer),
            description=ERROR_DESCRIPTIONS.get(status, "Error."),
        )
        for status in statuses
    }


# --- DRF's exception handler ---


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every error a DRF view raises, in the one shape; None (a 500) for bugs."""
    if isinstance(exc, ApplicationError):
        return _respond(exc.status, error_body(exc.code, exc.detail, **exc.extra))
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


def _validation_errors(detail: Any) -> dict[str, Any]:
    """``{field: [messages]}``; errors not tied to a field go under DRF's NON_FIELD_ERRORS_KEY."""
    if isinstance(detail, dict):
        return {
            str(key): _plain(value if isinstance(value, (list, dict)) else [value]) for key, value in detail.items()
        }
    messages = detail if isinstance(detail, list) else [detail]
    return {api_settings.NON_FIELD_ERRORS_KEY: _plain(messages)}


def _first_message(errors: dict[str, Any]) -> str:
    """A readable summary for ``detail``: the first message, with the field it belongs to."""
    for field, value in errors.items():
        while isinstance(value, (list, dict)) and value:
            value = value[0] if isinstance(value, list) else next(iter(value.values()))
        if isinstance(value, str):
            return value if field == api_settings.NON_FIELD_ERRORS_KEY else f"{field}: {value}"
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
