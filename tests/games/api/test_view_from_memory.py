"""The game view answered from the process's memory of its own last commit (games/selectors/state.py,
``game_as_committed``; issue 24): no query, the same body as a read of the database, and the database read
whenever the memory cannot vouch for the version the game's token names.

Run against the suite's Redis (``CELERY_BROKER_URL``; ``.ci/run`` sets one): the memory is used only with the
project's Redis cache, whose renewal says whether its version was the newest.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.utils import timezone
from rest_framework.test import APIClient

from games.api import rendered
from games.models import Game
from games.selectors import state
from games.selectors.versions import game_key
from games.services.turns import timeout_apply
from palace_api.cache import RedisCache
from tests.games.api.table import Table, create_table

pytestmark = pytest.mark.django_db

HEADS_UP = {"betting": "limit", "small_bet": 5, "big_bet": 10, "first_dealer": 1}


@pytest.fixture
def redis_versions(settings, isolated_cache):
    """The view versions in the project's Redis cache on the suite's Redis, under a prefix of this test's own; no
    live streams (nothing to announce to)."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith("redis://"):
        pytest.skip("the view from memory needs Redis: set CELERY_BROKER_URL to a Redis server (.ci/run does)")
    prefix = f"palace-test-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {"default": {"BACKEND": "palace_api.cache.RedisCache", "LOCATION": url, "KEY_PREFIX": prefix}}
    settings.VIEW_VERSIONS_CACHE = "default"
    settings.STREAMS_REDIS_URL = None
    state.forget_states()
    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    yield cache
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)
    state.forget_states()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture
def clients(make_player):
    """alice and bob, signed in without the token's query (the authentication path's cost is not the view's)."""
    out = []
    for name in ("alice", "bob"):
        client = APIClient()
        client.force_authenticate(make_player(name)[0])
        out.append(client)
    return out


def table_of(clients, capture, options=None) -> Table:
    """alice (seat 0) and bob (seat 1) heads-up, alice to act; bob has read the game once."""
    with capture(execute=True):
        table = create_table(clients[0], clients, options={**HEADS_UP, **(options or {})})
    table.view(1)
    return table


def fresh_body(client: APIClient, table: Table) -> dict:
    """The view as a process that remembers nothing renders it from the database."""
    state.forget_states()
    rendered._bodies.clear()
    answer = client.get(table.url())
    assert answer.status_code == 200
    return json.loads(answer.content)


def test_after_an_action_the_next_view_reads_nothing_and_is_the_databases(
    redis_versions, clients, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """Given bob read the game, when alice acts in this process, then bob's next view runs no query and is, byte
    for byte, what a process that remembers nothing reads from the database: bob to act, at the new version."""
    table = table_of(clients, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    with django_assert_num_queries(0):
        answer = clients[1].get(table.url())
    assert answer.status_code == 200
    body = json.loads(answer.content)
    assert body["version"] == table.version and body["to_act"] == [1] and body["legal_actions"]
    assert body == fresh_body(clients[1], table)


def test_a_token_this_process_did_not_write_reads_the_database(
    redis_versions, clients, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """Given alice acted in this process, when the game's token is another (another process's commit renewed it),
    then bob's view reads the database."""
    table = table_of(clients, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    redis_versions.set(game_key(table.game_id), "another-process", timeout=60)
    with django_assert_num_queries(1):
        assert clients[1].get(table.url()).status_code == 200


def test_a_commit_whose_renewal_was_lost_is_read_from_the_database(
    redis_versions, clients, django_capture_on_commit_callbacks, monkeypatch
):
    """Given alice's action renewed the token and bob then acted in this process with Redis failing his renewal
    (the token still names alice's commit), when alice reads the game, then she sees bob's action, not the version
    the token names: this process's memory has moved past it."""
    table = table_of(clients, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    token = redis_versions.get(game_key(table.game_id))

    def fail(*args, **kwargs):
        raise ConnectionError("gone")

    monkeypatch.setattr(RedisCache, "set_newer", fail)
    table.view(1)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(1, "stay")
    monkeypatch.undo()
    assert redis_versions.get(game_key(table.game_id)) == token
    body = clients[0].get(table.url()).json()
    assert body["version"] == table.version


def test_the_memory_is_trusted_for_a_few_seconds_only(
    redis_versions, clients, django_capture_on_commit_callbacks, django_assert_num_queries, monkeypatch
):
    """Given alice acted in this process, when more than ``SERVE_SECONDS`` have passed since its renewal (a later
    commit elsewhere could have lost its own), then bob's view reads the database."""
    table = table_of(clients, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    later = state.time.monotonic() + state.SERVE_SECONDS + 1
    monkeypatch.setattr(state.time, "monotonic", lambda: later)
    with django_assert_num_queries(1):
        assert clients[1].get(table.url()).status_code == 200


def test_a_renewal_that_took_long_to_land_is_not_trusted(
    redis_versions, clients, django_capture_on_commit_callbacks, django_assert_num_queries, monkeypatch
):
    """Given the renewal after alice's action took more than ``SERVE_SECONDS`` to reach Redis (time enough for the
    game's version to be lost there and a later commit's renewal to come first), when bob reads the game, then his
    view reads the database: the seconds count from when the renewal was sent."""
    table = table_of(clients, django_capture_on_commit_callbacks)
    clock = [state.time.monotonic()]
    monkeypatch.setattr(state.time, "monotonic", lambda: clock[0])
    set_newer = RedisCache.set_newer

    def slow(self, *args, **kwargs):
        clock[0] += state.SERVE_SECONDS + 1
        return set_newer(self, *args, **kwargs)

    monkeypatch.setattr(RedisCache, "set_newer", slow)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    with django_assert_num_queries(1):
        assert clients[1].get(table.url()).status_code == 200


def test_a_seat_handed_to_a_bot_is_read_from_the_database(redis_versions, clients, django_capture_on_commit_callbacks):
    """Given bob read the game with alice seated, when alice's deadline passes and her seat goes to the bot (a
    commit of this process), then bob's view shows the bot in seat 0: the seats he read before are not reused."""
    absent = {"turn_timeout": 600, "max_timeouts": 1, "on_absent": "bot"}
    table = table_of(clients, django_capture_on_commit_callbacks, options=absent)
    Game.objects.filter(pk=table.game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert timeout_apply(game_id=table.game_id)
    seats = clients[1].get(table.url()).json()["seats"]
    assert seats[0]["bot"] == "basic"
    assert seats == fresh_body(clients[1], table)["seats"]
