"""The project skeleton: settings read from the environment, Django checks, migrations, Celery, the schema."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from kombu import Connection

from palace_api import celery_app
from palace_api.env import (
    DEV_SECRET_KEY,
    REDIS_VISIBILITY_TIMEOUT,
    broker_transport_options,
    make_env,
    read_celery_broker_url,
    read_celery_result_backend,
    read_database,
    read_debug,
    read_secret_key,
)

BASE = Path("/srv/palace")

VENDOR_BY_SCHEME = {
    "postgres": "postgresql",
    "postgresql": "postgresql",
    "pgsql": "postgresql",
    "psql": "postgresql",
    "sqlite": "sqlite",
}


# --- settings read from the environment, each rule on a made-up environment ---


@pytest.mark.parametrize("environ_map", [{}, {"DATABASE_URL": ""}])
def test_database_defaults_to_sqlite_in_the_project_folder(environ_map: dict[str, str]) -> None:
    db = read_database(make_env(environ_map), base_dir=BASE)
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(BASE / "db.sqlite3")


def test_database_url_names_postgres() -> None:
    env = make_env({"DATABASE_URL": "postgres://palace:pw@db.example:5433/palace"})
    db = read_database(env, base_dir=BASE)
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["PORT"], db["NAME"], db["USER"], db["PASSWORD"]) == (
        "db.example",
        5433,
        "palace",
        "palace",
        "pw",
    )


def test_a_pool_replaces_persistent_connections_on_postgres_only() -> None:
    env = make_env({"DATABASE_URL": "postgres://palace:pw@db.example/palace?conn_max_age=600"})
    assert read_database(env, base_dir=BASE)["CONN_MAX_AGE"] == 600
    assert read_database(env, base_dir=BASE)["CONN_HEALTH_CHECKS"] is True, "checked before each reuse"
    assert "pool" not in read_database(env, base_dir=BASE).get("OPTIONS", {})
    pooled = make_env(
        {"DATABASE_URL": "postgres://palace:pw@db.example/palace?conn_max_age=600", "DATABASE_POOL_MAX_SIZE": "20"}
    )
    db = read_database(pooled, base_dir=BASE)
    assert db["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 1, "reconnect_timeout": 1}
    assert db["CONN_MAX_AGE"] == 0, "Django refuses a pool beside persistent connections"
    assert db["ENGINE"] == "palace_api.postgresql", "the backend whose pool drops connections a restart broke"
    assert db["CONN_HEALTH_CHECKS"] is False, "Django's own pool check would take the broken ones one by one"
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        read_database(make_env({"DATABASE_POOL_MAX_SIZE": "20"}), base_dir=BASE)


def test_server_side_binding_is_on_by_default_on_postgres_only_and_prepares() -> None:
    url = "postgres://palace:pw@db.example/palace"
    for extra in ({}, {"DATABASE_POOL_MAX_SIZE": "20"}):
        for binding in ({}, {"DATABASE_SERVER_SIDE_BINDING": "true"}):
            options = read_database(make_env({"DATABASE_URL": url, **extra, **binding}), base_dir=BASE)["OPTIONS"]
            assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
        off = make_env({"DATABASE_URL": url, "DATABASE_SERVER_SIDE_BINDING": "false", **extra})
        options = read_database(off, base_dir=BASE).get("OPTIONS", {})
        assert "server_side_binding" not in options and "prepare_threshold" not in options
    assert "server_side_binding" not in read_database(make_env({}), base_dir=BASE).get("OPTIONS", {})
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        read_database(make_env({"DATABASE_SERVER_SIDE_BINDING": "true"}), base_dir=BASE)


def test_broker_defaults_to_the_embedded_sqlalchemy_transport_not_eager_mode() -> None:
    url = read_celery_broker_url(make_env({}), base_dir=BASE)
    assert url == f"sqla+sqlite:///{BASE / 'celery-broker.sqlite3'}"


def test_empty_broker_url_means_the_default() -> None:
    url = read_celery_broker_url(make_env({"CELERY_BROKER_URL": ""}), base_dir=BASE)
    assert url.startswith("sqla+sqlite:///")


def test_broker_url_from_the_environment() -> None:
    env = make_env({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"})
    assert read_celery_broker_url(env, base_dir=BASE) == "redis://127.0.0.1:6379/0"


def test_redis_broker_gets_a_visibility_timeout_the_embedded_one_none() -> None:
    """kombu's SQLAlchemy transport passes its options to create_engine, which rejects visibility_timeout."""
    assert broker_transport_options("redis://127.0.0.1:6379/0") == {"visibility_timeout": REDIS_VISIBILITY_TIMEOUT}
    assert REDIS_VISIBILITY_TIMEOUT >= 3600
    assert broker_transport_options("sqla+sqlite:///x.sqlite3") == {}


