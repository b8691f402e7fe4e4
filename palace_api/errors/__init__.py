"""The API's one error shape: ``{"code": "...", "detail": "...", ...extra}`` for every error under /api/.

- ``codes``: the ``ErrorCode`` enum, the exceptions services raise (``ApplicationError`` and its subclasses, each
  with its status) and ``error_body``.
- ``schema``: the shape in the OpenAPI schema (``error_responses`` and the generic statuses ``BODY``,
  ``BODYLESS_POST``, ``NO_BODY``).
- ``handlers``: DRF's exception handler and Django's error pages (handler400/403/404/500).

The public names are re-exported here: import them from ``palace_api.errors``.
"""

from palace_api.errors.codes import (
    ApplicationError,
    ConflictError,
    ErrorCode,
    ForbiddenError,
    NotFoundError,
    TooManyRequestsError,
    UnprocessableError,
    error_body,
)
from palace_api.errors.handlers import (
    API_PREFIX,
    DATABASE_DOWN,
    DATABASE_RETRY_AFTER,
    bad_request,
    database_unavailable_body,
    exception_handler,
    page_not_found,
    permission_denied,
    server_error,
)
from palace_api.errors.schema import (
    BODY,
    BODYLESS_POST,
    ERROR_DESCRIPTIONS,
    GAME_NOT_FOUND,
    INVALID_BODY,
    NO_BODY,
    PLAYER_NOT_FOUND,
    ErrorSerializer,
    PayloadTooLargeErrorSerializer,
    ThrottledErrorSerializer,
    ValidationErrorSerializer,
    error_responses,
    no_content_responses,
)

__all__ = [
    "API_PREFIX",
    "BODY",
    "BODYLESS_POST",
    "DATABASE_DOWN",
    "DATABASE_RETRY_AFTER",
    "GAME_NOT_FOUND",
    "PLAYER_NOT_FOUND",
    "ERROR_DESCRIPTIONS",
    "INVALID_BODY",
    "NO_BODY",
    "ApplicationError",
    "ConflictError",
    "ErrorCode",
    "ErrorSerializer",
    "ForbiddenError",
    "NotFoundError",
    "TooManyRequestsError",
    "PayloadTooLargeErrorSerializer",
    "ThrottledErrorSerializer",
    "UnprocessableError",
    "ValidationErrorSerializer",
    "bad_request",
    "database_unavailable_body",
    "error_body",
    "error_responses",
    "exception_handler",
    "no_content_responses",
    "page_not_found",
    "permission_denied",
    "server_error",
]
