"""The request headers the games API reads itself, each parsed in one function beside the ``OpenApiParameter``
that documents its grammar and bounds in the schema. A header that breaks its grammar (over-long, empty,
non-ASCII, a control character) is a 400 ``invalid`` whose ``errors`` name it, before anything reaches a service.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request

from games.inputs import IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN, validate_idempotency_key

IF_NONE_MATCH_MAX_LENGTH = 1024
"""Room for a few dozen entity tags; the API's own are under 80 characters."""
_PRINTABLE = r"^[!-~](?:[ -~]*[!-~])?$"
SEQ_MAX = 2**31 - 1
"""The highest log ``seq`` a request may name."""

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX_LENGTH, "pattern": IDEMPOTENCY_KEY_PATTERN},
    OpenApiParameter.HEADER,
    description=(
        "A unique key per action: a retry with the same key and body gets the stored answer. 1 to "
        f"{IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters; any other is a 400 `invalid`."
    ),
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    {"type": "string", "minLength": 1, "maxLength": IF_NONE_MATCH_MAX_LENGTH, "pattern": _PRINTABLE},
    OpenApiParameter.HEADER,
    description=f"An `ETag` from before (or several, comma-separated): printable ASCII, at most "
    f"{IF_NONE_MATCH_MAX_LENGTH} characters.",
)
LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    {"type": "integer", "minimum": 0, "maximum": SEQ_MAX},
    OpenApiParameter.HEADER,
    description="Resume after this seq (wins over after).",
)

_IF_NONE_MATCH = re.compile(_PRINTABLE)
_SEQ = re.compile(r"[0-9]{1,10}")


def _refuse(header: str, message: str) -> serializers.ValidationError:
    return serializers.ValidationError({header: [message]})


def idempotency_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key``, or None without one. Raises ``ValidationError`` (400 ``invalid``) for
    a key ``games.inputs.validate_idempotency_key`` refuses (empty, over-long, not printable ASCII)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    try:
        validate_idempotency_key(key)
    except DjangoValidationError as error:
        raise _refuse("Idempotency-Key", error.messages[0]) from None
    return key


def not_modified(request: Request, etag: str) -> bool:
    """Whether the request's ``If-None-Match`` names ``etag`` (a list of tags, comma-separated). Raises
    ``ValidationError`` (400 ``invalid``) for a header that is empty, over ``IF_NONE_MATCH_MAX_LENGTH``
    characters, or not printable ASCII."""
    header = request.headers.get("If-None-Match")
    if header is None:
        return False
    if len(header) > IF_NONE_MATCH_MAX_LENGTH:
        raise _refuse("If-None-Match", f"At most {IF_NONE_MATCH_MAX_LENGTH} characters, not {len(header)}.")
    if not _IF_NONE_MATCH.fullmatch(header):
        raise _refuse("If-None-Match", "Entity tags in printable ASCII, comma-separated; not empty.")
    return etag in [tag.strip() for tag in header.split(",")]


def last_event_id(request: Request) -> int | None:
    """The ``Last-Event-ID`` an ``EventSource`` sends when it reconnects (the last ``seq`` it saw), or None
    without one. Raises ``ValidationError`` (400 ``invalid``) for a header that is not a seq: empty, not ASCII
    digits, or over ``SEQ_MAX``."""
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return None
    value = header.strip()
    if not _SEQ.fullmatch(value) or int(value) > SEQ_MAX:
        raise _refuse("Last-Event-ID", f"An integer from 0 to {SEQ_MAX}.")
    return int(value)
