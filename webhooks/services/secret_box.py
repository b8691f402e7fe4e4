"""Webhook signing secrets encrypted at rest: Fernet (AES-128-CBC with HMAC-SHA256) from ``cryptography``.

Each entry of ``settings.WEBHOOK_SECRET_KEYS`` is any string (at least 32 random characters advised); it is
turned into a Fernet key by HKDF-SHA256, so a passphrase and a generated key serve alike. A secret is encrypted
with the first entry and decrypted with whichever matches (``MultiFernet``), so keys rotate without downtime:
put the new key first, run ``manage.py rotate_webhook_secrets`` (``secrets_rotate``), then drop the old one.
Unset, the keys are derived from ``SECRET_KEY`` and ``SECRET_KEY_FALLBACKS``, which suits local runs; set them
in production, so that changing SECRET_KEY never makes the secrets unreadable.
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import transaction

from palace_api.errors import ApplicationError
from webhooks.models import Endpoint

HKDF_INFO = b"palace-api webhook signing secrets"
SECRET_UNREADABLE = "webhook_secret_unreadable"  # noqa: S105  (an error code, not a secret)
ROTATE_BATCH = 500


def _keys() -> tuple[str, ...]:
    keys = tuple(settings.WEBHOOK_SECRET_KEYS)
    if keys:
        return keys
    return (settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ()))


@lru_cache(maxsize=8)
def _box(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(_fernet_key(key)) for key in keys])


def _fernet_key(key: str) -> bytes:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=HKDF_INFO).derive(key.encode())
    return base64.urlsafe_b64encode(derived)


def seal(secret: str) -> str:
    """``secret`` encrypted with the first key: a Fernet token (URL-safe base64 text, about 140 characters for
    a ``whsec_`` secret), different on every call."""
    return _box(_keys()).encrypt(secret.encode()).decode("ascii")


def unseal(sealed: str) -> str:
    """The secret ``seal`` encrypted. Raises ``ApplicationError("webhook_secret_unreadable")`` when no key of
    ``WEBHOOK_SECRET_KEYS`` opens it (the key it was sealed with was dropped before a rotation)."""
    try:
        return _box(_keys()).decrypt(sealed.encode()).decode()
    except (InvalidToken, ValueError) as error:
        raise ApplicationError(
            SECRET_UNREADABLE, "the signing secret cannot be decrypted with any of WEBHOOK_SECRET_KEYS"
        ) from error


def secrets_rotate() -> int:
    """Encrypt every endpoint's secret again with the first key (``MultiFernet.rotate``). Returns how many were
    rewritten. Raises ``ApplicationError("webhook_secret_unreadable")``, changing nothing, if a key is missing."""
    box = _box(_keys())
    rotated = 0
    with transaction.atomic():
        for endpoint in Endpoint.objects.select_for_update().only("pk", "sealed_secret").iterator(ROTATE_BATCH):
            try:
                sealed = box.rotate(endpoint.sealed_secret.encode()).decode("ascii")
            except InvalidToken as error:
                raise ApplicationError(
                    SECRET_UNREADABLE, f"the secret of webhook {endpoint.pk} opens with none of WEBHOOK_SECRET_KEYS"
                ) from error
            Endpoint.objects.filter(pk=endpoint.pk).update(sealed_secret=sealed)
            rotated += 1
    return rotated
