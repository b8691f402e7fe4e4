"""Fixtures of the admin tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_password_hasher(settings) -> None:
    """Staff accounts have passwords; the default hasher takes over a second per hash, which these tests never need."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
