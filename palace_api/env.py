"""Reading the process environment into settings values.

Each setting that has a rule beyond "read this variable" gets a small function here, so the rule can be tested
on a made-up environment without reloading Django's settings. ``settings.py`` calls them with the real one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

# Used only when DEBUG is true and SECRET_KEY is unset: a local development run. Never valid in production.
DEV_SECRET_KEY = "django-insecure-palace-dev-only-never-use-in-production"  # noqa: S105

DEFAULT_ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]


def make_env(environ_map: Mapping[str, str] | None = None) -> environ.Env:
    """A django-environ reader over ``environ_map``, or over ``os.environ`` when it is None."""
    env = environ.Env()
    if environ_map is not None:
        env.ENVIRON = environ_map
    return env


def read_debug(env: environ.Env) -> bool:
    """DEBUG defaults to false: a server is safe unless someone asks for debug pages."""
    return env.bool("DEBUG", default=False)


def read_secret_key(env: environ.Env, *, debug: bool) -> str:
    """SECRET_KEY from the environment; the fixed development key only when DEBUG is true.

    Read without django-environ's ``$VAR`` proxy expansion: a random key may well start with ``$``.
    """
    key = env.ENVIRON.get("SECRET_KEY", "")
    if key:
        return key
    if debug:
        return DEV_SECRET_KEY
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")


def read_allowed_hosts(env: environ.Env) -> list[str]:
    return env.list("ALLOWED_HOSTS", default=DEFAULT_ALLOWED_HOSTS)


POSTGRESQL = "django.db.backends.postgresql"
POOLED_POSTGRESQL = "palace_api.postgresql"
"""Django's PostgreSQL backend whose pool never hands out a connection that a database restart broke."""
PREPARE_THRESHOLD = 5
"""With ``DATABASE_SERVER_SIDE_BINDING``: runs of one query on a connection before psycopg prepares it there
(psycopg's own default)."""


