"""Token authentication: knox's, with a cheaper clean-up; and short-lived signed stream tokens (``?token=``),
each tied to the API token or the logged-in session that asked for it."""

from __future__ import annotations

import binascii
import re
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core import signing
from django.core.validators import RegexValidator
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from rest_framework import exceptions, serializers
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from players.selectors import stream_grant_session
from players.token_cache import TOKENS

SCHEMES = (b"token", b"bearer")
"""``Authorization`` schemes that carry a token, compared without case: knox's ``Token`` and the ``Bearer``
that HTTP clients and generated clients send by default."""


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's token check for ``Authorization: Token <token>`` or ``Authorization: Bearer <token>``, without
    knox's sweep of the user's other tokens, and remembered per process for ``AUTH_TOKEN_CACHE_SECONDS``
    (``players.token_cache``: a revoked token is refused within that bound).

    Returns ``None`` without an ``Authorization`` header (the next authenticator, or 401
    ``not_authenticated``); raises ``AuthenticationFailed`` (401 ``authentication_failed``) saying what is
    wrong with a header of another scheme, without a token, with spaces in it, or not text, and for a token
    that is unknown, revoked or expired.
    """

    def authenticate(self, request: Request) -> Any:
        parts = get_authorization_header(request).split()
        if not parts:
            return None
        if parts[0].lower() not in SCHEMES:
            raise exceptions.AuthenticationFailed(
                "Unsupported Authorization scheme: send 'Token <token>' or 'Bearer <token>'."
            )
        if len(parts) == 1:
            raise exceptions.AuthenticationFailed("The Authorization header has no token after its scheme.")
        if len(parts) > 2:
            raise exceptions.AuthenticationFailed("The token in the Authorization header must not contain spaces.")
        try:
            parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        return self.authenticate_credentials(parts[1])

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        """(user, token row) of a good ``token``: from this process's memory if it checked the token less than
        ``AUTH_TOKEN_CACHE_SECONDS`` ago, else knox's query (then remembered). ``AuthenticationFailed`` as knox."""
        if TOKENS.seconds() <= 0:
            return super().authenticate_credentials(token)
        digest = token_digest(token)
        if digest is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        remembered = TOKENS.get(digest)
        if remembered is not None:
            return remembered
        user, auth_token = super().authenticate_credentials(token)
        TOKENS.put(digest, user, auth_token)
        return user, auth_token

    def _cleanup_token(self, auth_token: Any) -> bool:
        """Whether the presented token has expired (then deleted). knox reads every token of the user on each
        request to delete the expired ones; player tokens never expire, and an expired staff token is refused
        (and deleted) here when presented, so that sweep only cost a query per request."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


def token_digest(token: bytes) -> str | None:
    """knox's digest of the API token ``token`` (the token of an ``Authorization`` header), or ``None`` for one
    that cannot be a token (not ASCII, or not knox's shape)."""
    try:
        return hash_token(token.decode("ascii"))
    except (TypeError, ValueError, binascii.Error):
        return None


def remembered_user(token: bytes) -> Any | None:
    """The user ``TokenAuthentication`` authenticates ``token`` as from this process's memory alone
    (``players.token_cache``: checked against the database less than ``AUTH_TOKEN_CACHE_SECONDS`` ago, not revoked
    here since), or ``None`` when it would have to query: the memory is off, or does not hold the token. A copy,
    the caller's own."""
    if TOKENS.seconds() <= 0:
        return None
    digest = token_digest(token)
    remembered = None if digest is None else TOKENS.get(digest)
    return None if remembered is None else remembered[0]


class TokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security schemes of ``TokenAuthentication``: ``bearerAuth`` and ``tokenAuth``, either one."""

    target_class = "players.auth.TokenAuthentication"
    name = ["bearerAuth", "tokenAuth"]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, Any]]:
        return [
            {"type": "http", "scheme": "bearer", "description": "`Authorization: Bearer <token>`."},
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": "`Authorization: Token <token>` (the word `Token`, a space, then the token).",
            },
        ]


STREAM_TOKEN_SALT = "palace.stream-token"  # noqa: S105  (a signing namespace, not a secret)
STREAM_TOKEN_MAX_AGE = 60
"""Seconds a stream token stays good for opening a stream (a stream already open goes on)."""
STREAM_TOKEN_MAX_LENGTH = 200
"""The longest stream token accepted, in characters; those made here have about 80."""
STREAM_TOKEN_PATTERN = r"^[A-Za-z0-9_.:-]+$"  # noqa: S105  (a grammar, not a secret)
"""What Django's signing writes: URL-safe base64, ``.`` before a compressed payload, ``:`` between the parts."""
_DIGEST_PREFIX = 32
_STREAM_TOKEN = re.compile(STREAM_TOKEN_PATTERN)


def stream_token_for(request: Any) -> str:
    """A signed token that opens the caller's event streams as ``?token=``, for ``STREAM_TOKEN_MAX_AGE``
    seconds: browsers' ``EventSource`` cannot send an ``Authorization`` header.

    ``request``: DRF's or Django's, authenticated. The stream token dies with what authenticated it: the knox
    token of the request (``auth/logout/`` revokes it), else the request's logged-in session (logging out of
    the pages or the admin ends it; a ``StreamGrant`` row names that session). Raises ``AuthenticationFailed``
    (401) for a request with neither.
    """
    user = request.user
    auth_token = getattr(request, "auth", None)
    payload: dict[str, Any] = {"u": user.pk}
    if isinstance(auth_token, get_token_model()):
        payload["d"] = auth_token.digest[:_DIGEST_PREFIX]
    else:
        session_key = getattr(getattr(request, "session", None), "session_key", None)
        if session_key is None:
            raise exceptions.AuthenticationFailed("Stream tokens are given to an API token or a logged-in session.")
        # Imported here: DRF imports this module while rest_framework.views loads, which the services import.
        from players.services import stream_grant_create

        payload["g"] = stream_grant_create(user=user, session_key=session_key, lifetime=STREAM_TOKEN_MAX_AGE).pk
    return signing.dumps(payload, salt=STREAM_TOKEN_SALT, compress=True)


def _session_is_logged_in(session_key: str, user: Any) -> bool:
    """Whether the session ``session_key`` is still logged in as ``user``: not logged out, flushed or expired,
    and logged in with the password the user has now (a password change ends the other sessions), as
    ``django.contrib.auth.get_user`` checks a session."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    if session.get(SESSION_KEY) != user._meta.pk.value_to_string(user):
        return False
    session_hash = session.get(HASH_SESSION_KEY) or ""
    known = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(session_hash, expected) for expected in known)


class StreamTokenField(serializers.CharField):
    """A stream endpoint's ``token`` query parameter, bounded: 1 to ``STREAM_TOKEN_MAX_LENGTH`` characters of
    ``STREAM_TOKEN_PATTERN`` (400 ``invalid`` otherwise). Its signature, age and owner are
    ``StreamTokenAuthentication``'s to check."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", STREAM_TOKEN_MAX_LENGTH)
        kwargs.setdefault("help_text", "A stream token (`me/stream-token/`) instead of a header.")
        super().__init__(**kwargs)
        self.validators.append(RegexValidator(STREAM_TOKEN_PATTERN, "Not a stream token."))


class StreamTokenAuthentication(BaseAuthentication):
    """``?token=<stream token>`` (from ``POST /api/v1/me/stream-token/``), on the stream endpoints only.

    Returns ``None`` when the query has no ``token``; raises ``AuthenticationFailed`` (401) for a token that is
    malformed, forged, older than ``STREAM_TOKEN_MAX_AGE`` seconds, or whose API token was revoked or whose
    session logged out.
    """

    def authenticate(self, request: Any) -> tuple[Any, None] | None:
        raw = request.query_params.get("token")
        if not raw:
            return None
        if len(raw) > STREAM_TOKEN_MAX_LENGTH or not _STREAM_TOKEN.fullmatch(raw):
            raise exceptions.AuthenticationFailed("Invalid stream token.")
        try:
            payload = signing.loads(raw, salt=STREAM_TOKEN_SALT, max_age=STREAM_TOKEN_MAX_AGE)
        except signing.SignatureExpired as error:
            raise exceptions.AuthenticationFailed("Stream token expired: ask for a new one.") from error
        except signing.BadSignature as error:
            raise exceptions.AuthenticationFailed("Invalid stream token.") from error
        user = get_user_model().objects.filter(pk=payload.get("u"), is_active=True).first()
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid stream token.")
        prefix, grant = payload.get("d"), payload.get("g")
        if prefix is not None:
            if not get_token_model().objects.filter(user=user, digest__startswith=prefix).exists():
                raise exceptions.AuthenticationFailed("The API token behind this stream token was revoked.")
        elif grant is None:
            raise exceptions.AuthenticationFailed("Invalid stream token.")
        else:
            session_key = stream_grant_session(grant_id=grant, user=user)
            if session_key is None or not _session_is_logged_in(session_key, user):
                raise exceptions.AuthenticationFailed("The session behind this stream token has logged out.")
        return user, None

    def authenticate_header(self, request: Any) -> str:
        return "Token"


class StreamTokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of ``StreamTokenAuthentication``: an API key in the query's ``token``."""

    target_class = "players.auth.StreamTokenAuthentication"
    name = "streamToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "query", "name": "token"}
