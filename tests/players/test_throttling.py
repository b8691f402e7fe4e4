"""Throttles of the players API: register and login per address, user per account, anon (README, "Throttling")."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from palace_api.env import make_env, read_throttle_rates
from tests.games.api.helpers import assert_error

pytestmark = pytest.mark.django_db

User = get_user_model()
BOSS_PASSWORD = "pw-boss-1"  # noqa: S105  (a test account)

REGISTER = "/api/v1/players/"
TOKEN = "/api/v1/auth/token/"  # noqa: S105  (a path)
ME = "/api/v1/me/"


def test_registration_is_throttled_per_address_with_retry_after(api_client, throttle_rates) -> None:
    throttle_rates(register="2/hour")
    assert api_client.post(REGISTER, {"name": "p1"}).status_code == 201
    assert api_client.post(REGISTER, {"name": "p2"}).status_code == 201

    response = api_client.post(REGISTER, {"name": "p3"})

    body = assert_error(response, 429, "throttled")
    retry_after = int(response["Retry-After"])
    assert 3500 <= retry_after <= 3600
    assert body["retry_after"] == retry_after
    assert not User.objects.filter(username="p3").exists()


def test_a_made_up_forwarded_for_header_does_not_dodge_the_register_throttle(
    api_client, throttle_rates, settings
) -> None:
    """With NUM_PROXIES 0 (the default, palace_api/env.py) the socket address counts, not X-Forwarded-For."""
    throttle_rates(register="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    assert api_client.post(REGISTER, {"name": "p1"}, HTTP_X_FORWARDED_FOR="10.0.0.1").status_code == 201
    response = api_client.post(REGISTER, {"name": "p2"}, HTTP_X_FORWARDED_FOR="10.0.0.2")
    assert_error(response, 429, "throttled")


def test_another_address_has_its_own_register_allowance(api_client, throttle_rates) -> None:
    throttle_rates(register="1/min")
    assert api_client.post(REGISTER, {"name": "p1"}, REMOTE_ADDR="10.0.0.1").status_code == 201
    assert api_client.post(REGISTER, {"name": "p2"}, REMOTE_ADDR="10.0.0.2").status_code == 201
    assert_error(api_client.post(REGISTER, {"name": "p3"}, REMOTE_ADDR="10.0.0.1"), 429, "throttled")


def test_staff_login_is_throttled(api_client, make_staff, throttle_rates) -> None:
    throttle_rates(login="2/min")
    make_staff("boss", password=BOSS_PASSWORD)
    for _ in range(2):
        assert_error(api_client.post(TOKEN, {"username": "boss", "password": "guess"}), 400, "invalid_credentials")
    response = api_client.post(TOKEN, {"username": "boss", "password": BOSS_PASSWORD})
    assert_error(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 60


def test_user_throttle_counts_each_user_apart(auth_client, make_player, throttle_rates) -> None:
    throttle_rates(user="2/min")
    _, alice = make_player("alice")
    _, bob = make_player("bob")
    alice_client = auth_client(alice)
    assert [alice_client.get(ME).status_code for _ in range(3)] == [200, 200, 429]
    assert auth_client(bob).get(ME).status_code == 200


def test_anonymous_requests_are_throttled_by_the_anon_scope(api_client, throttle_rates) -> None:
    throttle_rates(anon="1/min")
    assert api_client.get(ME).status_code == 401
    assert_error(api_client.get(ME), 401, "not_authenticated")  # authentication is checked before throttles
    assert api_client.get("/api/schema/", HTTP_ACCEPT="application/json").status_code == 200
    assert_error(api_client.get("/api/schema/", HTTP_ACCEPT="application/json"), 429, "throttled")


def test_throttle_rates_fixture_leaves_no_trace() -> None:
    """Whatever ran before in this process, the rates DRF uses are again those of the settings."""
    configured = read_throttle_rates(make_env())
    assert SimpleRateThrottle.THROTTLE_RATES == configured
    assert api_settings.DEFAULT_THROTTLE_RATES == configured