def read_database(env: environ.Env, *, base_dir: Path) -> dict[str, Any]:
    """DATABASE_URL (``postgres://user:password@host:5432/name``); SQLite in the project folder if unset or empty.

    DATABASE_POOL_MAX_SIZE (PostgreSQL only): a psycopg connection pool of at most that many connections per
    process, instead of persistent connections (``?conn_max_age=``), which the ASGI server must not use: it
    runs each request's synchronous part in a thread of its own, and each thread would keep a connection open.
    Either way a connection is checked before it is reused (``CONN_HEALTH_CHECKS``; the pool's by
    ``palace_api.postgresql``), so the first request after a database restart succeeds.
    DATABASE_SERVER_SIDE_BINDING (PostgreSQL only, on by default there): psycopg's server-side parameter binding,
    with which psycopg prepares a query it has run ``PREPARE_THRESHOLD`` times on a connection; off for a pooler in
    transaction mode that cannot keep prepared statements.
    Raises ``ImproperlyConfigured`` for a pool or server-side binding on SQLite.
    """
    url = env.str("DATABASE_URL", default="") or f"sqlite:///{base_dir / 'db.sqlite3'}"
    config = env.db_url_config(url)
    if config["ENGINE"] == POSTGRESQL:
        # A persistent connection (``?conn_max_age=``: workers, beat, the streams' threads) is checked before a
        # request's or task's first query reuses it, and replaced if a database restart broke it.
        config["CONN_HEALTH_CHECKS"] = True
    pool_max = env.int("DATABASE_POOL_MAX_SIZE", default=0)
    if pool_max > 0:
        if config["ENGINE"] != POSTGRESQL:
            raise ImproperlyConfigured("DATABASE_POOL_MAX_SIZE needs PostgreSQL")
        # The backend's requests wait for a working connection up to 10 s in all (then fail: a 503, rather than
        # hang), one ``timeout`` at a time, each wait asking for a new connection if the pool has room. A
        # connection that cannot be opened is given up after ``reconnect_timeout``, not retried in the background
        # with pauses doubling for 5 minutes, which after an outage kept requests waiting with the database back.
        pool = {"min_size": min(2, pool_max), "max_size": pool_max, "timeout": 1, "reconnect_timeout": 1}
        config.setdefault("OPTIONS", {})["pool"] = pool
        config["CONN_MAX_AGE"] = 0
        # The pool's connections are checked by the backend instead, which drops every broken one at once.
        config["ENGINE"] = POOLED_POSTGRESQL
        config["CONN_HEALTH_CHECKS"] = False
    on_postgresql = config["ENGINE"] in (POSTGRESQL, POOLED_POSTGRESQL)
    if env.bool("DATABASE_SERVER_SIDE_BINDING", default=on_postgresql):
        if not on_postgresql:
            raise ImproperlyConfigured("DATABASE_SERVER_SIDE_BINDING needs PostgreSQL")
        # psycopg's server-side parameters: a query run PREPARE_THRESHOLD times on a connection is prepared there, and
        # PostgreSQL then neither parses nor plans it again (benchmarks/README.md measures it). Django turns
        # psycopg's preparing off unless ``prepare_threshold`` is given (for poolers that cannot keep prepared
        # statements): without it server-side binding prepared nothing.
        config.setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD})
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # The run command's web server, worker and beat share one SQLite file: writers take the lock when their
        # transaction begins (so they queue instead of failing on upgrade), wait for it, and readers go on (WAL).
        config.setdefault("OPTIONS", {}).update(
            {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
        )
    return config


def default_broker_url(*, base_dir: Path) -> str:
    """The embedded broker: kombu's SQLAlchemy transport on a SQLite file, so no broker server is needed."""
    return f"sqla+sqlite:///{base_dir / 'celery-broker.sqlite3'}"


def read_celery_broker_url(env: environ.Env, *, base_dir: Path) -> str:
    return env.str("CELERY_BROKER_URL", default="") or default_broker_url(base_dir=base_dir)


def read_celery_result_backend(env: environ.Env) -> str | None:
    """CELERY_RESULT_BACKEND, or None: results are disabled; tasks write what they do to the database."""
    return env.str("CELERY_RESULT_BACKEND", default="") or None


# Redis redelivers a message not acknowledged within this many seconds. It must exceed the longest task run and
# the longest countdown/ETA (turn timeouts are minutes), or a task would run twice.
REDIS_VISIBILITY_TIMEOUT = 3600

REDIS_SCHEMES = ("redis://", "rediss://", "redis+socket://", "sentinel://")


def broker_transport_options(broker_url: str) -> dict[str, Any]:
    """Options for the broker's transport: visibility_timeout for Redis, none for the embedded broker.

    kombu's SQLAlchemy transport hands its options to ``create_engine``, which rejects ``visibility_timeout``.
    """
    if broker_url.startswith(REDIS_SCHEMES):
        return {"visibility_timeout": REDIS_VISIBILITY_TIMEOUT}
    return {}


DEFAULT_EMAIL_URL = "consolemail://"


def read_email(env: environ.Env) -> dict[str, Any]:
    """EMAIL_URL (``smtp+tls://user:password@host:587``, ``smtps://...:465``, ``consolemail://``) as Django's
    EMAIL_* settings, parsed by django-environ; Django's console backend (mails printed) if unset or empty.

    ``smtp+tls`` (and ``smtps``) mean STARTTLS, usually on port 587; ``smtp+ssl``, TLS from the first byte (465).
    Percent-encode a user or password holding ``@``, ``:`` or ``/``. An unknown scheme raises ImproperlyConfigured
    (django-environ's), so the settings do not load rather than losing every mail later.
    """
    url = env.str("EMAIL_URL", default="") or DEFAULT_EMAIL_URL
    config = env.email_url_config(url)
    # Parts the URL leaves out keep Django's defaults.
    return {key: value for key, value in config.items() if value not in (None, "")}


DJANGO_REDIS_BACKEND = "django.core.cache.backends.redis.RedisCache"
SHARED_CLIENT_REDIS_BACKEND = "palace_api.cache.RedisCache"
"""Django's Redis backend on one client per process (palace_api/cache.py), which ``read_cache`` puts in its place."""


def read_cache(env: environ.Env) -> dict[str, Any]:
    """CACHE_URL (``redis://127.0.0.1:6379/1``); a per-process in-memory cache if unset or empty. CACHE_KEY_PREFIX
    (default none) begins every key, so that two installations (or a test's servers) may share one Redis database:
    their games' ids would otherwise name the same keys.

    Throttle counters live in this cache: with several web processes only a shared cache (Redis) makes a rate
    a rate for the whole server rather than for each process.
    """
    url = env.str("CACHE_URL", default="") or "locmemcache://"
    config = env.cache_url_config(url)
    config["KEY_PREFIX"] = env.str("CACHE_KEY_PREFIX", default="")
    if config["BACKEND"] == DJANGO_REDIS_BACKEND:
        # Django's backend with one Redis client per process (palace_api/cache.py: Django ticket #35651).
        config["BACKEND"] = SHARED_CLIENT_REDIS_BACKEND
    return config


PER_PROCESS_CACHES = ("django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache")


def read_view_versions_cache(caches: dict[str, dict[str, Any]]) -> str | None:
    """The cache alias that holds the view versions behind the 304s of ``me/turns/`` and the game view
    (``games.selectors.versions``): ``"default"`` when every process shares it (CACHE_URL names Redis, say),
    ``None`` for a per-process cache, which would never see the writes of another process (a Celery worker's bot
    move): then those views tag what they read from the database."""
    return None if caches["default"]["BACKEND"] in PER_PROCESS_CACHES else "default"


# DRF throttle scope -> (environment variable, default rate). A turn-based client polls and acts a few times a
# second at most, so "user" is generous; registration and staff log-in are open doors, so they are strict.
THROTTLE_DEFAULTS: dict[str, tuple[str, str]] = {
    "anon": ("THROTTLE_ANON", "60/min"),
    "user": ("THROTTLE_USER", "1200/min"),
    "register": ("THROTTLE_REGISTER", "20/hour"),
    "login": ("THROTTLE_LOGIN", "20/hour"),
    "export": ("THROTTLE_EXPORT", "120/hour"),
}

# What DRF's SimpleRateThrottle.parse_rate understands: a count, "/", and a period it reads by its first letter.
RATE_PATTERN = re.compile(r"[0-9]+/(s|sec|second|m|min|minute|h|hour|d|day)")


def read_throttle_rates(env: environ.Env) -> dict[str, str | None]:
    """Rates of the DRF throttle scopes, e.g. ``THROTTLE_USER=2000/min``; ``none`` turns a scope's throttle off.

    A malformed rate stops the settings from loading, rather than failing on the first throttled request.
    """
    rates: dict[str, str | None] = {}
    for scope, (variable, default) in THROTTLE_DEFAULTS.items():
        value = env.str(variable, default="").strip() or default
        if value.lower() == "none":
            rates[scope] = None
        elif RATE_PATTERN.fullmatch(value):
            rates[scope] = value
        else:
            raise ImproperlyConfigured(
                f"{variable}={value!r}: expected a rate like 100/min (s, min, hour, day) or none."
            )
    return rates


def read_num_proxies(env: environ.Env) -> int:
    """NUM_PROXIES: how many reverse proxies in front of the server append to X-Forwarded-For.

    0 (the default) identifies a client by its socket address alone, so nobody dodges a per-address throttle
    by sending a made-up X-Forwarded-For header. Behind one proxy that sets the header, use 1.
    """
    value = env.int("NUM_PROXIES", default=0)
    if value < 0:
        raise ImproperlyConfigured("NUM_PROXIES must be 0 or more.")
    return value


def read_networks(env: environ.Env, variable: str) -> list[str]:
    """A comma-separated list of networks (``127.0.0.0/8,::1/128``), each checked; empty if unset.

    WEBHOOK_ALLOWED_NETWORKS: addresses webhooks may reach although they are loopback or private (tests and
    local runs); a malformed network stops the settings from loading.
    """
    import ipaddress

    networks = [item.strip() for item in env.list(variable, default=[]) if item.strip()]
    for network in networks:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError as error:
            raise ImproperlyConfigured(f"{variable}: {network!r} is not a network such as 127.0.0.0/8.") from error
    return networks


# Seconds between a webhook's attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27 hours in all), the
# schedule of Svix, whose authors wrote the Standard Webhooks spec.
DEFAULT_WEBHOOK_RETRY_DELAYS = [5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0]


def read_retry_delays(env: environ.Env) -> list[float]:
    """WEBHOOK_RETRY_DELAYS: seconds before each retry, comma-separated (``0.2,0.2`` in tests)."""
    raw = env.list("WEBHOOK_RETRY_DELAYS", default=[])
    if not raw:
        return list(DEFAULT_WEBHOOK_RETRY_DELAYS)
    try:
        delays = [float(item) for item in raw]
    except ValueError as error:
        raise ImproperlyConfigured("WEBHOOK_RETRY_DELAYS: seconds separated by commas, e.g. 5,300,1800.") from error
    if any(delay < 0 for delay in delays):
        raise ImproperlyConfigured("WEBHOOK_RETRY_DELAYS: no delay may be negative.")
    return delays


def read_streams_redis_url(env: environ.Env, *, broker_url: str) -> str | None:
    """Where live streams fan out (Redis pub/sub): STREAMS_REDIS_URL, else the broker's URL when the broker is
    Redis; ``None`` (each web process polls the database instead) on the embedded broker or with ``none``."""
    value = env.str("STREAMS_REDIS_URL", default="").strip()
    if value.lower() == "none":
        return None
    if value:
        return value
    return broker_url if broker_url.startswith(REDIS_SCHEMES) else None
