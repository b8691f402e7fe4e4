"""The one way tests and benchmarks start Palace API in subprocesses, and the private servers it may run on.

Every process listens on 127.0.0.1 on a free port, runs in a session of its own (so a stop reaches its children:
gunicorn's workers, Celery's pool and beat) and writes its output to a log file under a folder the caller owns.
Nothing here imports pytest: a benchmark catches :class:`ServerError`; a test lets it fail the test, and turns
:class:`ProgramMissing` into a skip where a server program may be absent (``tests/system/faults/servers.py``).

The shapes served (``WebServer(kind=...)``):

- ``"asgi"``: gunicorn with uvicorn workers, the Dockerfile's command (``palace_api.asgi:application``);
- ``"wsgi"``: gunicorn with sync workers (``palace_api.wsgi``), the shape served before ASGI;
- ``"uvicorn"``: one uvicorn process, as ``palace.py run`` serves;
- ``"runserver"``: Django's development server.
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"
KINDS = ("asgi", "wsgi", "uvicorn", "runserver")


class ServerError(Exception):
    """A server could not be set up, did not come up in time, or exited."""


class ProgramMissing(ServerError):
    """A server program (PostgreSQL's, Redis's) is not installed on this machine."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (another process may still take it before the caller binds it)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def wait_until(
    what: str,
    check: Callable[[], Any],
    *,
    timeout: float = 30.0,
    every: float = 0.1,
    alive: Callable[[], bool] | None = None,
) -> Any:
    """Call ``check`` until it returns something truthy (returned) or ``timeout`` seconds pass (:class:`ServerError`).

    An exception from ``check`` counts as not yet: a server still starting refuses connections. ``alive``: when it
    answers false (the process being waited for exited), the wait ends at once with :class:`ServerError`."""
    deadline = time.monotonic() + timeout
    while True:
        if alive is not None and not alive():
            raise ServerError(f"{what}: the process exited")
        try:
            result = check()
        except Exception:
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            raise ServerError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def app_env(**overrides: str) -> dict[str, str]:
    """The environment of an app process: this one's without pytest's, Django's and throttle variables, no debug,
    throttles off (tests and benchmarks send more requests than a person would), a per-process cache, then
    ``overrides``. Callers set ``DATABASE_URL`` and ``CELERY_BROKER_URL``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "DJANGO", "THROTTLE_"))}
    env.update(
        {
            "SECRET_KEY": "palace-subprocess-tests-only-not-secret",
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "CACHE_URL": "",
            "PYTHONDONTWRITEBYTECODE": "1",
            **{f"THROTTLE_{scope}": "none" for scope in ("ANON", "USER", "REGISTER", "LOGIN")},
            **overrides,
        }
    )
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 300.0) -> str:
    """Run ``manage.py *args`` with ``env``; its output, or :class:`ServerError` with the output if it failed."""
    result = subprocess.run(  # noqa: S603 - our own interpreter and command
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if result.returncode != 0:
        raise ServerError(f"manage.py {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


_SQLITE_TEMPLATE: list[Path] = []
"""This process's migrated SQLite database (``migrate_sqlite``), once made."""


def migrate_sqlite(env: dict[str, str]) -> None:
    """A migrated database at the SQLite file that ``env``'s ``DATABASE_URL`` names (``sqlite:///<path>``).

    ``manage.py migrate`` runs once per test process, into a file of its own (4 to 5 s of a process's CPU here,
    paid by each server a test starts on SQLite); each caller gets a copy of it. The same migrations make the same
    file, and they read nothing from the environment (no data migration does on an empty database). Raises
    :class:`ServerError` if the migration fails, ``ValueError`` for another ``DATABASE_URL``."""
    url = env["DATABASE_URL"]
    if not url.startswith("sqlite:///"):
        raise ValueError(f"not a SQLite file: {url}")
    if not _SQLITE_TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="palace-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = folder / "migrated.sqlite3"
        manage({**env, "DATABASE_URL": f"sqlite:///{template}"}, "migrate", "--noinput", "-v", "0")
        _SQLITE_TEMPLATE.append(template)
    template = _SQLITE_TEMPLATE[0]
    target = url.removeprefix("sqlite:///")
    shutil.copyfile(template, target)
    # The product's SQLite runs in WAL mode: pages not yet written back would be in the log beside the file.
    log = template.with_name(template.name + "-wal")
    if log.exists():
        shutil.copyfile(log, target + "-wal")


