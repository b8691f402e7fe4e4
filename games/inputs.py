"""The grammar of an input that the API and the web pages both read: the Idempotency-Key of an action (the API's
``Idempotency-Key`` header, the table form's ``idempotency_key`` field). Each layer checks it here before calling
``action_submit_idempotent``, so the services only see keys the database can store (README, "Playing over HTTP").
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

from games.models import IdempotencyKey

IDEMPOTENCY_KEY_MAX_LENGTH: int = IdempotencyKey._meta.get_field("key").max_length  # type: ignore[assignment]
"""The longest key, in characters: what the database column holds (255)."""

IDEMPOTENCY_KEY_PATTERN = r"^[!-~](?:[ -~]*[!-~])?$"
"""Printable ASCII, spaces inside only (a proxy may trim them at either end); the same in the OpenAPI schema."""

_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


def validate_idempotency_key(value: str) -> None:
    """Refuse a key that is empty, longer than ``IDEMPOTENCY_KEY_MAX_LENGTH`` characters, or holds anything but
    printable ASCII (non-ASCII letters, control characters, NUL, a space at either end).

    Raises Django's ``ValidationError`` (a form's field error; DRF turns it into a 400 ``invalid``) whose message
    says which rule the key breaks.
    """
    if value == "":
        raise ValidationError("An Idempotency-Key may not be empty: send none, or 1 character or more.")
    if len(value) > IDEMPOTENCY_KEY_MAX_LENGTH:
        raise ValidationError(
            f"An Idempotency-Key has at most {IDEMPOTENCY_KEY_MAX_LENGTH} characters, not {len(value)}."
        )
    if not _KEY.fullmatch(value):
        raise ValidationError(
            "An Idempotency-Key is printable ASCII (letters, digits, punctuation; spaces inside only)."
        )
