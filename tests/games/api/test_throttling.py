"""Throttle rates and the cache they count in: read from the environment (README, "Throttling")."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from rest_framework.settings import api_settings
from rest_framework.throttling import UserRateThrottle

from palace_api.env import make_env, read_cache, read_num_proxies, read_throttle_rates

DEFAULT_RATES = {"anon": "60/min", "user": "1200/min", "register": "20/hour", "login": "20/hour", "export": "120/hour"}


# --- read from a made-up environment ---


def test_throttle_rates_have_defaults_for_every_scope() -> None:
    assert read_throttle_rates(make_env({})) == DEFAULT_RATES


def test_each_throttle_rate_comes_from_its_variable_and_none_turns_it_off() -> None:
    env = make_env({"THROTTLE_USER": "2000/min", "THROTTLE_REGISTER": "5/day", "THROTTLE_ANON": "none"})
    assert read_throttle_rates(env) == {**DEFAULT_RATES, "user": "2000/min", "register": "5/day", "anon": None}


def test_an_empty_variable_means_the_default_rate() -> None:
    assert read_throttle_rates(make_env({"THROTTLE_LOGIN": ""}))["login"] == "20/hour"


@pytest.mark.parametrize("rate", ["100", "100/fortnight", "ten/min", "100/ min", "-1/min", "5/m/"])
def test_a_malformed_rate_stops_the_settings_from_loading(rate: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="THROTTLE_USER"):
        read_throttle_rates(make_env({"THROTTLE_USER": rate}))


@pytest.mark.parametrize(
    ("rate", "parsed"),
    [
        ("1/s", (1, 1)),
        ("3/sec", (3, 1)),
        ("10/m", (10, 60)),
        ("10/minute", (10, 60)),
        ("5/h", (5, 3600)),
        ("50/day", (50, 86400)),
    ],
)
def test_every_accepted_rate_parses_as_drf_reads_it(rate: str, parsed: tuple[int, int]) -> None:
    read = read_throttle_rates(make_env({"THROTTLE_USER": rate}))["user"]
    assert UserRateThrottle().parse_rate(read) == parsed


def test_cache_defaults_to_the_per_process_memory_cache() -> None:
    assert read_cache(make_env({}))["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert read_cache(make_env({"CACHE_URL": ""}))["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_cache_url_names_redis() -> None:
    cache = read_cache(make_env({"CACHE_URL": "redis://127.0.0.1:6379/1"}))
    # Django's backend with one Redis client per process (palace_api/cache.py).
    assert cache == {"BACKEND": "palace_api.cache.RedisCache", "LOCATION": "redis://127.0.0.1:6379/1", "KEY_PREFIX": ""}


def test_cache_key_prefix_begins_every_key() -> None:
    """Two installations on one Redis database: CACHE_KEY_PREFIX keeps their games' keys apart."""
    cache = read_cache(make_env({"CACHE_URL": "redis://127.0.0.1:6379/1", "CACHE_KEY_PREFIX": "staging"}))
    assert cache["KEY_PREFIX"] == "staging"


def test_num_proxies_defaults_to_zero_so_x_forwarded_for_is_not_trusted() -> None:
    assert read_num_proxies(make_env({})) == 0
    assert read_num_proxies(make_env({"NUM_PROXIES": "1"})) == 1
    with pytest.raises(ImproperlyConfigured):
        read_num_proxies(make_env({"NUM_PROXIES": "-1"}))


# --- the live settings ---


def test_live_settings_use_knox_tokens_first_then_sessions_and_the_one_exception_handler() -> None:
    rest = settings.REST_FRAMEWORK
    assert rest["DEFAULT_AUTHENTICATION_CLASSES"] == [
        "players.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ]
    assert rest["DEFAULT_PERMISSION_CLASSES"] == ["rest_framework.permissions.IsAuthenticated"]
    assert rest["EXCEPTION_HANDLER"] == "palace_api.errors.exception_handler"
    assert set(rest["DEFAULT_THROTTLE_RATES"]) == set(DEFAULT_RATES)


def test_live_cache_round_trips_a_value() -> None:
    """Whatever CACHE_URL names (memory, Redis) is reachable and stores values."""
    cache = caches["default"]
    key = f"palace-test-{uuid.uuid4().hex}"
    try:
        cache.set(key, {"probe": 1}, timeout=30)
        assert cache.get(key) == {"probe": 1}
    finally:
        cache.delete(key)


def test_throttle_rates_fixture_reaches_throttles_drf_already_imported(throttle_rates) -> None:
    """Given DRF read the rates at import, when the fixture sets one, then a new throttle sees it."""
    throttle_rates(user="7/min")
    assert UserRateThrottle().num_requests == 7
    assert api_settings.DEFAULT_THROTTLE_RATES["user"] == "7/min"
