"""Shared test fixtures. pytest-django reads DJANGO_SETTINGS_MODULE from pyproject.toml.

Sections: the OpenAPI schema; the cache and HTTP clients; players and tokens; throttling. Add a section per area
below them.

    def test_something(api_client, auth_client, make_player):
        alice, alice_token = make_player("alice")
        response = auth_client(alice_token).get("/api/v1/me/")

None of these is autouse: the engine's Hypothesis tests should not pay for them (and Hypothesis refuses
function-scoped fixtures around @given tests).
"""

from __future__ import annotations

import atexit
import itertools
import json
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from players.services import player_register, staff_token_create
from players.token_cache import TOKENS
from tests.broker import drop_queue


def pytest_configure(config: pytest.Config) -> None:
    """The test process's settings (servers that tests start in their own processes keep the product's, so what
    the fault tests check is the shipped behaviour):

    - on PostgreSQL its connections commit without waiting for the WAL to reach the disk
      (``synchronous_commit=off``): a commit costs about 0.1 ms instead of 4 on CI's disk, and a test never outlives
      a server crash, the one case where it matters;
    - a fast password hasher: Django's default (PBKDF2, a million rounds by design) took 0.8 s a hash on this 2-core
      machine, and every staff account, sign-up and password check in the suite paid it (Django's testing docs
      advise the same). No test measures the hasher;
    - WhiteNoise looks a static file up when it is asked for (``WHITENOISE_AUTOREFRESH``, as in development)
      instead of listing every static file of the apps when its middleware is made: Django makes the middlewares
      once per handler, a server's process once, but a test client once per client, and the listing (about 17 ms)
      came to a tenth of the API tests' time. The served files and headers are the same;
      ``tests/palace_api/test_both_modes.py`` checks the shipped lookup as well.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("postgresql"):
        options = database.setdefault("OPTIONS", {})
        options["options"] = f"{options.get('options', '')} -c synchronous_commit=off".strip()
    elif database["ENGINE"] == "django.db.backends.sqlite3":
        _sqlite_test_database_in_a_file(database)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.WHITENOISE_AUTOREFRESH = True


def _sqlite_test_database_in_a_file(database: dict[str, Any]) -> None:
    """On SQLite (the embedded default) the test database is a file in a private temporary folder, as the product's
    is, not Django's in-memory default: that one is a shared cache, where a thread (the live server's, a worker's)
    reading a table that another thread is writing fails at once with "database table is locked" instead of
    waiting out the busy timeout as the product's file does (it failed a browser test and a worker test on a slow
    machine). pytest-django names each xdist worker's file apart; the folder goes when the process ends. Commits
    skip the disk sync, as PostgreSQL's do above."""
    folder = Path(tempfile.mkdtemp(prefix="palace-test-db-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
    options = database.setdefault("OPTIONS", {})
    options["init_command"] = f"{options.get('init_command', '')};PRAGMA synchronous=OFF;"


# --- the OpenAPI schema ---


@pytest.fixture(scope="session")
def openapi_text(tmp_path_factory) -> str:
    """The OpenAPI schema as JSON text, made once per test process by ``manage.py spectacular --validate
    --fail-on-warn`` (valid OpenAPI, and not one warning from drf-spectacular). Generating it takes a second;
    ``/api/schema/`` serves the same document (tests/test_project.py).

    The command would also find the source line of every view and serializer for its warnings (Python's
    ``inspect.getsourcelines`` parses each one's whole module again: 14 s of a process's CPU here, against 1 s for
    the rest); the test asks it for the files only, so a warning names its file and, run by hand, the command
    gives the line."""
    path = tmp_path_factory.mktemp("openapi") / "schema.json"
    with mock.patch.object(GENERATOR_STATS, "enable_trace_lineno"):
        call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", str(path))
    return path.read_text()


@pytest.fixture
def openapi(openapi_text) -> dict[str, Any]:
    """The OpenAPI schema (``openapi_text``), a copy of its own for each test to read or change."""
    return json.loads(openapi_text)


# --- the cache and HTTP clients ---


@pytest.fixture
def isolated_cache(settings) -> Iterator[None]:
    """A fresh in-memory default cache for this test alone.

    Throttle counters live in the cache: this keeps them from leaking between tests, and keeps tests away from
    a shared cache (CACHE_URL=redis://...) that parallel workers would otherwise share and clear.
    """
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"palace-test-{uuid.uuid4().hex}",
        }
    }
    yield
    cache.clear()
    TOKENS.clear()  # the per-process memory of checked tokens (players/token_cache.py)


