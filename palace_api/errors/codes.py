"""The codes of the API's errors and the exceptions services raise with them.

- ``ErrorCode``: every code the project itself raises, in one place (Zulip's idea): clients match on ``code``,
  never on ``detail``, which is for people. The engine's codes come from ``games.engine.errors``.
- ``ApplicationError`` and its subclasses: what services raise; the status comes with the class.
- ``error_body``: the one body shape, ``{"code": "...", "detail": "...", ...extra}``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


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
    # Games, seats, the lifecycle, accounts, email and webhooks.
    ALREADY_SEATED = "already_seated"
    CREATOR_ONLY = "creator_only"
    GAME_CANCELLED = "game_cancelled"
    GAME_FINISHED = "game_finished"
    GAME_IN_PROGRESS = "game_in_progress"
    GAME_NOT_FOUND = "game_not_found"
    GAME_NOT_STARTED = "game_not_started"
    GAME_STARTED = "game_started"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INVALID_OPTION = "invalid_option"
    INVALID_PREARRANGED_SHUFFLE = "invalid_prearranged_shuffle"
    INVALID_PREARRANGED_SHUFFLES = "invalid_prearranged_shuffles"
    INVALID_SEED = "invalid_seed"
    INVALID_SEAT = "invalid_seat"
    INVALID_WEBHOOK_EVENTS = "invalid_webhook_events"
    NO_FREE_SEAT = "no_free_seat"
    NOT_SEATED = "not_seated"
    NOT_YOUR_TURN = "not_your_turn"
    PHH_UNAVAILABLE = "phh_unavailable"
    REVIEW_NOT_FOUND = "review_not_found"
    SEAT_PLAYED_BY_BOT = "seat_played_by_bot"
    SEAT_TAKEN = "seat_taken"
    STAFF_ONLY = "staff_only"
    STEP_NOT_FOUND = "step_not_found"
    VERSION_CONFLICT = "version_conflict"
    # Ratings.
    LADDER_NOT_FOUND = "ladder_not_found"
    PLAYER_NOT_FOUND = "player_not_found"
    RATED_NOT_PREARRANGED = "rated_not_prearranged"
    UNRATED_ACCOUNT = "unrated_account"
    # Table chat and rematch (issue 26).
    CANNOT_MUTE_SELF = "cannot_mute_self"
    CHAT_FORBIDDEN = "chat_forbidden"
    MESSAGE_EMPTY = "message_empty"
    MESSAGE_NOT_FOUND = "message_not_found"
    MESSAGE_TOO_LONG = "message_too_long"
    REMATCH_CLOSED = "rematch_closed"
    REMATCH_NOT_FOUND = "rematch_not_found"
    REMATCH_TAKEN = "rematch_taken"


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


class TooManyRequestsError(ApplicationError):
    """A per-user rate limit a service keeps itself (table chat); give ``retry_after`` (whole seconds)."""

    status = 429


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": str(code), "detail": str(detail), **extra}
