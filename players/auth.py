"""Token authentication: knox's, with a cheaper clean-up."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication


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
