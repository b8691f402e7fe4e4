"""The app served for real, for tests that speak HTTP to it as an outside client would (the generated client,
Schemathesis): Django's server and a Celery worker in subprocesses, on a SQLite file and the embedded broker of
their own under a temporary directory, listening on 127.0.0.1 on a free port. Throttles are off: these tests
send more requests than a person would."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.servers import CeleryWorker, WebServer, app_env, free_port, manage, migrate_sqlite

STAFF_NAME = "contract-staff"
STAFF_PASSWORD = "contract-staff-password-1"  # noqa: S105  (a throwaway test account)


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
    env = app_env(
        DATABASE_URL=f"sqlite:///{directory / 'live.sqlite3'}",
        CELERY_BROKER_URL=f"sqla+sqlite:///{directory / 'live-broker.sqlite3'}",
        DEBUG="true" if debug else "false",
        DJANGO_SUPERUSER_PASSWORD=STAFF_PASSWORD,
    )
    migrate_sqlite(env)
    manage(env, "createsuperuser", "--noinput", "--username", STAFF_NAME, "--email", "s@example.com", timeout=120)
    with ExitStack() as stack:
        web = WebServer(env=env, home=directory, kind="runserver", name="live-web")
        stack.callback(web.kill)
        web.start()
        if worker:
            celery = CeleryWorker(env=env, home=directory, name="live-worker", pool="solo", loglevel="WARNING")
            stack.callback(celery.kill)
            celery.start()
        yield LiveApp(url=web.url, log=web.log_path)


__all__ = ["STAFF_NAME", "STAFF_PASSWORD", "LiveApp", "free_port", "live_app"]
