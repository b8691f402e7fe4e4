"""Reading the process environment into settings values.

Each setting that has a rule beyond "read this variable" gets a small function here, so the rule can be tested
on a made-up environment without reloading Django's settings. ``settings.py`` calls them with the real one.
"""

from __future__ import annotations

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


def read_database(env: environ.Env, *, base_dir: Path) -> dict[str, Any]:
    """DATABASE_URL (``postgres://user:password@host:5432/name``); SQLite in the project folder if unset or empty."""
    url = env.str("DATABASE_URL", default="") or f"sqlite:///{base_dir / 'db.sqlite3'}"
    return env.db_url_config(url)


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
