"""Token authentication: knox's, with a cheaper clean-up; and short-lived signed stream tokens (``?token=``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.models import get_token_model
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's ``Authorization: Token <token>`` check, without its sweep of the user's other tokens.

    knox reads every token of the user on each request to delete the expired ones; player tokens never
    expire, and an expired staff token is refused (and deleted) when it is presented, so the sweep only
    cost a query per request. Returns whether the presented token has expired.
    """

    def _cleanup_token(self, auth_token: Any) -> bool:
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of ``TokenAuthentication``: knox's ``knoxApiToken``, for the subclass."""

    target_class = "players.auth.TokenAuthentication"


STREAM_TOKEN_SALT = "palace.stream-token"  # noqa: S105  (a signing namespace, not a secret)
STREAM_TOKEN_MAX_AGE = 60
"""Seconds a stream token stays good for opening a stream (a stream already open goes on)."""
_DIGEST_PREFIX = 32


def stream_token_create(user: Any, auth_token: Any | None) -> str:
    """A signed token that opens the caller's event streams as ``?token=``, for ``STREAM_TOKEN_MAX_AGE``
    seconds: browsers' ``EventSource`` cannot send an ``Authorization`` header.

    ``auth_token``: the knox token of the request (``None`` for a session): the stream token dies with it, so
    revoking the API token also refuses its stream tokens. Nothing is stored: the token is its own proof.
    """
    payload: dict[str, Any] = {"u": user.pk}
    if auth_token is not None:
        payload["d"] = auth_token.digest[:_DIGEST_PREFIX]
    return signing.dumps(payload, salt=STREAM_TOKEN_SALT, compress=True)


class StreamTokenAuthentication(BaseAuthentication):
    """``?token=<stream token>`` (from ``POST /api/v1/me/stream-token/``), on the stream endpoints only.

    Returns ``None`` when the query has no ``token``; raises ``AuthenticationFailed`` (401) for a token that is
    malformed, forged, older than ``STREAM_TOKEN_MAX_AGE`` seconds, or whose API token was revoked.
    """

    def authenticate(self, request: Any) -> tuple[Any, None] | None:
        raw = request.query_params.get("token")
        if not raw:
            return None
        try:
            payload = signing.loads(raw, salt=STREAM_TOKEN_SALT, max_age=STREAM_TOKEN_MAX_AGE)
        except signing.SignatureExpired as error:
            raise exceptions.AuthenticationFailed("Stream token expired: ask for a new one.") from error
        except signing.BadSignature as error:
            raise exceptions.AuthenticationFailed("Invalid stream token.") from error
        user = get_user_model().objects.filter(pk=payload.get("u"), is_active=True).first()
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid stream token.")
        prefix = payload.get("d")
        if prefix is not None and not get_token_model().objects.filter(user=user, digest__startswith=prefix).exists():
            raise exceptions.AuthenticationFailed("The API token behind this stream token was revoked.")
        return user, None

    def authenticate_header(self, request: Any) -> str:
        return "Token"


class StreamTokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of ``StreamTokenAuthentication``: an API key in the query's ``token``."""

    target_class = "players.auth.StreamTokenAuthentication"
    name = "streamToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "query", "name": "token"}
