"""Private servers for fault tests: a PostgreSQL cluster, a Redis server, and Palace API on them (gunicorn, a
Celery worker with its beat), each on a free loopback port, each started, stopped and killed by the test alone.

Nothing here touches the servers CI starts for the rest of the suite: every process gets its own data directory,
port and environment. A machine without PostgreSQL's or Redis's server programs skips these tests and says so;
``.ci/run`` installs both, so CI runs them.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[3]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(what: str, check: Callable[[], Any], *, timeout: float = 30.0, every: float = 0.1) -> Any:
    """Call ``check`` until it returns something truthy (returned) or ``timeout`` seconds pass (fails the test)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = check()
        except Exception:  # a server still starting refuses connections
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb") and shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    pytest.skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed here; .ci/run installs them")


def _redis_server() -> str:
    found = shutil.which("redis-server")
    if not found:
        pytest.skip("redis-server is not installed here; .ci/run installs it")
    return found


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1:``port``, trust authentication, no Unix socket.

    PostgreSQL refuses to run as root: as root (CI) its programs run as the ``postgres`` user.
    """

    def __init__(self) -> None:
        self.bin = _postgres_bin()
        self.port = free_port()
        self.home = Path(tempfile.mkdtemp(prefix="palace-fault-pg-"))
        self.data = self.home / "data"
        self.log = self.home / "postgres.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            self.home.chmod(0o755)
            shutil.chown(self.home, user="postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(  # noqa: S603 - fixed programs of the PostgreSQL installation
            [*self.as_user, str(self.bin / program), *args],
            check=True,
            capture_output=True,
            cwd=self.home,
        )

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(sql)

    def query(self, sql: str, *, database: str = "postgres") -> list[tuple[Any, ...]]:
        """The rows of one query, on a connection of its own."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as connection:
            return connection.execute(sql).fetchall()

    def connections_to(self, database: str) -> int:
        """How many client connections ``database`` has now (the server's own processes aside)."""
        sql = f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{database}' AND pid <> pg_backend_pid()"  # noqa: S608 - our own name
        return int(self.query(sql)[0][0])

    def close(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.home, ignore_errors=True)


class PrivateRedis:
    """A throwaway Redis on 127.0.0.1:``port`` that keeps nothing on disk: a restart loses every message."""

    def __init__(self) -> None:
        self.server = _redis_server()
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - a fixed program, loopback only
            [self.server, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until("private Redis answers", lambda: self.client().ping(), timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def client(self) -> Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


class Palace:
    """Palace API on a private database and broker: migrations, gunicorn on a free port, Celery workers.

    ``env``: the variables every process gets. Sweeps run every second and a bot decision counts as stalled
    after two, so recoveries take seconds, not the production defaults' tens of seconds.
    """

    def __init__(self, *, database_url: str, broker_url: str, home: Path, env: dict[str, str] | None = None) -> None:
        self.home = home
        self.port = free_port()
        self.env = {
            **{key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "DJANGO"))},
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "SECRET_KEY": "palace-fault-tests-only",
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "THROTTLE_ANON": "none",
            "THROTTLE_USER": "none",
            "THROTTLE_REGISTER": "none",
            "TIMEOUT_SWEEP_SECONDS": "1",
            "BOT_STALL_SECONDS": "2",
            "CACHE_URL": "",
            **(env or {}),
        }
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=15)

    def manage(self, *args: str) -> None:
        subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, check=True, capture_output=True)  # noqa: S603

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.home / f"{name}.log", "ab")
        process = subprocess.Popen(  # noqa: S603 - our own fixed commands
            argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.processes[name] = process
        return process

    def start_web(self, *, workers: int = 1) -> None:
        """gunicorn with ``workers`` uvicorn workers (the Dockerfile runs 2), answering on ``self.port``."""
        self._spawn(
            "web",
            # The Dockerfile's server: gunicorn with uvicorn workers (ASGI).
            [
                PYTHON,
                "-m",
                "gunicorn",
                "palace_api.asgi:application",
                "--worker-class",
                "uvicorn_worker.UvicornWorker",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
            ],
        )
        wait_until("gunicorn answers", lambda: self.http.get("/api/schema/").status_code == 200)

    def start_worker(self, name: str, *, beat: bool) -> subprocess.Popen[bytes]:
        argv = [PYTHON, "-m", "celery", "-A", "palace_api", "worker", "-l", "INFO", "-c", "1"]
        argv += ["-n", f"{name}-{self.port}@%h", "--without-gossip", "--without-mingle"]
        if beat:
            argv += ["-B", "-s", str(self.home / f"{name}-beat-schedule")]
        process = self._spawn(name, argv)
        wait_until(f"worker {name} is ready", lambda: "ready." in self.log(name))
        return process

    def log(self, name: str) -> str:
        path = self.home / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, name: str) -> None:
        """SIGKILL the process ``name`` and every process of its session (a worker's pool and beat)."""
        process = self.processes.pop(name)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()

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


def children_of(pid: int) -> list[int]:
    """Every descendant process of ``pid`` (Linux's /proc), deepest last."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        for task in glob.glob(f"/proc/{parent}/task/*/children"):
            try:
                kids = [int(kid) for kid in Path(task).read_text().split()]
            except OSError:
                continue
            found += kids
            pending += kids
    return found
