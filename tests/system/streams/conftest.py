"""Live servers shared by the stream tests of this package (one of each per test run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.system.faults.servers import PrivateRedis
from tests.system.streams.live import LiveServer


@pytest.fixture(scope="package")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    """The embedded default: no Redis, each web process polls the database."""
    live = LiveServer(tmp_path_factory.mktemp("streams-database"))
    yield live
    live.close()


@pytest.fixture(scope="package")
def redis_server(tmp_path_factory) -> Iterator[LiveServer]:
    """Fan-out through a private Redis; polling slower than the test waits, so events can only come by Redis.

    Each game's shared feed keeps only 4 entries here: a stream that reconnects after a few moves reads its own
    pages from the database, the path the default server's streams rarely take."""
    redis = PrivateRedis()  # skips where redis-server is not installed
    env = {
        "STREAMS_REDIS_URL": redis.url,
        "STREAMS_POLL_SECONDS": "30",
        "STREAMS_HEARTBEAT_SECONDS": "30",
        "STREAMS_FEED_ENTRIES": "4",
    }
    live = LiveServer(tmp_path_factory.mktemp("streams-redis"), **env)
    try:
        yield live
    finally:
        live.close()
        redis.stop()
