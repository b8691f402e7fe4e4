"""Palace API past one machine, on one host: several web servers and workers over one PostgreSQL and one Redis.

The processes are those the Docker image runs (gunicorn with uvicorn workers; Celery game workers, the webhook
delivery worker, beat), each on its own loopback port or queue. They share the suite's PostgreSQL server (a fresh
database of their own, dropped after) and the suite's Redis (the broker's database number: ``CELERY_BROKER_URL``),
as the containers of docker-compose.scale.yml share theirs. Processes are started with
``tests.system.faults.servers.Palace``, one instance per web server (its port, its log files).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.servers import PYTHON, CeleryWorker, Process
from tests.system.faults.servers import Palace, wait_until

POSTGRES_SCHEMES = ("postgres", "postgresql", "pgsql")
REDIS_SCHEMES = ("redis",)


def suite_servers() -> tuple[str, str]:
    """The suite's PostgreSQL (``DATABASE_URL``) and Redis (``CELERY_BROKER_URL``) URLs; skips, saying why, when
    either is something else (SQLite, the embedded broker): several servers need a database and a broker that
    every process reaches over the network. ``.ci/run`` sets both."""
    database = os.environ.get("DATABASE_URL", "")
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if urlsplit(database).scheme not in POSTGRES_SCHEMES:
        pytest.skip("several web servers share one PostgreSQL: set DATABASE_URL to one (.ci/run does)")
    if urlsplit(broker).scheme not in REDIS_SCHEMES:
        pytest.skip("several web servers and workers share one Redis: set CELERY_BROKER_URL to one (.ci/run does)")
    return database, broker


def database_url(url: str, name: str) -> str:
    """``url`` naming database ``name``, without a query string."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new empty database on ``url``'s server, dropped on exit (connections and all); yields its URL."""
    import psycopg
    from psycopg import sql

    name = f"palace_scale_{uuid.uuid4().hex[:10]}"
    maintenance = database_url(url, "postgres").replace("pgsql://", "postgresql://", 1)
    maintenance = maintenance.replace("postgres://", "postgresql://", 1)
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=10) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield database_url(url, name)
    finally:
        with psycopg.connect(maintenance, autocommit=True, connect_timeout=10) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


class Node(Palace):
    """One machine's share of the cluster: a web server on a port of its own, and the workers started on it."""

    def start_delivery_worker(self, name: str) -> None:
        """The webhook deliveries' worker (docker-compose.yml's ``webhooks``): the ``webhooks`` queue, threads."""
        worker = CeleryWorker(env=self.env, home=self.home, name=name, queues="webhooks", pool="threads", concurrency=4)
        self.processes[name] = worker
        worker.start()

    def start_beat(self) -> None:
        """Celery beat, alone (one per cluster: it schedules the sweeps every worker runs)."""
        argv = [PYTHON, "-m", "celery", "-A", "palace_api", "beat", "-l", "INFO"]
        argv += ["-s", str(self.home / "beat-schedule")]
        beat = Process("beat", argv, env=self.env, home=self.home)
        self.processes["beat"] = beat
        beat.spawn()
        wait_until("beat is up", lambda: "beat: Starting" in self.log("beat"))


@contextmanager
def cluster(*, webs: int = 2) -> Iterator[list[Node]]:
    """``webs`` web servers (gunicorn, one uvicorn worker each), two game workers, one delivery worker and one
    beat on the suite's PostgreSQL (a fresh database) and Redis, with the view versions in that Redis. Yields the
    nodes, one per web server; the workers run beside the first. Skips when the suite runs without PostgreSQL
    and Redis (``suite_servers``)."""
    database, broker = suite_servers()
    home = Path(tempfile.mkdtemp(prefix="palace-scale-"))
    env = {
        "CACHE_URL": broker,
        # Keys of this cluster's own: the fresh database's games reuse earlier runs' ids, whose versions Redis may
        # still hold (README, CACHE_KEY_PREFIX).
        "CACHE_KEY_PREFIX": f"scale-{uuid.uuid4().hex[:12]}",
        "STREAMS_REDIS_URL": broker,
        "DATABASE_POOL_MAX_SIZE": "10",
        "STREAMS_HEARTBEAT_SECONDS": "2",
    }
    nodes: list[Node] = []
    try:
        with fresh_database(database) as url:
            for number in range(webs):
                (home / f"web{number}").mkdir()
                nodes.append(Node(database_url=url, broker_url=broker, home=home / f"web{number}", env=env))
            nodes[0].manage("migrate", "--noinput")
            for node in nodes:
                node.start_web(workers=1)
            nodes[0].start_worker("games1", beat=False)
            nodes[0].start_worker("games2", beat=False)
            nodes[0].start_delivery_worker("deliveries")
            nodes[0].start_beat()
            try:
                yield nodes
            finally:
                for node in nodes:
                    node.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
