"""The API's one error shape: ``{"code": "...", "detail": "...", ...extra}`` for every error under /api/.

- ``ErrorCode``: every code the project itself raises, in one place (Zulip's idea): clients match on ``code``,
  never on ``detail``, which is for people. The engine's codes come from ``games.engine.errors``.
- ``ApplicationError`` and its subclasses: what services raise; the status comes with the class.
- ``exception_handler``: DRF's EXCEPTION_HANDLER. Maps ApplicationError, the engine's EngineError and DRF's own
  exceptions to the one shape. Anything else is a bug: it is re-raised, the transaction rolls back, and Django
  answers with ``server_error`` below.
- ``bad_request``, ``permission_denied``, ``page_not_found``, ``server_error``: Django's handler400/403/404/500
  (palace_api/urls.py). Under /api/ they answer JSON in the same shape; elsewhere Django's usual pages.
- ``ErrorSerializer`` and ``error_responses``: the shape in the schema. Views list the errors each operation
  answers beside its success responses, with the codes each status carries as an enum::

      @extend_schema(responses={201: GameOut, **error_responses("GamesCreate", {400: ("invalid",)}, 401, 429)})

  400 with ``invalid`` carries ``errors``, 429 ``retry_after``, 413 ``limit``. The token schemes (``Bearer`` and
  ``Token``) reach the schema through ``players.auth.TokenScheme``.
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
    NESTING_TOO_DEEP = "nesting_too_deep"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    NOT_ACCEPTABLE = "not_acceptable"
    NOT_AUTHENTICATED = "not_authenticated"
    AUTHENTICATION_FAILED = "authentication_failed"
    PERMISSION_DENIED = "permission_denied"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    THROTTLED = "throttled"
    PAYLOAD_TOO_LARGE = "payload_too_large"
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

    ``extra`` must be JSON-serialisable; a ``retry_after`` in it (whole seconds) is also sent as ``Retry-After``.
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


class PayloadTooLargeErrorSerializer(ErrorSerializer):
    limit = serializers.IntegerField(help_text="The largest body accepted, in bytes.")


ERROR_DESCRIPTIONS = {
    400: "Invalid request: `invalid` (with `errors` naming each field or parameter), `malformed_json`, or a "
    "refusal with its own code.",
    401: "`not_authenticated` (no token) or `authentication_failed` (a malformed header, or an unknown, revoked "
    "or expired token).",
    403: "Not allowed: the code says why.",
    404: "Not found: the code says what.",
    405: "`method_not_allowed`: the path does not take this method (`Allow` lists those it takes).",
    409: "A conflict with the current state: the code says which.",
    413: "`payload_too_large`: the body is over `limit` bytes.",
    415: "`unsupported_media_type`: the request body must be `application/json`.",
    422: "A well-formed request the current state cannot accept: the code says why.",
    429: "`throttled`: wait `retry_after` seconds (also the `Retry-After` header).",
    503: "`service_unavailable`: the database cannot be reached; wait `retry_after` seconds (also `Retry-After`).",
}
_PLAIN_400 = "Refused: the code says why (this operation names no fields in its refusals)."

# Codes every operation may answer with at a status, whatever it does.
_GENERIC_CODES: dict[int, tuple[str, ...]] = {
    401: (ErrorCode.NOT_AUTHENTICATED, ErrorCode.AUTHENTICATION_FAILED),
    405: (ErrorCode.METHOD_NOT_ALLOWED,),
    413: (ErrorCode.PAYLOAD_TOO_LARGE,),
    415: (ErrorCode.UNSUPPORTED_MEDIA_TYPE,),
    429: (ErrorCode.THROTTLED,),
}
# The generic statuses an operation passes to ``error_responses``, by how it reads its request.
BODY = (405, 413, 415, 429)
"""An operation that takes a JSON body."""
BODYLESS_POST = (405, 413, 429)
"""A POST that reads no body: a body over the limit is still refused before the view (413)."""
NO_BODY = (405, 429)
"""An operation without a body (GET, DELETE): it reads none, whatever its size."""
INVALID_BODY = (ErrorCode.INVALID, ErrorCode.MALFORMED_JSON, ErrorCode.NESTING_TOO_DEEP)
"""The 400 codes of a JSON body that the parser or the serializer refuses."""

_BASE_BY_STATUS: dict[int, type[serializers.Serializer]] = {
    400: ValidationErrorSerializer,
    413: PayloadTooLargeErrorSerializer,
    429: ThrottledErrorSerializer,
    503: ThrottledErrorSerializer,
}


def error_responses(
    operation: str | int, codes: dict[int, tuple[str, ...]] | int | None = None, *statuses: int
) -> dict[int, OpenApiResponse]:
    """``{status: OpenApiResponse}`` for ``@extend_schema(responses=...)``: the errors one operation answers.

    ``operation``: a CamelCase name for the components (``GamesCreate`` gives ``GamesCreateError400``...);
    ``codes``: status -> the codes the operation raises at it; ``statuses``: further statuses whose codes are
    generic (401, 405, 413, 415, 429). Each status gets its own component whose ``code`` is an enum of those
    codes, on the right base: ``errors`` on a 400 that lists ``invalid``, ``retry_after`` on 429, ``limit`` on
    413.

    The older form, statuses alone (``error_responses(400, 401, 404)``), still gives each status its shape with
    ``code`` a free string; an operation documented so has not yet said which codes it answers.
    """
    if isinstance(operation, int):
        every = [operation, *([codes] if isinstance(codes, int) else []), *statuses]
        return {
            status: OpenApiResponse(
                response=_BASE_BY_STATUS.get(status, ErrorSerializer),
                description=ERROR_DESCRIPTIONS.get(status, "Error."),
            )
            for status in every
        }
    if isinstance(codes, int):
        raise TypeError("error_responses(name, {status: codes}, *statuses): the codes come as a mapping")
    wanted = dict(codes or {})
    for status in statuses:
        wanted.setdefault(status, _GENERIC_CODES[status])
    responses = {}
    for status in sorted(wanted):
        choices = [str(code) for code in dict.fromkeys(wanted[status])]
        # Only the serializers' refusal (``invalid``) names fields: a 400 that cannot carry it has no ``errors``.
        plain_400 = status == 400 and ErrorCode.INVALID not in choices
        base = ErrorSerializer if plain_400 else _BASE_BY_STATUS.get(status, ErrorSerializer)
        description = _PLAIN_400 if plain_400 else ERROR_DESCRIPTIONS.get(status, "Error.")
        serializer = type(
            f"{operation}Error{status}",
            (base,),
            {
                "code": serializers.ChoiceField(choices=choices, help_text="Machine-readable; clients match on it."),
                "__doc__": description,
            },
        )
        responses[status] = OpenApiResponse(response=serializer, description=description)
    return responses


def no_content_responses(
    description: str, operation: str, codes: dict[int, tuple[str, ...]], *statuses: int
) -> dict[int, OpenApiResponse]:
    """``responses`` of an operation that answers 204 with no body (``description`` says what was done) or the
    errors ``error_responses(operation, codes, *statuses)`` documents."""
    return {204: OpenApiResponse(description=description), **error_responses(operation, codes, *statuses)}


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