@pytest.fixture
def api_client(isolated_cache) -> APIClient:
    """An anonymous DRF test client (JSON by default: TEST_REQUEST_DEFAULT_FORMAT)."""
    return APIClient()


@pytest.fixture
def auth_client(isolated_cache) -> Callable[[str], APIClient]:
    """``auth_client(token)``: a new client that sends ``Authorization: Token <token>`` on every request."""

    def make(token: str) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        return client

    return make


# --- players and tokens ---

STAFF_PASSWORD = "staff-password-for-tests"  # noqa: S105  (a test account's password)


@pytest.fixture
def make_player(db) -> Callable[..., tuple[User, str]]:
    """``make_player(name=None) -> (user, clear token)``: a registered human player (player1, player2, ...).

    Goes through players.services.player_register, so no HTTP round trip and no register throttle.
    """
    numbers = itertools.count(1)

    def make(name: str | None = None) -> tuple[User, str]:
        return player_register(name=name or f"player{next(numbers)}")

    return make


@pytest.fixture
def make_staff(db) -> Callable[..., tuple[User, str]]:
    """``make_staff(name="staff", password=STAFF_PASSWORD) -> (user, clear token)``: a staff user and a token."""

    def make(name: str = "staff", password: str = STAFF_PASSWORD) -> tuple[User, str]:
        user = get_user_model().objects.create_user(username=name, password=password, is_staff=True)
        _, token = staff_token_create(username=name, password=password)
        return user, token

    return make


# --- throttling ---


@pytest.fixture
def throttle_rates(settings, monkeypatch, isolated_cache) -> Callable[..., None]:
    """``throttle_rates(register="2/min", user=None, ...)``: rates of DRF throttle scopes for this test.

    DRF reads DEFAULT_THROTTLE_RATES into ``SimpleRateThrottle.THROTTLE_RATES`` once, at import, so overriding
    the setting alone changes nothing: this patches both (undone after the test). ``None`` turns a scope off.
    """

    def set_rates(**rates: str | None) -> None:
        merged = {**SimpleRateThrottle.THROTTLE_RATES, **rates}
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": merged}
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", merged)

    return set_rates


# --- Celery ---


@pytest.fixture(autouse=True, scope="session")
def celery_test_queue() -> Iterator[None]:
    """Tasks that tests queue (on commit, in transactional tests) go to a throwaway queue of this session,
    never to the queue a real worker on this machine consumes; worker tests consume queues of their own."""
    from django.conf import settings

    from palace_api.celery import app

    previous = app.conf.task_default_queue, settings.WEBHOOK_DELIVERY_QUEUE, settings.SLOW_TASK_QUEUE
    queue = f"palace-test-{uuid.uuid4().hex[:12]}"
    app.conf.task_default_queue = queue
    # Deliveries, search moves and reviews too: a test's worker consumes its queue alone.
    settings.WEBHOOK_DELIVERY_QUEUE = settings.SLOW_TASK_QUEUE = ""
    yield
    app.conf.task_default_queue, settings.WEBHOOK_DELIVERY_QUEUE, settings.SLOW_TASK_QUEUE = previous
    drop_queue(queue)


@pytest.fixture
def worker() -> Iterator[None]:
    """A Celery worker thread (solo pool) on the configured broker, consuming a queue that only this test sends to.

    The worker thread's database connections are closed after each task: they belong to that thread, so nothing
    else would close them, and an open one keeps PostgreSQL from dropping the test database.
    """
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.db import connections

    from palace_api.celery import app

    queue = f"palace-test-{uuid.uuid4().hex[:12]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue

    def close_connections(**kwargs: object) -> None:
        connections.close_all()

    task_postrun.connect(close_connections, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=30):
            yield
    finally:
        task_postrun.disconnect(close_connections)
        app.conf.task_default_queue = previous
        drop_queue(queue)