class Process:
    """One command in a session of its own, its output appended to ``<home>/<name>.log``; ``preexec_fn`` runs in
    the child before the command (``palace.lower_priority``, say)."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        *,
        env: dict[str, str],
        home: Path,
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.preexec_fn = preexec_fn
        self.argv = argv
        self.env = env
        self.home = Path(home)
        self.log_path = self.home / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, f"{self.name} is not started"
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def spawn(self) -> None:
        """Start the command without waiting for it to be ready."""
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and fixed commands, loopback only
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=self.preexec_fn,
            )

    def start(self) -> None:
        """Start the command and wait until it is ready (subclasses say what ready means)."""
        self.spawn()

    def log(self, chars: int = 0) -> str:
        """The process's output so far (its last ``chars`` characters if given)."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return text[-chars:] if chars else text

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self, *, grace: float = 10.0) -> None:
        """SIGTERM to the session, SIGKILL if it has not ended within ``grace`` seconds; nothing if not running."""
        if not self.alive:
            return
        assert self.process is not None
        self._signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """SIGKILL the process and every process of its session (a worker's pool and beat, gunicorn's workers)."""
        if self.process is None:
            return
        self._signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def _ready_or_fail(self, what: str, check: Callable[[], Any], timeout: float) -> None:
        """Wait for ``check``; if the process exits or the time runs out, kill it and fail with its log."""
        try:
            wait_until(what, check, timeout=timeout, every=0.2, alive=lambda: self.alive)
        except ServerError as error:
            self.kill()
            raise ServerError(f"{error}; its log ({self.log_path}):\n{self.log(3000)}") from None


def serve_argv(kind: str, port: int, *, workers: int = 2, extra: Iterable[str] = ()) -> list[str]:
    """The command that serves the app as ``kind`` (module docstring) on 127.0.0.1:``port``."""
    bind = f"{HOST}:{port}"
    if kind == "asgi":
        argv = [PYTHON, "-m", "gunicorn", "palace_api.asgi:application", "--worker-class"]
        argv += ["uvicorn_worker.UvicornWorker", "--workers", str(workers), "--bind", bind, "--graceful-timeout", "5"]
    elif kind == "wsgi":
        argv = [PYTHON, "-m", "gunicorn", "palace_api.wsgi", "--worker-class", "sync", "--workers", str(workers)]
        argv += ["--bind", bind, "--timeout", "30", "--graceful-timeout", "5"]
    elif kind == "uvicorn":
        argv = [PYTHON, "-m", "uvicorn", "palace_api.asgi:application", "--host", HOST, "--port", str(port)]
        argv += ["--timeout-graceful-shutdown", "1"]
    elif kind == "runserver":
        argv = [PYTHON, "manage.py", "runserver", bind, "--noreload"]
    else:
        raise ServerError(f"unknown server kind {kind!r}; one of {', '.join(KINDS)}")
    return [*argv, *extra]


