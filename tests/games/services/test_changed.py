"""What each commit owes Redis (games/services/versions.py ``changed``): the view versions' new tokens, then the
live streams' announce, in one round trip when the shared cache and the streams use one Redis server (as
docker-compose.yml ships them), else one each; a Redis failure never reaches the request that committed.

Run against the suite's Redis (``CELERY_BROKER_URL``; ``.ci/run`` sets one). Each test's keys carry a prefix of
its own and are deleted after it; each message names a game id of its own (other tests publish on the channel).
"""

from __future__ import annotations

import json
import logging
import secrets
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.core.cache import caches

from games.selectors import state
from games.selectors.versions import game_key, game_version_key, turns_key
from games.services import fanout
from games.services.versions import changed
from palace_api.cache import RedisCache


def _other_database(url: str) -> str:
    """``url`` with another database number: the same server, as the cache and the broker differ in
    docker-compose.yml."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number + 1) % 16}"))


@pytest.fixture
def broker(settings) -> str:
    url = settings.CELERY_BROKER_URL
    if not url.startswith("redis://"):
        pytest.skip("what a commit owes Redis needs Redis: set CELERY_BROKER_URL to a Redis server (.ci/run does)")
    return url


@pytest.fixture
def shared_cache(settings, isolated_cache, broker, monkeypatch):
    """The view versions in the project's Redis cache on the suite's Redis, under a prefix of this test's own,
    the live streams on the same server's other database; fanout not resting from another test's failure."""
    prefix = f"palace-test-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {"default": {"BACKEND": "palace_api.cache.RedisCache", "LOCATION": broker, "KEY_PREFIX": prefix}}
    settings.VIEW_VERSIONS_CACHE = "default"
    settings.STREAMS_REDIS_URL = _other_database(broker)
    monkeypatch.setattr(fanout, "_quiet_until", 0.0)
    yield caches["default"]
    client = caches["default"]._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture
def listener(broker):
    """A subscriber of the streams' channel on the streams' database (not the cache's: pub/sub is the server's);
    ``heard(game)`` the messages about ``game`` within a second."""
    pubsub = redis.Redis.from_url(_other_database(broker)).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(fanout.CHANNEL)
    while pubsub.get_message(timeout=1.0) is None and not pubsub.subscribed:
        pass

    def heard(game: int) -> list[dict]:
        found, until = [], time.monotonic() + 1.0
        while time.monotonic() < until:
            message = pubsub.get_message(timeout=0.1)
            if message is not None and json.loads(message["data"])["game"] == game:
                found.append(json.loads(message["data"]))
        return found

    yield heard
    pubsub.close()


def _game() -> int:
    return 10**12 + secrets.randbelow(10**12)


def _tokens(cache, game: int, player: int) -> tuple:
    return cache.get(game_key(game)), cache.get(turns_key(player))


class NoOwnClient:
    """fanout's own client, which the one-round-trip path must not use."""

    def __init__(self) -> None:
        self.published: list[tuple[str, str]] = []

    def publish(self, channel: str, message: str) -> int:
        self.published.append((channel, message))
        return 0


def test_one_server_one_round_trip(shared_cache, listener, monkeypatch):
    """Given the cache and the streams on one Redis server (other databases), when a commit's ``changed`` runs,
    then the game's and the player's tokens are new, the channel hears the game's version once, and fanout's own
    client sent nothing: the cache's connection carried both."""
    own = NoOwnClient()
    monkeypatch.setattr(fanout, "_redis", lambda url: own)
    game, player = _game(), 7
    before = _tokens(shared_cache, game, player)
    changed(game_id=game, version=12, players=[player, None])
    after = _tokens(shared_cache, game, player)
    assert None not in after and after != before and after[0] == after[1]
    assert listener(game) == [{"game": game, "version": 12, "players": [player]}]
    assert own.published == []


def test_another_server_is_told_by_fanouts_own_client(shared_cache, settings, monkeypatch):
    """Given the streams on another Redis server, when ``changed`` runs, then the tokens are new through the cache
    and the announce goes out once on fanout's own client, to the streams' server."""
    own, asked = NoOwnClient(), []
    settings.STREAMS_REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(fanout, "_redis", lambda url: asked.append(url) or own)
    game = _game()
    changed(game_id=game, version=3, players=[5])
    assert shared_cache.get(game_key(game)) is not None
    assert asked == ["redis://127.0.0.1:1/0"]
    assert [(channel, json.loads(text)) for channel, text in own.published] == [
        (fanout.CHANNEL, {"game": game, "version": 3, "players": [5]})
    ]


