"""Connections a database restart broke are never used (README, "Failure modes"): a persistent connection is
checked before a request reuses it (``CONN_HEALTH_CHECKS``), and the pool (``palace_api.postgresql``) checks each
connection before handing it out and drops every broken one it holds at once.

A restart is played by ``pg_terminate_backend`` on the test database's own server: it ends those sessions as a
shutdown does, and the client learns it only when it next uses the connection. ``tests/system/faults`` restarts a
private PostgreSQL under the real server for the same promises.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, close_old_connections, connection

from palace_api.env import make_env, read_database
from palace_api.postgresql.base import DatabaseWrapper

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's connections; .ci/run runs this test against PostgreSQL")


def terminate(sql_filter: str, *params: Any) -> int:
    """End the sessions of the test database that ``sql_filter`` picks, from a connection of another thread, as a
    restart would; returns how many ended."""
    ended: list[int] = []

    def run() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"  # noqa: S608 - our own filter
                    f" WHERE datname = current_database() AND pid <> pg_backend_pid() AND {sql_filter}",
                    params,
                )
                ended.append(cursor.fetchone()[0])
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    return ended[0]


def test_a_persistent_connection_broken_by_a_restart_is_replaced_before_the_next_request_uses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a persistent connection (``?conn_max_age=600``: workers, beat) whose session the server ended, when
    the next request or task starts (``close_old_connections``, as Django and Celery call it), then its first
    query runs on a new connection instead of failing."""
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    connection.close()
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 600)
    connection.ensure_connection()
    before = connection.connection.info.backend_pid
    assert terminate("pid = %s", before) == 1
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != before
    connection.close()


POOL_SIZE = 4


def test_the_pool_hands_out_a_working_connection_when_every_one_it_held_was_broken() -> None:
    """Given the pool full of connections whose sessions the server ended, when a request takes one, then it gets
    a working one (the broken ones are all dropped at the first failed check), where Django's own check would go
    through them one at a time, pausing longer after each, and run out of the pool's timeout."""
    settings = {
        **connection.settings_dict,
        "OPTIONS": {
            **connection.settings_dict["OPTIONS"],
            "application_name": "palace-pool-test",
            "pool": {"min_size": POOL_SIZE, "max_size": POOL_SIZE, "timeout": 5},
        },
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
    }
    pooled = DatabaseWrapper(settings, alias="pool-test")
    try:
        pooled.pool.open(wait=True)
        assert terminate("application_name = %s", "palace-pool-test") == POOL_SIZE
        with pooled.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
        stats = pooled.pool.get_stats()
        # The one the request drew comes back as a bad return; the sweep counts the others as lost.
        assert stats.get("returns_bad", 0) + stats.get("connections_lost", 0) == POOL_SIZE
    finally:
        pooled.close()
        pooled.close_pool()


class Proxy:
    """A TCP relay on 127.0.0.1 to the test database's server, which a test takes down (every connection through
    it cut, new ones refused, as while PostgreSQL is stopped) and up again on the same port."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener: socket.socket | None = None
        self.port = 0
        self.open: list[socket.socket] = []
        self.up()

    def up(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def down(self) -> None:
        assert self.listener is not None
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread: close() alone would not
        self.listener.close()
        for sock in self.open:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # taken down
            server = socket.create_connection(self.target)
            self.open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


def select_one(settings: dict[str, Any], *, wait: float) -> int:
    """A request's use of the database, waiting ``wait`` seconds at most for a connection: a connection of its
    thread (sharing the pool of its alias), one query, then the connection back to the pool."""
    wrapper = DatabaseWrapper(settings, alias="outage-test")
    wrapper.pool_wait = wait
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone()[0]
    finally:
        wrapper.close()


def test_a_request_waiting_when_the_database_returns_gets_a_connection() -> None:
    """Given the pool as ``DATABASE_POOL_MAX_SIZE`` configures it, when its connections are cut and the database
    stays away 4.5 s, a request finding it away (and failing), then a request sent 1 s before its return and
    waiting 3 s at most gets a connection, and so does the next one. (psycopg's pool alone would retry the
    connections it lost 1, 3, 7 s after losing them, and have none until 7 s.)"""
    database = connection.settings_dict
    proxy = Proxy(database["HOST"] or "127.0.0.1", int(database["PORT"] or 5432))
    url = f"postgres://{database['USER']}:{database['PASSWORD']}@127.0.0.1:{proxy.port}/{database['NAME']}"
    env = make_env({"DATABASE_URL": url, "DATABASE_POOL_MAX_SIZE": "2"})
    settings = {**database, **read_database(env, base_dir=Path())}
    owner = DatabaseWrapper(settings, alias="outage-test")
    try:
        owner.pool.open(wait=True)
        proxy.down()
        started = time.monotonic()
        with pytest.raises(OperationalError):
            select_one(settings, wait=1)
        with ThreadPoolExecutor(1) as waiter:
            time.sleep(max(0.0, started + 3.5 - time.monotonic()))
            waiting = waiter.submit(select_one, settings, wait=3)
            time.sleep(1)
            proxy.up()
            assert waiting.result(timeout=30) == 1
        assert select_one(settings, wait=3) == 1
    finally:
        owner.close_pool()
        proxy.down()


@pytest.mark.parametrize("binding", ["false", "true"])
@pytest.mark.parametrize("pool", ["0", "2"], ids=["persistent", "pool"])
def test_server_side_binding_prepares_a_query_run_five_times_on_a_connection(binding: str, pool: str) -> None:
    """Given ``DATABASE_SERVER_SIDE_BINDING`` (README, Configuration: on by default), when a query runs six times on
    one connection, then PostgreSQL holds it prepared, and only then (Django turns psycopg's preparing off unless
    told)."""
    database = connection.settings_dict
    port = database["PORT"] or 5432
    url = f"postgres://{database['USER']}:{database['PASSWORD']}@127.0.0.1:{port}/{database['NAME']}"
    env = make_env({"DATABASE_URL": url, "DATABASE_SERVER_SIDE_BINDING": binding, "DATABASE_POOL_MAX_SIZE": pool})
    read = read_database(env, base_dir=Path())
    # The suite's own connection options (its commit setting) without its binding, which the default gives it.
    binding_keys = ("server_side_binding", "prepare_threshold")
    own = {key: value for key, value in database["OPTIONS"].items() if key not in binding_keys}
    settings = {**database, **read, "OPTIONS": {**own, **read.get("OPTIONS", {})}}
    wrapper = DatabaseWrapper(settings, alias="prepare-test")
    try:
        with wrapper.cursor() as cursor:
            for number in range(6):
                cursor.execute("SELECT %s::integer + 40", [number])
                assert cursor.fetchone() == (number + 40,)
            cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%::integer + 40"])
            assert cursor.fetchone() == ((1,) if binding == "true" else (0,))
    finally:
        wrapper.close()
        if pool != "0":
            wrapper.close_pool()
