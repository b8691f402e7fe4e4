"""Revocation within the stated bound (README, "Accounts and tokens"; ``players/token_cache.py``): each web process
remembers a checked token for ``AUTH_TOKEN_CACHE_SECONDS``; a token revoked in the same process is refused at
once, one revoked through another process (here: the row deleted or the user deactivated behind Django's back, as
another process's write looks to this one) within the bound. The clock is the memory's own, moved by the test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken

from players.token_cache import TOKENS

BOUND = 5.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(settings) -> Iterator[Clock]:
    settings.AUTH_TOKEN_CACHE_SECONDS = BOUND
    fake = Clock()
    real = TOKENS.clock
    TOKENS.clock = fake
    TOKENS.clear()
    yield fake
    TOKENS.clock = real
    TOKENS.clear()


def behind_djangos_back(sql: str, *params: object) -> None:
    """A write as another process's looks to this one: no model signal runs here."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db
def test_a_logged_out_token_is_refused_at_once(clock, make_player, auth_client) -> None:
    """Given a token this process checked (and remembers), when it is logged out here, then the next request with
    it is refused, with no time passing."""
    _, token = make_player()
    client = auth_client(token)
    assert client.get("/api/v1/me/").status_code == 200
    assert client.post("/api/v1/auth/logout/").status_code == 204
    assert client.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_a_token_revoked_by_another_process_is_refused_within_the_bound(clock, make_player, auth_client) -> None:
    """Given a remembered token, when another process deletes it, then this process may still accept it for less
    than ``AUTH_TOKEN_CACHE_SECONDS`` after it last checked it (without a query), and refuses it from then on."""
    user, token = make_player()
    client = auth_client(token)
    assert client.get("/api/v1/me/").status_code == 200
    behind_djangos_back(f"DELETE FROM {AuthToken._meta.db_table} WHERE user_id = %s", user.pk)  # noqa: S608
    clock.now += BOUND - 0.01
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/me/").status_code == 200, "remembered within the bound"
    assert not [query for query in queries if AuthToken._meta.db_table in query["sql"]], "no token query"
    clock.now += 0.01
    assert client.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_a_user_deactivated_by_another_process_is_refused_within_the_bound(clock, make_player, auth_client) -> None:
    user, token = make_player()
    client = auth_client(token)
    assert client.get("/api/v1/me/").status_code == 200
    behind_djangos_back("UPDATE auth_user SET is_active = false WHERE id = %s", user.pk)
    clock.now += BOUND
    assert client.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_a_user_deactivated_in_this_process_is_refused_at_once(clock, make_player, auth_client) -> None:
    user, token = make_player()
    client = auth_client(token)
    assert client.get("/api/v1/me/").status_code == 200
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert client.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_no_memory_when_the_bound_is_zero(clock, settings, make_player, auth_client) -> None:
    """``AUTH_TOKEN_CACHE_SECONDS=0``: every request checks its token in the database."""
    settings.AUTH_TOKEN_CACHE_SECONDS = 0
    user, token = make_player()
    client = auth_client(token)
    assert client.get("/api/v1/me/").status_code == 200
    behind_djangos_back(f"DELETE FROM {AuthToken._meta.db_table} WHERE user_id = %s", user.pk)  # noqa: S608
    assert client.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_each_request_gets_its_own_copy_of_the_user(clock, make_player) -> None:
    """A request that changes its ``request.user`` changes no other request's."""
    from players.auth import TokenAuthentication

    _, token = make_player()
    check = TokenAuthentication()
    first, _ = check.authenticate_credentials(token.encode())
    first.first_name = "changed by one request"
    second, second_token = check.authenticate_credentials(token.encode())
    assert second.first_name == ""
    assert second is not first and second_token.user is second
