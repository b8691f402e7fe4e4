"""Fixtures of the fault tests: one private PostgreSQL cluster per test process, with a migrated template."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.system.faults.servers import Palace, PrivatePostgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[PrivatePostgres]:
    """One private cluster for the session; a template database migrated once, copied per test (``database``)."""
    server = PrivatePostgres()
    server.execute("CREATE DATABASE palace_template")
    migrator = Palace(database_url=server.url("palace_template"), broker_url="memory://", home=server.home)
    migrator.manage("migrate", "--noinput")
    migrator.close()
    yield server
    server.close()


@pytest.fixture
def database(postgres: PrivatePostgres) -> str:
    """A fresh migrated database of the private cluster, for this test alone; returns its name."""
    name = f"palace_{uuid.uuid4().hex[:10]}"
    postgres.execute(f"CREATE DATABASE {name} TEMPLATE palace_template")
    return name