class WebServer(Process):
    """The app served as ``kind`` on ``port`` (a free one by default); ready when ``GET ready_path`` answers
    ``ready_status``.

    ``url``: ``http://127.0.0.1:<port>``. The default readiness check (``/api/v1/me/`` without a token: 401) needs
    no database, so a server whose database is down still comes up, as in production."""

    def __init__(
        self,
        *,
        env: dict[str, str],
        home: Path,
        kind: str = "asgi",
        workers: int = 2,
        name: str | None = None,
        port: int | None = None,
        ready_path: str = "/api/v1/me/",
        ready_status: int = 401,
        start_timeout: float = 60.0,
        extra: Iterable[str] = (),
    ) -> None:
        self.kind = kind
        self.workers = workers
        self.port = port or free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.ready_path = ready_path
        self.ready_status = ready_status
        self.start_timeout = start_timeout
        argv = serve_argv(kind, self.port, workers=workers, extra=extra)
        super().__init__(name or f"web-{kind}-{self.port}", argv, env=env, home=home)

    def start(self) -> None:
        self.spawn()
        with httpx.Client(base_url=self.url, trust_env=False, timeout=2.0) as client:
            self._ready_or_fail(
                f"{self.name} answers",
                lambda: client.get(self.ready_path).status_code == self.ready_status,
                self.start_timeout,
            )


class CeleryWorker(Process):
    """``celery -A palace_api worker`` named ``<name>-<port-ish>@host``; ready when its log says ``ready.``
    (logged at INFO: with a quieter ``loglevel`` it is not waited for).

    ``queues``: ``-Q``; ``pool``/``concurrency``: ``-P``/``-c``; ``beat``: run beat inside it (``-B``), its
    schedule file under ``home``."""

    def __init__(
        self,
        *,
        env: dict[str, str],
        home: Path,
        name: str = "worker",
        queues: str | None = None,
        pool: str | None = None,
        concurrency: int | None = None,
        beat: bool = False,
        loglevel: str = "INFO",
        start_timeout: float = 60.0,
        extra: Iterable[str] = (),
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        argv = [PYTHON, "-m", "celery", "-A", "palace_api", "worker", "-l", loglevel]
        argv += ["-n", f"{name}-{free_port()}@%h", "--without-gossip", "--without-mingle"]
        if queues:
            argv += ["-Q", queues]
        if pool:
            argv += ["-P", pool]
        if concurrency:
            argv += ["-c", str(concurrency)]
        if beat:
            argv += ["-B", "-s", str(Path(home) / f"{name}-beat-schedule")]
        self.loglevel = loglevel.upper()
        self.start_timeout = start_timeout
        super().__init__(name, [*argv, *extra], env=env, home=home, preexec_fn=preexec_fn)

    def start(self) -> None:
        self.spawn()
        if self.loglevel in ("INFO", "DEBUG"):
            self._ready_or_fail(f"worker {self.name} is ready", lambda: "ready." in self.log(), self.start_timeout)


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


# --- private PostgreSQL and Redis, for tests that stop them ---


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb") and shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    raise ProgramMissing("PostgreSQL's server programs (initdb, pg_ctl) are not installed here; .ci/run installs them")


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1:``port``, trust authentication, no Unix socket, no fsync.

    PostgreSQL refuses to run as root: as root (CI) its programs run as the ``postgres`` user.
    :class:`ProgramMissing` where PostgreSQL's server programs are not installed."""

    def __init__(self) -> None:
        self.bin = _postgres_bin()
        self.port = free_port()
        self.home = Path(tempfile.mkdtemp(prefix="palace-private-pg-"))
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
            [*self.as_user, str(self.bin / program), *args], check=True, capture_output=True, cwd=self.home
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
    """A throwaway Redis on 127.0.0.1:``port`` that keeps nothing on disk: a restart loses every message.
    :class:`ProgramMissing` where ``redis-server`` is not installed."""

    def __init__(self) -> None:
        found = shutil.which("redis-server")
        if not found:
            raise ProgramMissing("redis-server is not installed here; .ci/run installs it")
        self.server = found
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - a fixed program, loopback only
            [self.server, "--bind", HOST, "--port", str(self.port), "--save", "", "--appendonly", "no"],
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

        return redis.Redis(host=HOST, port=self.port, socket_timeout=2)

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"
