"""Django's Redis cache with one Redis client per process, whatever the thread or the request.

Django keeps a cache object per thread and, under ASGI, per request's context; each of its Redis cache objects
makes its own connection pool. So under the shipped ASGI server every request opened a new TCP connection to
Redis for its first cache call (the view versions, the poll pass) and built a new ``redis.Redis`` for each call:
8-13% of the served process's samples under ``bench_http``. This is Django ticket #35651, still open
for Django 5.2. ``RedisCache`` below is Django's, but every cache object of a process with the same servers and
options shares one ``RedisCacheClient``, whose connection pools and ``redis.Redis`` objects live as long as the
process (redis-py's clients and pools are safe to share between threads).

``palace_api.env.read_cache`` puts it in place of Django's backend when ``CACHE_URL`` names Redis.

It can also write keys, raise a version only upwards and publish on its own connection, in one script
(``set_newer``): a write that renews the view versions and tells the live streams
(``games.services.versions.changed``) then costs one round trip to Redis, not two, and says whether its version was
the newest Redis had seen, so that a renewal that lands after a later commit's is never taken for that later one.
"""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

_lock = threading.Lock()
_clients: dict[tuple[Any, ...], SharedClient] = {}
_scripts: dict[int, Any] = {}  # by id of the shared ``redis.Redis``, which lives as long as the process


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

    def reaches(self, url: str | None) -> bool:
        """Whether a PUBLISH on this cache's connection reaches the subscribers of the Redis server at ``url``: its
        server to write to is that one (``redis_server``). Pub/sub channels belong to the server, not to one of its
        databases, so the two URLs' database numbers may differ. ``False`` for ``None`` and when the cache has
        options of its own (they could name a password or a TLS setting the URL does not show)."""
        if not url or self._options:
            return False
        return redis_server(self._servers[0]) == redis_server(url)

    def set_newer(
        self,
        key: str,
        value: Any,
        *,
        version_key: str,
        version: int,
        timeout: float,
        others: list[str],
        publish: tuple[str, str] | None = None,
    ) -> bool:
        """In one round trip, atomically: ``key`` and each key of ``others`` := ``value``, whatever they hold;
        ``version_key`` := ``version`` unless it already holds a version at or above ``version``; then, if given, a
        PUBLISH of ``publish`` (channel, message). The keys written live ``timeout`` seconds from now. Returns
        whether ``version`` was newer than the one held (none held counts as older): only then may the writer take
        ``value`` as the token of that version. ``key`` is written either way, so that no value read before the
        call stays current after it, even when ``version_key`` holds a version the database no longer has (a
        database restored or reset under a Redis that kept its keys). Raises what redis-py raises; then nothing,
        or not all of it, may have been done."""
        keys = [self.make_and_validate_key(name) for name in (key, version_key, *others)]
        channel, message = publish if publish is not None else ("", "")
        client = self._cache.get_client(write=True)
        script = _scripts.get(id(client))
        if script is None:
            script = _scripts.setdefault(id(client), client.register_script(SET_NEWER_SCRIPT))
        args = [self._cache._serializer.dumps(value), version, self.get_backend_timeout(timeout), channel, message]
        return bool(script(keys=keys, args=args, client=client))


# KEYS: the token's key, its version's key, then the other keys. ARGV: the keys' value, the version, the seconds they
# live, the channel ("" for none) and the message. Redis runs a script alone, so no write comes between the
# version's read and the writes.
SET_NEWER_SCRIPT = """
local held = tonumber(redis.call('GET', KEYS[2]))
local newer = held == nil or held < tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
if newer then redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) end
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[1], 'EX', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[5]) end
if newer then return 1 end
return 0
"""


def redis_server(url: str) -> tuple[Any, ...]:
    """What names a Redis server in ``url`` (``redis://``, ``rediss://`` or ``unix://``): the scheme, the host and
    port (6379 if none) or the socket's path, the user and the password. The database number is not part of it."""
    parts = urlsplit(url)
    place = (parts.path,) if parts.scheme == "unix" else ((parts.hostname or "").lower(), parts.port or 6379)
    return (parts.scheme, *place, parts.username, parts.password)
