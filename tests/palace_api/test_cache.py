"""The Redis cache backend shares one client per process (palace_api/cache.py): Django's made one per cache object,
so one per thread and per ASGI request, each opening its own connection to Redis."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

from palace_api.cache import RedisCache


@pytest.fixture
def location() -> str:
    broker = settings.CELERY_BROKER_URL
    if not broker.startswith("redis://"):
        pytest.skip("the cache backend needs Redis: set CELERY_BROKER_URL to a Redis server (.ci/run does)")
    return broker


def _in_threads(backend: type, location: str, prefix: str, count: int = 4) -> list:
    """``count`` cache objects, each made and used in a thread of its own, as Django makes them."""
    made: list = []

    def use(n: int) -> None:
        cache = backend(location, {"KEY_PREFIX": prefix})
        cache.set(f"k{n}", n, timeout=30)
        assert cache.get(f"k{n}") == n
        made.append(cache)

    for n in range(count):
        thread = threading.Thread(target=use, args=(n,))
        thread.start()
        thread.join()
    return made


def _connections(cache) -> int:
    pools = cache._cache._pools.values()
    return sum(len(pool._available_connections) + len(pool._in_use_connections) for pool in pools)


def test_cache_objects_of_one_process_share_one_client_and_one_connection(location):
    prefix = f"palace-test-{uuid.uuid4().hex[:12]}"
    caches = _in_threads(RedisCache, location, prefix)
    assert len({id(cache._cache) for cache in caches}) == 1
    assert _connections(caches[0]) == 1  # used one after the other: one connection served them all
    assert caches[0]._cache.get_client() is caches[-1]._cache.get_client()
    assert [caches[-1].get(f"k{n}") for n in range(4)] == [0, 1, 2, 3]
    caches[0].delete_many([f"k{n}" for n in range(4)])


def test_djangos_own_backend_opens_a_connection_per_cache_object(location):
    """What the shared client is for: without it each cache object (a thread's, a request's) connects anew."""
    prefix = f"palace-test-{uuid.uuid4().hex[:12]}"
    caches = _in_threads(DjangoRedisCache, location, prefix)
    assert len({id(cache._cache) for cache in caches}) == 4
    assert sum(_connections(cache) for cache in caches) == 4
    caches[0].delete_many([f"k{n}" for n in range(4)])


def test_other_options_get_a_client_of_their_own(location):
    one = RedisCache(location, {"OPTIONS": {"socket_timeout": 1.0}})
    other = RedisCache(location, {"OPTIONS": {"socket_timeout": 2.0}})
    assert one._cache is not other._cache
