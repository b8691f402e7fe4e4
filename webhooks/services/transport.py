"""One signed HTTP POST of a webhook message: Standard Webhooks headers, a timeout, no redirects.

Runs outside any database transaction: the caller records the ``Outcome`` afterwards.
"""

from __future__ import annotations

import ssl
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

import certifi
import httpx
from django.conf import settings
from standardwebhooks.webhooks import Webhook

from outbox.channels import elapsed_ms
from palace_api.errors import ApplicationError
from webhooks.services.url_guard import check_url

USER_AGENT = "PalaceAPI-Webhooks/1"
MAX_ERROR = 300


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one attempt got: ``status_code`` (``None``: no HTTP answer), ``duration_ms``, ``error`` text."""

    status_code: int | None
    duration_ms: int
    error: str = ""

    @property
    def succeeded(self) -> bool:
        """A 2xx answer; anything else, redirects included, is a failure to be retried."""
        return self.status_code is not None and 200 <= self.status_code < 300


def signed_headers(*, secret: str, msg_id: str, body: str, now: datetime | None = None) -> dict[str, str]:
    """``webhook-id``, ``webhook-timestamp`` (Unix seconds) and ``webhook-signature`` (``v1,<base64>``) for
    ``body`` (the exact text sent), signed with ``secret`` (``whsec_...``) per Standard Webhooks."""
    when = now or datetime.now(tz=UTC)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(when.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id, when, body),
    }


@cache
def _tls_context() -> ssl.SSLContext:
    """One verifying TLS context for every attempt: building one loads the CA bundle, which costs far more CPU
    than a delivery to a receiver that answers at once (an SSLContext is safe to share between threads)."""
    # certifi's bundle, as httpx uses by default.
    return ssl.create_default_context(cafile=certifi.where())


def post_signed(*, url: str, secret: str, msg_id: str, body: str) -> Outcome:
    """POST ``body`` to ``url``, signed; never raises.

    The URL is checked again (``url_guard.check_url``) and the request connects to the address checked. Each of
    connect, write and read waits at most ``settings.WEBHOOK_TIMEOUT`` seconds; the answer's body is not read.
    """
    started = time.monotonic()
    try:
        target = check_url(url)
    except ApplicationError as error:
        return Outcome(status_code=None, duration_ms=0, error=f"{error.code}: {error.detail}"[:MAX_ERROR])
    headers = {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "host": target.host_header,
        **signed_headers(secret=secret, msg_id=msg_id, body=body),
    }
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    auth = (target.username or "", target.password or "") if target.username else None
    try:
        with httpx.Client(
            timeout=httpx.Timeout(settings.WEBHOOK_TIMEOUT),
            follow_redirects=False,
            trust_env=False,
            verify=_tls_context(),
        ) as client:
            with client.stream(
                "POST", target.pinned_url, content=body.encode(), headers=headers, extensions=extensions, auth=auth
            ) as response:
                status_code = response.status_code
    except httpx.TimeoutException:
        return Outcome(None, elapsed_ms(started), f"timeout: no answer within {settings.WEBHOOK_TIMEOUT:g} s")
    except httpx.HTTPError as error:
        return Outcome(None, elapsed_ms(started), f"{type(error).__name__}: {error}"[:MAX_ERROR])
    error = "" if 200 <= status_code < 300 else f"HTTP {status_code}"
    if 300 <= status_code < 400:
        error = f"HTTP {status_code}: redirects are not followed"
    return Outcome(status_code, elapsed_ms(started), error)
