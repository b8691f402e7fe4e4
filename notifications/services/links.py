"""Links in mails, and the signed tokens in them.

Every absolute URL a mail carries is built here from ``settings.SITE_URL``, so the table's address (the web
app's ``/games/{id}/``) lives in one place. Tokens are Django's signed values (HMAC with SECRET_KEY, a salt per
purpose): no login is needed to confirm an address or to unsubscribe, and nothing is stored to look them up.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse

from palace_api.errors import ApplicationError

CONFIRM_SALT = "notifications.confirm"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
CONFIRM_MAX_AGE = 7 * 24 * 3600
"""Seconds a confirmation link stays valid."""

INVALID_TOKEN = "invalid_token"  # noqa: S105  (an error code, not a secret)
EXPIRED_TOKEN = "expired_token"  # noqa: S105  (an error code, not a secret)

# What an unsubscribe link turns off: one kind of mail, or every kind (the link in a confirmation mail).
UNSUBSCRIBE_SCOPES = ("turn", "finished", "all")


def absolute(path: str) -> str:
    """``path`` (starting with ``/``) on the site: ``SITE_URL`` without its trailing slash, then ``path``."""
    return settings.SITE_URL.rstrip("/") + path


def table_url(game_id: int) -> str:
    """The web page of a game's table, where its players act."""
    return absolute(f"/games/{game_id}/")


def confirm_token(*, user_id: int, address: str) -> str:
    """A signed token naming the account and the address it confirms; valid ``CONFIRM_MAX_AGE`` seconds."""
    return signing.dumps({"u": user_id, "a": address}, salt=CONFIRM_SALT)


def confirm_url(*, user_id: int, address: str) -> str:
    return absolute(reverse("email-confirm", args=[confirm_token(user_id=user_id, address=address)]))


def read_confirm_token(token: str) -> tuple[int, str]:
    """``(user_id, address)`` of a confirmation token. Raises ``ApplicationError`` ``expired_token`` (older than
    ``CONFIRM_MAX_AGE``) or ``invalid_token`` (not one of ours, or altered)."""
    value = _load(token, salt=CONFIRM_SALT, max_age=CONFIRM_MAX_AGE)
    if not isinstance(value.get("u"), int) or not isinstance(value.get("a"), str):
        raise ApplicationError(INVALID_TOKEN, "This link is not valid.")
    return value["u"], value["a"]


def unsubscribe_token(*, user_id: int, scope: str) -> str:
    """A signed token that turns off ``scope`` (``turn``, ``finished`` or ``all``) for the account; it never
    expires, as links in old mails must keep working (RFC 8058)."""
    return signing.dumps({"u": user_id, "s": scope}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(*, user_id: int, scope: str) -> str:
    return absolute(reverse("email-unsubscribe", args=[unsubscribe_token(user_id=user_id, scope=scope)]))


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """``(user_id, scope)`` of an unsubscribe token. Raises ``ApplicationError("invalid_token")``."""
    value = _load(token, salt=UNSUBSCRIBE_SALT, max_age=None)
    if not isinstance(value.get("u"), int) or value.get("s") not in UNSUBSCRIBE_SCOPES:
        raise ApplicationError(INVALID_TOKEN, "This link is not valid.")
    return value["u"], value["s"]


def _load(token: str, *, salt: str, max_age: int | None) -> dict[str, Any]:
    try:
        value = signing.loads(token, salt=salt, max_age=max_age)
    except signing.SignatureExpired:
        raise ApplicationError(EXPIRED_TOKEN, "This link has expired: ask for a new one.") from None
    except signing.BadSignature:
        raise ApplicationError(INVALID_TOKEN, "This link is not valid.") from None
    if not isinstance(value, dict):
        raise ApplicationError(INVALID_TOKEN, "This link is not valid.")
    return value