@pytest.fixture
def warnings(monkeypatch) -> list[str]:
    """The warnings of the versions' and fanout's loggers, read on the loggers themselves (another test in the
    same worker may have configured logging so that nothing reaches pytest's root handler)."""
    found: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: found.append(record.getMessage())  # type: ignore[method-assign]
    loggers = [logging.getLogger(name) for name in ("games.services.versions", "games.services.fanout")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        monkeypatch.setattr(logger, "disabled", False)
        logger.setLevel(logging.WARNING)
        logger.addHandler(handler)
    yield found
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_a_redis_failure_rests_the_announces_and_raises_nothing(shared_cache, monkeypatch, warnings):
    """Given Redis failing the one round trip, when ``changed`` runs, then it raises nothing, both failures are
    logged, and no announce is tried while fanout rests (the streams re-read the database on their own)."""

    def fail(*args, **kwargs):
        raise redis.ConnectionError("gone")

    monkeypatch.setattr(RedisCache, "set_newer", fail)
    game = _game()
    changed(game_id=game, version=4, players=[1])
    assert [text.split(" game")[0] for text in warnings] == [
        "view versions: could not renew the tokens of",
        "could not announce",
    ]
    assert not fanout.reached_by(shared_cache)
    assert not fanout.announce(game_id=game, version=4, players=[1])


def test_a_renewal_that_lands_late_replaces_the_token_but_is_not_taken_for_the_later_version(shared_cache, listener):
    """Given the renewal of version 8 landed, when the renewal of version 7 (committed before it) lands after it,
    then the game gets a new token all the same (no tag read before it stays current), Redis keeps version 8, the
    players' tokens and the announce are written, and this process does not take the new token for its own commit
    (of 7 or of 8): its view is read from the database until the next renewal."""
    game, player = _game(), 11
    changed(game_id=game, version=8, players=[player])
    token_8 = shared_cache.get(game_key(game))
    changed(game_id=game, version=7, players=[player])
    token_7 = shared_cache.get(game_key(game))
    assert token_7 not in (None, token_8)
    assert shared_cache.get(game_version_key(game)) == 8
    assert shared_cache.get(turns_key(player)) == token_7, "the player's turns are renewed whatever the version"
    assert [heard["version"] for heard in listener(game)] == [8, 7]
    assert state._tokens[game][:2] == (token_8, 8), "the token of 7 is nobody's commit"
    changed(game_id=game, version=9, players=[player])
    assert shared_cache.get(game_key(game)) not in (None, token_8, token_7)
    assert state._tokens[game][:2] == (shared_cache.get(game_key(game)), 9)


def test_a_redis_that_outlived_its_database_still_makes_every_tag_stale(shared_cache):
    """Given Redis holding version 150 of a game from a database since restored or reset (the game's id now names a
    game at version 3), when each of the new game's commits is renewed, then each one replaces the game's token, so
    a tag handed out before it is stale (no 304 answers a game that moved), and none is taken for the newest
    version while Redis holds the old one."""
    game = _game()
    changed(game_id=game, version=150, players=[])
    tokens = []
    for version in (3, 4, 5):
        changed(game_id=game, version=version, players=[])
        tokens.append(shared_cache.get(game_key(game)))
        assert state._tokens[game][1] == 150, "not taken for the newest"
    assert len(set(tokens)) == 3 and None not in tokens
    assert shared_cache.get(game_version_key(game)) == 150


def test_a_token_lost_with_the_cache_is_written_again(shared_cache):
    """Given the game's token and version gone from Redis (evicted, expired), when a commit's renewal lands, then it
    writes both: nothing in Redis is newer."""
    game = _game()
    changed(game_id=game, version=30, players=[])
    shared_cache.delete_many([game_key(game), game_version_key(game)])
    changed(game_id=game, version=29, players=[])
    assert shared_cache.get(game_key(game)) is not None
    assert shared_cache.get(game_version_key(game)) == 29


@pytest.mark.parametrize(
    ("other", "reached"),
    [
        ("redis://127.0.0.1:6379/5", True),
        ("redis://127.0.0.1/2", True),
        ("redis://127.0.0.1:6380/1", False),
        ("redis://:secret@127.0.0.1:6379/1", False),
        ("rediss://127.0.0.1:6379/1", False),
        ("redis://10.0.0.2:6379/1", False),
        (None, False),
    ],
)
def test_a_cache_reaches_the_server_not_the_database(other, reached):
    assert RedisCache("redis://127.0.0.1:6379/1", {}).reaches(other) is reached


def test_a_cache_with_options_reaches_nothing():
    """Options could name a password or TLS that the URL does not show: never assumed the same server."""
    cache = RedisCache("redis://127.0.0.1:6379/1", {"OPTIONS": {"password": "x"}})
    assert not cache.reaches("redis://127.0.0.1:6379/1")
