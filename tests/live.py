"""The app served for real, for tests that speak HTTP to it as an outside client would (the generated client,
Schemathesis): Django's server and a Celery worker in subprocesses, on a SQLite file and the embedded broker of
their own under a temporary directory, listening on 127.0.0.1 on a free port. Throttles are off: these tests
send more requests than a person would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
STAFF_NAME = "contract-staff"
STAFF_PASSWORD = "contract-staff-password-1"  # noqa: S105  (a throwaway test account)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class LiveApp:
    """``url``: the server's root (``http://127.0.0.1:<port>``); ``log``: the server's and worker's stderr."""

    url: str
    log: Path

    def staff_token(self) -> str:
        answer = httpx.post(
            f"{self.url}/api/v1/auth/token/", json={"username": STAFF_NAME, "password": STAFF_PASSWORD}, timeout=10
        )
        answer.raise_for_status()
        return answer.json()["token"]

    def player_token(self, name: str) -> str:
        answer = httpx.post(f"{self.url}/api/v1/players/", json={"name": name}, timeout=10)
        answer.raise_for_status()
        return answer.json()["token"]


@contextmanager
def live_app(directory: Path, *, worker: bool = True, debug: bool = False) -> Iterator[LiveApp]:
    """Migrate a new database in ``directory``, make a staff user, then serve until the block ends (at most
    60 s to come up); both processes are killed on the way out."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{directory / 'live.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{directory / 'live-broker.sqlite3'}",
        "DEBUG": "true" if debug else "false",
        "SECRET_KEY": "live-tests-only-not-secret",
        "DJANGO_SUPERUSER_PASSWORD": STAFF_PASSWORD,
        **{f"THROTTLE_{scope}": "none" for scope in ("ANON", "USER", "REGISTER", "LOGIN")},
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    python = sys.executable
    for argv in (
        [python, "manage.py", "migrate", "--noinput", "-v", "0"],
        [python, "manage.py", "createsuperuser", "--noinput", "--username", STAFF_NAME, "--email", "s@example.com"],
    ):
        subprocess.run(argv, cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)  # noqa: S603
    log = directory / "live.log"
    commands = [[python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]]
    if worker:
        commands.append(
            [
                python,
                "-m",
                "celery",
                "-A",
                "palace_api",
                "worker",
                "-P",
                "solo",
                "-l",
                "WARNING",
                "-n",
                f"live-{port}@%h",
            ]
        )
    processes = []
    with log.open("w") as sink:
        try:
            for argv in commands:
                processes.append(
                    subprocess.Popen(  # noqa: S603  (our own commands)
                        argv, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
                    )
                )
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                assert all(process.poll() is None for process in processes), log.read_text()[-3000:]
                try:
                    if httpx.get(f"{url}/api/v1/me/", timeout=2).status_code == 401:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the server did not come up: " + log.read_text()[-3000:]
                time.sleep(0.2)
            yield LiveApp(url=url, log=log)
        finally:
            for process in processes:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