def test_result_backend_is_disabled_unless_set() -> None:
    assert read_celery_result_backend(make_env({})) is None
    assert read_celery_result_backend(make_env({"CELERY_RESULT_BACKEND": "redis://r/1"})) == "redis://r/1"


def test_debug_defaults_to_false() -> None:
    assert read_debug(make_env({})) is False
    assert read_debug(make_env({"DEBUG": "true"})) is True


def test_secret_key_is_required_when_debug_is_false() -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        read_secret_key(make_env({}), debug=False)


def test_dev_secret_key_only_when_debug() -> None:
    assert read_secret_key(make_env({}), debug=True) == DEV_SECRET_KEY


def test_secret_key_is_taken_verbatim_even_with_a_leading_dollar() -> None:
    """django-environ would read "$abc" as a reference to the variable abc; a random key may start with "$"."""
    env = make_env({"SECRET_KEY": "$abc-not-a-reference"})
    assert read_secret_key(env, debug=False) == "$abc-not-a-reference"


# --- the live project ---


@pytest.mark.django_db
def test_live_database_vendor_matches_database_url() -> None:
    url = os.environ.get("DATABASE_URL") or "sqlite:///"
    scheme = url.split("://", 1)[0]
    assert connection.vendor == VENDOR_BY_SCHEME[scheme]
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()" if connection.vendor == "postgresql" else "SELECT sqlite_version()")
        (version,) = cursor.fetchone()
    assert version


def test_django_system_checks_pass_without_warnings() -> None:
    call_command("check", fail_level="WARNING")


@pytest.mark.django_db
def test_migrations_are_complete() -> None:
    call_command("makemigrations", check=True, dry_run=True)


def test_celery_app_sends_tasks_through_the_broker_with_late_acks() -> None:
    conf = celery_app.conf
    assert celery_app.main == "palace_api"
    assert conf.task_always_eager is False
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.broker_transport_options == broker_transport_options(conf.broker_url)
    assert conf.broker_url == settings.CELERY_BROKER_URL


def test_live_broker_url_follows_the_environment() -> None:
    expected = os.environ.get("CELERY_BROKER_URL") or f"sqla+sqlite:///{settings.BASE_DIR / 'celery-broker.sqlite3'}"
    assert celery_app.conf.broker_url == expected


def test_broker_round_trips_a_message() -> None:
    """A message put on a fresh queue through the configured broker comes back: the transport imports and works."""
    queue_name = f"palace-test-{uuid.uuid4().hex}"
    body = {"probe": queue_name}
    with Connection(celery_app.conf.broker_url, transport_options=celery_app.conf.broker_transport_options) as conn:
        queue = conn.SimpleQueue(queue_name)
        try:
            queue.put(body)
            message = queue.get(timeout=10)
            message.ack()
            assert message.payload == body
        finally:
            queue.queue.delete()
            queue.close()


def test_openapi_schema_is_served(client, db, openapi) -> None:
    """``/api/schema/`` serves the document ``manage.py spectacular`` writes, as JSON or YAML, the same to
    everyone (palace_api.schema.SchemaView keeps it per process)."""
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Palace API"
    assert response.json() == openapi
    as_yaml = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert as_yaml.status_code == 200 and yaml.load(as_yaml.content, Loader=yaml.CSafeLoader) == openapi
    client.force_login(get_user_model().objects.create_user("schema-staff", is_staff=True))
    assert client.get("/api/schema/", HTTP_ACCEPT="application/json").json() == openapi


def test_api_docs_page_is_served(client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
