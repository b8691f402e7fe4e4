"""Fixtures of the browser pages' tests: people who sign up through the pages, logged-in Django test clients."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from django.test import Client

PASSWORD = "a long test password 42"  # noqa: S105  (test accounts' password)


@pytest.fixture
def web_client(db, isolated_cache) -> Callable[..., Client]:
    """``web_client(name=None) -> Client``: someone who signed up through /signup/ and is logged in, with CSRF
    checks on as in a browser."""
    numbers = itertools.count(1)

    def make(name: str | None = None) -> Client:
        client = Client(enforce_csrf_checks=True)
        client.get("/signup/")
        name = name or f"person{next(numbers)}"
        response = client.post(
            "/signup/",
            {"name": name, "password": PASSWORD, "password_again": PASSWORD, "csrfmiddlewaretoken": csrf(client)},
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        client.get("/")
        return client

    return make


def csrf(client: Client) -> str:
    """The CSRF token a page set in the client's cookie (what a form sends back)."""
    return client.cookies["csrftoken"].value
