"""Throttles of the open endpoints, counted per client address whoever is logged in.

Rates are the ``register`` and ``login`` scopes of REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (THROTTLE_REGISTER,
THROTTLE_LOGIN); the address is the socket's unless NUM_PROXIES trusts X-Forwarded-For.
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class ClientAddressRateThrottle(SimpleRateThrottle):
    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RegisterRateThrottle(ClientAddressRateThrottle):
    scope = "register"


class LoginRateThrottle(ClientAddressRateThrottle):
    scope = "login"
