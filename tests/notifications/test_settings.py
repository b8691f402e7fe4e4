"""EMAIL_URL, read by palace_api/env.py with django-environ."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from palace_api.env import make_env, read_email


def test_the_console_backend_when_email_url_is_unset_or_empty() -> None:
    for environ_map in ({}, {"EMAIL_URL": ""}):
        assert read_email(make_env(environ_map)) == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


def test_smtp_with_starttls_user_and_password() -> None:
    config = read_email(make_env({"EMAIL_URL": "smtp+tls://mailer:p%40ss@smtp.example.com:587"}))
    assert config == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "p@ss",
        "EMAIL_USE_TLS": True,
    }


def test_smtp_over_tls_from_the_first_byte() -> None:
    config = read_email(make_env({"EMAIL_URL": "smtp+ssl://smtp.example.com:465"}))
    assert config["EMAIL_USE_SSL"] is True and "EMAIL_USE_TLS" not in config


def test_an_unknown_scheme_stops_the_settings() -> None:
    with pytest.raises(ImproperlyConfigured):
        read_email(make_env({"EMAIL_URL": "carrier-pigeon://loft"}))
