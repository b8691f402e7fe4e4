"""Private servers for fault tests: a PostgreSQL cluster, a Redis server, and Palace API on them (gunicorn with
uvicorn workers, Celery workers with their beat), each on a free loopback port, each started, stopped and killed by
the test alone, all through ``tests.servers``.

Nothing here touches the servers CI starts for the rest of the suite: every process gets its own data directory,
port and environment. A machine without PostgreSQL's or Redis's server programs skips these tests and says so;
``.ci/run`` installs both, so CI runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import servers
from tests.servers import CeleryWorker, Process, ProgramMissing, WebServer, app_env, children_of, free_port, manage

__all__ = ["Palace", "PrivatePostgres", "PrivateRedis", "children_of", "free_port", "wait_until"]


def wait_until(what: str, check: Callable[[], Any], *, timeout: float = 30.0, every: float = 0.1) -> Any:
    """``tests.servers.wait_until``, failing the test (rather than erroring it) when the time runs out."""
    try:
        return servers.wait_until(what, check, timeout=timeout, every=every)
    except servers.ServerError as error:
        pytest.fail(str(error))


class PrivatePostgres(servers.PrivatePostgres):
    """``tests.servers.PrivatePostgres``; the test is skipped where PostgreSQL's server programs are missing."""

    def __init__(self) -> None:
        try:
            super().__init__()
        except ProgramMissing as missing:
            pytest.skip(str(missing))


class PrivateRedis(servers.PrivateRedis):
    """``tests.servers.PrivateRedis``; the test is skipped where ``redis-server`` is missing."""

    def __init__(self) -> None:
        try:
            super().__init__()
        except ProgramMissing as missing:
            pytest.skip(str(missing))


class Palace:
    """Palace API on a private database and broker: migrations, gunicorn on a free port, Celery workers.

    ``env``: the variables every process gets. Sweeps run every second and a bot decision counts as stalled
    after two, so recoveries take seconds, not the production defaults' tens of seconds.
    """

    def __init__(self, *, database_url: str, broker_url: str, home: Path, env: dict[str, str] | None = None) -> None:
        self.home = home
        defaults = {
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "ALLOWED_HOSTS": "127.0.0.1",
            "TIMEOUT_SWEEP_SECONDS": "1",
            "BOT_STALL_SECONDS": "2",
        }
        self.env = app_env(**{**defaults, **(env or {})})
        self.port = free_port()
        self.processes: dict[str, Process] = {}
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=15)

    def manage(self, *args: str) -> None:
        manage(self.env, *args)

    def start_web(self, *, workers: int = 1) -> None:
        """The Dockerfile's server (gunicorn with ``workers`` uvicorn workers; it runs 2), answering on
        ``self.port`` (the same port after a restart)."""
        web = WebServer(env=self.env, home=self.home, kind="asgi", workers=workers, name="web", port=self.port)
        self.processes["web"] = web
        try:
            web.start()
        except servers.ServerError as error:
            pytest.fail(str(error))

    def start_worker(self, name: str, *, beat: bool) -> Process:
        worker = CeleryWorker(env=self.env, home=self.home, name=name, concurrency=1, beat=beat)
        self.processes[name] = worker
        try:
            worker.start()
        except servers.ServerError as error:
            pytest.fail(str(error))
        return worker

    def log(self, name: str) -> str:
        path = self.home / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, name: str) -> None:
        """SIGKILL the process ``name`` and every process of its session (a worker's pool and beat)."""
        self.processes.pop(name).kill()

    def close(self) -> None:
        self.http.close()
        for name in list(self.processes):
            self.kill(name)

    # --- a client's side ---

    def player(self, name: str) -> dict[str, str]:
        """Register ``name``; returns the headers of its token."""
        answer = self.http.post("/api/v1/players/", json={"name": name})
        assert answer.status_code == 201, answer.text
        return {"Authorization": f"Token {answer.json()['token']}"}
