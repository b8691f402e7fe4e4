"""Token authentication: knox's, with a cheaper clean-up."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

SCHEMES = (b"token", b"bearer")
"""``Authorization`` schemes that carry a token, compared without case: knox's ``Token`` and the ``Bearer``
that HTTP clients and generated clients send by default."""


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's token check for ``Authorization: Token <token>`` or ``Authorization: Bearer <token>``, without
    knox's sweep of the user's other tokens.

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

    def _cleanup_token(self, auth_token: Any) -> bool:
        """Whether the presented token has expired (then deleted). knox reads every token of the user on each
        request to delete the expired ones; player tokens never expire, and an expired staff token is refused
        (and deleted) here when presented, so that sweep only cost a query per request."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


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
