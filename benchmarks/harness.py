"""What every benchmark shares: a fresh PostgreSQL database on loopback, the app's environment, the app served in
subprocesses (``tests.servers``, the one helper tests use too), timing, percentiles, ratio lines and a line about
the machine and its load.

Benchmarks run on a machine other people load: figures vary from run to run, so each benchmark compares against a
baseline measured in the same run, and prints the load average beside its figures.
"""

from __future__ import annotations

import math
import os
import platform
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

from tests.servers import (
    HOST,
    ROOT,
    CeleryWorker,
    Process,
    ServerError,
    WebServer,
    app_env,
    free_port,
    manage,
)

__all__ = [
    "DEFAULT_DATABASE_URL",
    "HOST",
    "LOOPBACK_NAMES",
    "ROOT",
    "BenchError",
    "CeleryWorker",
    "Process",
    "Server",
    "WebServer",
    "choose_action",
    "free_port",
    "fresh_database",
    "guarded",
    "load_average",
    "loopback_url",
    "machine",
    "migrate",
    "percentile",
    "ratio",
    "redis_url",
    "server_environment",
    "timed",
    "with_database",
]

LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}
DEFAULT_DATABASE_URL = "postgres://palace:palace-ci@127.0.0.1:5432/palace"

BenchError = ServerError
"""The run could not be set up, or a server misbehaved (the subprocess helper's error, so one ``except`` covers
both)."""


# --- the database ---


def loopback_url(url: str) -> str:
    """``url`` unchanged if it names a PostgreSQL server on loopback; :class:`BenchError` for anything else."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        raise BenchError(f"DATABASE_URL must name a PostgreSQL server (got scheme {parts.scheme!r})")
    if (parts.hostname or "") not in LOOPBACK_NAMES:
        raise BenchError(f"DATABASE_URL must name a server on loopback, not {parts.hostname!r}")
    return url


def redis_url(default: str) -> str:
    """``BENCH_REDIS_URL``, else ``default``: the Redis database a benchmark's broker uses (and empties);
    :class:`BenchError` unless it names a server on loopback."""
    url = os.environ.get("BENCH_REDIS_URL", default)
    if (urlsplit(url).hostname or "") not in LOOPBACK_NAMES:
        raise BenchError("BENCH_REDIS_URL must name a Redis server on loopback")
    return url


def with_database(url: str, name: str, query: str = "") -> str:
    """``url`` pointing at database ``name``, with ``query`` as its query string."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", query, ""))


def libpq_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(("postgresql", parts.netloc, parts.path, "", ""))


@contextmanager
def fresh_database(admin_url: str, name: str) -> Iterator[None]:
    """Create database ``name`` (dropping a leftover of the same name first) and drop it on exit."""

    def drop() -> None:
        with psycopg.connect(libpq_url(admin_url), autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    drop()
    with psycopg.connect(libpq_url(admin_url), autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield
    finally:
        drop()


# --- the app ---


def server_environment(database_url: str, settings_module: str, workdir: Path) -> dict[str, str]:
    """The app's environment for a benchmark: ``database_url``, no debug, no throttles, a per-process cache, a
    fresh secret, and an embedded broker under ``workdir`` (benchmarks that need Redis set their own)."""
    return app_env(
        DJANGO_SETTINGS_MODULE=settings_module,
        DATABASE_URL=database_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        CACHE_URL="locmemcache://",
        # Nothing queues a task unless the benchmark says so; if something did, it stays in this run.
        CELERY_BROKER_URL=f"sqla+sqlite:///{workdir / 'broker.sqlite3'}",
    )


def migrate(env: dict[str, str]) -> None:
    """``manage.py migrate`` with ``env``; :class:`BenchError` with its output if it fails."""
    manage(env, "migrate", "--no-input", "-v", "0")


class Server(WebServer):
    """The app served as ``kind`` (``tests.servers``: "asgi" is the Dockerfile's, "wsgi" gunicorn's sync
    workers) with ``workers`` workers, named ``name`` in its log file; ``base_url`` is its root."""

    def __init__(self, name: str, env: dict[str, str], workdir: Path, workers: int = 2, *, kind: str = "wsgi") -> None:
        super().__init__(env=env, home=workdir, kind=kind, workers=workers, name=f"{kind}-{name}")

    @property
    def base_url(self) -> str:
        return self.url

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])


# --- a client's decision ---


def choose_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A cheap legal decision: mostly stay; sometimes buy (then keep every soldier the rules allow), bet
    (then call, fold or raise), rarely fold the hand."""
    legal = {action["type"]: action for action in view["legal_actions"]}
    roll = rng.random()
    if "call" in legal:  # a battle's responder
        if "raise" in legal and roll < 0.1:
            return {"type": "raise"}
        return {"type": "call"} if roll < 0.75 else {"type": "fold"}
    if set(legal) == {"discard"}:  # the discard step after a buy or a won battle
        discard = legal["discard"]
        return {"type": "discard", "cards": discard["cards"][: discard["min_cards"]]}
    if "bet" in legal and roll < 0.15:
        return {"type": "bet", "target": legal["bet"]["targets"][0]["seat"]}
    if "buy" in legal and roll < 0.40:
        return {"type": "buy"}
    if roll > 0.98 and "fold" in legal:
        return {"type": "fold"}
    return {"type": "stay"}


# --- figures ---


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method (the smallest value with at least ``q`` of the values at
    or below it: rank ``ceil(q * n)``); NaN for no values. Every benchmark's percentiles come from here."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def timed(run: Callable[[], Any], reps: int) -> float:
    """The median of ``reps`` runs of ``run``, in seconds."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ratio(ours: float, baseline: float) -> float:
    """``ours / baseline``; NaN where the baseline is 0 or NaN."""
    return ours / baseline if baseline else float("nan")


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as ``1.23 / 1.50 / 1.40``."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


def cpu_seconds(pid: int | str) -> float:
    """User + system CPU seconds process ``pid`` (``"self"``: this one) has spent so far, from Linux's /proc; 0 if
    it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def machine() -> str:
    """CPUs, CPU model, Python version and the load average now: a line to print beside any figure."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, load average {load_average()}"


def raise_interrupt(signum: int, frame: Any) -> None:
    """A signal handler (for SIGTERM, or SIGINT where a parent started the run with SIGINT ignored) that stops a
    benchmark as Ctrl-C does: it raises ``KeyboardInterrupt`` so that the run cleans up and reports what it has."""
    raise KeyboardInterrupt


def guarded(name: str, run: Callable[[], int]) -> int:
    """``run()``'s exit status; a :class:`BenchError` (a run that could not be set up, a server that misbehaved)
    is printed as ``name: error`` on standard error, status 2."""
    try:
        return run()
    except BenchError as error:
        print(f"\n{name}: {error}", file=sys.stderr)
        return 2
