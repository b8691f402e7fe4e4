"""Django's Redis cache with one Redis client per process, whatever the thread or the request.

Django keeps a cache object per thread and, under ASGI, per request's context; each of its Redis cache objects
makes its own connection pool. So under the shipped ASGI server every request opened a new TCP connection to
Redis for its first cache call (the view versions, the poll pass) and built a new ``redis.Redis`` for each call:
8-13% of the served process's samples under ``bench_http``. This is Django ticket #35651, still open
for Django 5.2. ``RedisCache`` below is Django's, but every cache object of a process with the same servers and
options shares one ``RedisCacheClient``, whose connection pools and ``redis.Redis`` objects live as long as the
process (redis-py's clients and pools are safe to share between threads).

``palace_api.env.read_cache`` puts it in place of Django's backend when ``CACHE_URL`` names Redis.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

_lock = threading.Lock()
_clients: dict[tuple[Any, ...], SharedClient] = {}


class SharedClient(RedisCacheClient):
    """Django's client whose ``redis.Redis`` objects are made once per connection pool, not once per call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis: dict[int, Any] = {}
        self._made = threading.Lock()

    def _get_connection_pool(self, write: bool) -> Any:
        # Django's check-then-set on the pools' dict, under a lock: two threads must not make two pools.
        with self._made:
            return super()._get_connection_pool(write)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """The ``redis.Redis`` of the pool Django would choose (the first server to write, any to read)."""
        index = self._get_connection_pool_index(write)
        client = self._redis.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            with self._made:
                client = self._redis.setdefault(index, self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    """Django's ``RedisCache`` (same keys, same serializer, same options) on the process's shared client."""

    @cached_property
    def _cache(self) -> SharedClient:
        key = (tuple(self._servers), tuple(sorted((name, repr(value)) for name, value in self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = SharedClient(self._servers, **self._options)
        return client
