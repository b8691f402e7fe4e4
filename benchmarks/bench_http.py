"""Palace Poker played over loopback HTTP by concurrent clients, next to a bare Django + DRF ceiling.

Run from the repository root, with PostgreSQL up (``DATABASE_URL`` names a loopback server and a role
that may create databases; the default is CI's)::

    .venv/bin/python -m benchmarks.bench_http [--duration 10] [--warmup 3] [--clients 1,8]

One run, bounded in time and in requests, on 127.0.0.1 only:

1. creates a fresh PostgreSQL database (``palace_bench_<pid>``) and runs ``manage.py migrate`` on it;
2. starts two gunicorn servers, each ``-w 2`` sync workers on a free loopback port, persistent
   database connections (``?conn_max_age=600`` in ``DATABASE_URL``), ``DEBUG=false``, throttles off:
   the product (``palace_api.settings``) and the ceiling (``benchmarks.bare.settings``: the product's
   settings plus ``POST /bare/``, which authenticates with the same knox token, parses the JSON body and
   inserts one row in a transaction);
3. registers players and seats each game client at its own heads-up Palace Poker match (``first_dealer``
   0, large stacks, ``max_hands`` large), and gives each ceiling client a token;
4. for each client count (1, then 8; threads, one ``httpx.Client`` each): the ceiling, then the game,
   each for ``--warmup`` seconds not counted and ``--duration`` seconds counted. A game client loops:
   ``GET /api/v1/games/{id}/`` as the seat it expects to act (again as the other seat if it guessed
   wrong), picks a cheap legal action (mostly stay; buy then discard; bet then call or fold) and
   ``POST .../actions/`` with ``expected_version``; when the POST's answer (``to_act``, the caller's
   ``legal_actions``) says the same seat decides again, as after a buy, it acts on that without a GET.
   A ceiling client loops ``POST /bare/``.
5. counts with Django's ``CaptureQueriesContext`` the SQL queries of a few requests of each kind
   (in this process, Django's test client on the same database);
6. stops both servers and drops the database, whatever happened.

It prints accepted actions/s and the p50/p99 latency of the ``POST .../actions/`` requests at each
client count, the ceiling's inserts/s and latencies, and the ratios ours/ceiling. Exit 0 if every
target is met, 1 if one is missed (ours >= 0.5 x the ceiling's throughput at each client count,
POST p99 <= 15 ms at 1 client and <= 50 ms at 8), 2 if a request failed or the run could not be set up.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}
DEFAULT_DATABASE_URL = "postgres://palace:palace-ci@127.0.0.1:5432/palace"

TARGET_THROUGHPUT_RATIO = 0.5
TARGET_P99_MS = {1: 15.0, 8: 50.0}

HTTP_TIMEOUT = 10.0
"""Seconds any one request may take before the client gives up on it."""
SERVER_START_TIMEOUT = 60.0
MIGRATE_TIMEOUT = 300.0
MAX_REQUESTS_PER_CLIENT = 200_000
"""A bound on each client's loop per phase, beside the time bound."""
MAX_NEW_GAMES = 50
"""A client whose match ends starts another, at most this many times per run."""
SEED = 20261122

GAME_OPTIONS = {
    "betting": "limit",
    "small_bet": 5,
    "big_bet": 10,
    "ante": 2,
    "starting_stack": 10**9,
    "first_dealer": 0,
    "max_hands": 10**6,
}


class BenchError(Exception):
    """The run could not be set up, or a server misbehaved."""


# --- the database ---


def loopback_url(url: str) -> str:
    """``url`` unchanged if it names a PostgreSQL server on loopback; refuses anything else."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        raise BenchError(f"DATABASE_URL must name a PostgreSQL server (got scheme {parts.scheme!r})")
    if (parts.hostname or "") not in LOOPBACK_NAMES:
        raise BenchError(f"DATABASE_URL must name a server on loopback, not {parts.hostname!r}")
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


# --- the servers ---


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_environment(database_url: str, settings_module: str, workdir: Path) -> dict[str, str]:
    """The servers' environment: the bench database with persistent connections, no debug, no throttles."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "THROTTLE_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": settings_module,
            "DATABASE_URL": database_url,
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            "THROTTLE_USER": "none",
            "THROTTLE_ANON": "none",
            "THROTTLE_REGISTER": "none",
            "THROTTLE_LOGIN": "none",
            "CACHE_URL": "locmemcache://",
            # Nothing here queues a task (no bots, no turn timeouts); if something did, it stays in this run.
            "CELERY_BROKER_URL": f"sqla+sqlite:///{workdir / 'broker.sqlite3'}",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    return env


class Server:
    """``gunicorn palace_api.wsgi -w 2 -b 127.0.0.1:<port>`` in its own process group."""

    def __init__(self, name: str, env: dict[str, str], workdir: Path, workers: int = 2) -> None:
        self.name = name
        self.env = env
        self.port = free_port()
        self.log_path = workdir / f"gunicorn-{name}.log"
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "palace_api.wsgi",
            "--workers",
            str(self.workers),
            "--worker-class",
            "sync",
            "--bind",
            f"{HOST}:{self.port}",
            "--timeout",
            "30",
            "--graceful-timeout",
            "5",
            "--error-logfile",
            str(self.log_path),
        ]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and fixed arguments
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        with httpx.Client(base_url=self.base_url, trust_env=False, timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise BenchError(f"gunicorn ({self.name}) exited at start:\n{self.log_tail()}")
                try:
                    if client.get("/api/v1/me/").status_code == 401:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
        raise BenchError(f"gunicorn ({self.name}) did not answer within {SERVER_START_TIMEOUT:.0f} s")

    def stop(self) -> None:
        """SIGTERM to the server's process group, SIGKILL if it is still there after 10 s."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                return
            try:
                process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def migrate(env: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=MIGRATE_TIMEOUT,
        check=False,
    )
    if result.returncode != 0:
        raise BenchError(f"manage.py migrate failed:\n{result.stdout}\n{result.stderr}")


# --- clients ---


@dataclass(slots=True)
class Sample:
    kind: str  # "post" (an action, or a ceiling insert) or "get"
    end: float
    seconds: float
    status: int


@dataclass
class Table:
    game_id: int
    tokens: list[str]


def http_client(base_url: str) -> httpx.Client:
    # trust_env=False: no proxy from the environment stands between us and loopback.
    return httpx.Client(base_url=base_url, trust_env=False, timeout=HTTP_TIMEOUT)


def expect(response: httpx.Response, status: int, what: str) -> Any:
    if response.status_code != status:
        raise BenchError(f"{what}: HTTP {response.status_code} {response.text[:300]}")
    return response.json() if response.content else None


def register(client: httpx.Client, name: str) -> str:
    return expect(client.post("/api/v1/players/", json={"name": name}), 201, f"register {name}")["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def new_table(client: httpx.Client, tokens: list[str]) -> Table:
    body = {"kind": "palace-poker", "seats": len(tokens), "options": GAME_OPTIONS}
    game = expect(client.post("/api/v1/games/", json=body, headers=auth(tokens[0])), 201, "create a game")
    for seat, token in enumerate(tokens):
        expect(
            client.post(f"/api/v1/games/{game['id']}/seats/", json={"seat": seat}, headers=auth(token)),
            201,
            f"take seat {seat}",
        )
    return Table(game_id=game["id"], tokens=tokens)


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


class Player:
    """One client thread's loop body; ``step`` makes one request cycle and appends its samples."""

    def step(self, samples: list[Sample]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class GamePlayer(Player):
    """Plays both seats of one heads-up match: GET as the seat expected to act, then POST its decision."""

    def __init__(self, base_url: str, table: Table, seed: int, counters: Counters) -> None:
        self.client = http_client(base_url)
        self.table = table
        self.rng = random.Random(seed)
        self.seat = 0
        self.counters = counters
        self.headers = [auth(token) for token in table.tokens]
        self.answered: dict[str, Any] | None = None

    def close(self) -> None:
        self.client.close()

    def _get(self, seat: int, samples: list[Sample]) -> dict[str, Any] | None:
        start = time.perf_counter()
        response = self.client.get(f"/api/v1/games/{self.table.game_id}/", headers=self.headers[seat])
        end = time.perf_counter()
        samples.append(Sample("get", end, end - start, response.status_code))
        if response.status_code != 200:
            self.counters.error(f"GET game: {response.status_code} {response.text[:200]}")
            return None
        return response.json()

    def step(self, samples: list[Sample]) -> None:
        view = self.answered or self._get(self.seat, samples)
        self.answered = None
        if view is None:
            return
        if view["status"] == "finished":
            if self.counters.take_new_game():
                self.table = new_table(self.client, self.table.tokens)
            return
        if view["to_act"] != [self.seat]:
            if len(view["to_act"]) != 1:
                self.counters.error(f"nobody to act at version {view['version']}")
                return
            self.seat = view["to_act"][0]
            self.counters.wrong_guesses += 1
            view = self._get(self.seat, samples)
            if view is None or view["to_act"] != [self.seat]:
                self.counters.error("the seat to act changed between two GETs")
                return
        body = {**choose_action(view, self.rng), "expected_version": view["version"]}
        start = time.perf_counter()
        response = self.client.post(
            f"/api/v1/games/{self.table.game_id}/actions/", json=body, headers=self.headers[self.seat]
        )
        end = time.perf_counter()
        samples.append(Sample("post", end, end - start, response.status_code))
        if response.status_code != 201:
            self.counters.error(f"POST {body}: {response.status_code} {response.text[:200]}")
            return
        # The answer says whose decision it is now and what the caller may do: when it is the caller's again (a
        # buyer owes a discard), that is the view of the next step, with no GET.
        result = response.json()
        if result["to_act"] == [self.seat] and result["legal_actions"]:
            self.answered = {"status": "active", **result}
            return
        # A guess at the next decision's seat: a buyer owes a discard; otherwise mostly the other seat.
        if body["type"] != "buy":
            self.seat = 1 - self.seat


class BarePlayer(Player):
    """The ceiling: ``POST /bare/`` with a small JSON body and the same kind of token."""

    def __init__(self, base_url: str, token: str) -> None:
        self.client = http_client(base_url)
        self.headers = auth(token)
        self.count = 0

    def close(self) -> None:
        self.client.close()

    def step(self, samples: list[Sample]) -> None:
        self.count += 1
        start = time.perf_counter()
        response = self.client.post("/bare/", json={"n": self.count}, headers=self.headers)
        end = time.perf_counter()
        samples.append(Sample("post", end, end - start, response.status_code))


@dataclass
class Counters:
    lock: threading.Lock = field(default_factory=threading.Lock)
    errors: list[str] = field(default_factory=list)
    error_count: int = 0
    wrong_guesses: int = 0
    new_games: int = 0

    def error(self, text: str) -> None:
        with self.lock:
            self.error_count += 1
            if len(self.errors) < 10:
                self.errors.append(text)

    def take_new_game(self) -> bool:
        with self.lock:
            if self.new_games >= MAX_NEW_GAMES:
                return False
            self.new_games += 1
            return True


@dataclass
class PhaseResult:
    label: str
    clients: int
    duration: float
    posts: list[float]  # seconds, requests that ended in the window
    accepted: int
    rejected: int
    gets: list[float]

    @property
    def rate(self) -> float:
        return self.accepted / self.duration

    def post_ms(self, q: float) -> float:
        return percentile(self.posts, q) * 1000

    def get_ms(self, q: float) -> float:
        return percentile(self.gets, q) * 1000 if self.gets else float("nan")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(q * len(ordered) + 0.5) - 1))
    return ordered[index]


def run_phase(label: str, players: list[Player], *, warmup: float, duration: float) -> PhaseResult:
    """Every player loops in its own thread for ``warmup + duration`` seconds; the last ``duration`` count."""
    barrier = threading.Barrier(len(players) + 1)
    window: dict[str, float] = {}
    per_thread: list[list[Sample]] = [[] for _ in players]
    failures: list[BaseException] = []

    def loop(player: Player, samples: list[Sample]) -> None:
        try:
            barrier.wait(timeout=30)
            stop_at = window["stop"]
            for _ in range(MAX_REQUESTS_PER_CLIENT):
                if time.perf_counter() >= stop_at:
                    break
                player.step(samples)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [
        threading.Thread(target=loop, args=(player, samples), daemon=True, name=f"{label}-{number}")
        for number, (player, samples) in enumerate(zip(players, per_thread, strict=True))
    ]
    for thread in threads:
        thread.start()
    now = time.perf_counter()
    window.update(start=now + warmup, stop=now + warmup + duration)
    barrier.wait(timeout=30)
    for thread in threads:
        thread.join(timeout=warmup + duration + 2 * HTTP_TIMEOUT + 5)
    if any(thread.is_alive() for thread in threads):
        raise BenchError(f"{label}: a client thread did not stop")
    if failures:
        raise BenchError(f"{label}: a client failed: {failures[0]!r}")
    counted = [s for samples in per_thread for s in samples if window["start"] <= s.end <= window["stop"]]
    posts = [s for s in counted if s.kind == "post"]
    return PhaseResult(
        label=label,
        clients=len(players),
        duration=duration,
        posts=[s.seconds for s in posts],
        accepted=sum(1 for s in posts if s.status == 201),
        rejected=sum(1 for s in posts if s.status != 201),
        gets=[s.seconds for s in counted if s.kind == "get"],
    )


# --- queries per request, counted in this process ---


def count_queries(env: dict[str, str], tables: list[Table], bare_token: str, show: bool) -> dict[str, float]:
    """SQL queries per request of each kind, with Django's test client on the bench database.

    Uses a game of its own (seated by the clients' players of the first table) so the served games
    are not disturbed. The per-process state cache of this process starts empty, as a gunicorn
    worker's does for a game the other worker played last.
    """
    os.environ.update({key: value for key, value in env.items() if key != "DJANGO_SETTINGS_MODULE"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.bare.settings"
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    tokens = tables[0].tokens
    clients = [Client(HTTP_AUTHORIZATION=f"Token {token}") for token in tokens]
    game = clients[0].post(
        "/api/v1/games/", {"kind": "palace-poker", "seats": 2, "options": GAME_OPTIONS}, "application/json"
    )
    game_id = game.json()["id"]
    for seat, client in enumerate(clients):
        client.post(f"/api/v1/games/{game_id}/seats/", {"seat": seat}, "application/json")
    rng = random.Random(SEED)
    counts: dict[str, list[int]] = {"GET game": [], "POST action": [], "POST /bare/": []}
    shown = False
    for _ in range(30):
        view = clients[0].get(f"/api/v1/games/{game_id}/").json()
        seat = view["to_act"][0]
        with CaptureQueriesContext(connection) as got:
            view = clients[seat].get(f"/api/v1/games/{game_id}/").json()
        counts["GET game"].append(len(got.captured_queries))
        body = {**choose_action(view, rng), "expected_version": view["version"]}
        with CaptureQueriesContext(connection) as posted:
            response = clients[seat].post(f"/api/v1/games/{game_id}/actions/", body, "application/json")
        if response.status_code != 201:
            raise BenchError(f"counting queries: POST {body}: {response.status_code} {response.content[:200]!r}")
        counts["POST action"].append(len(posted.captured_queries))
        if show and not shown and body["type"] == "stay":
            shown = True
            print(f"\nSQL of one POST .../actions/ ({body['type']}):")
            for number, query in enumerate(posted.captured_queries, 1):
                print(f"  {number:2}. {query['sql'][:150]}")
    bare = Client(HTTP_AUTHORIZATION=f"Token {bare_token}")
    for n in range(10):
        with CaptureQueriesContext(connection) as got:
            bare.post("/bare/", {"n": n}, "application/json")
        counts["POST /bare/"].append(len(got.captured_queries))
    connection.close()
    return {kind: statistics.mean(values) for kind, values in counts.items()}


# --- the run ---


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, load average {load:.2f}"


def print_results(results: dict[tuple[str, int], PhaseResult], client_counts: list[int]) -> list[str]:
    """Print the figures and ratios; return the missed targets."""
    print()
    print(f"{'':28} {'clients':>7} {'accepted/s':>10} {'POST p50':>9} {'POST p99':>9} {'GET p50':>8} {'rejected':>8}")
    for count in client_counts:
        for label, name in (("ours", "ours (POST .../actions/)"), ("bare", "ceiling (POST /bare/)")):
            r = results[(label, count)]
            gets = f"{r.get_ms(0.5):6.2f}ms" if r.gets else f"{'-':>8}"
            print(
                f"{name:28} {count:7} {r.rate:10.1f} {r.post_ms(0.5):7.2f}ms {r.post_ms(0.99):7.2f}ms "
                f"{gets} {r.rejected:8}"
            )
    print()
    missed = []
    for count in client_counts:
        ours, bare = results[("ours", count)], results[("bare", count)]
        ratio = ours.rate / bare.rate if bare.rate else float("nan")
        requests = ours.accepted + len(ours.gets)
        print(
            f"{count} client(s): ours/ceiling throughput {ratio:.3f}x (target >= {TARGET_THROUGHPUT_RATIO}); "
            f"ours/ceiling POST p50 {ours.post_ms(0.5) / bare.post_ms(0.5):.2f}x, "
            f"p99 {ours.post_ms(0.99) / bare.post_ms(0.99):.2f}x; "
            f"ours served {requests / ours.duration:.1f} requests/s ({len(ours.gets) / max(1, ours.accepted):.2f} "
            f"GETs per action): {requests / ours.duration / bare.rate:.3f}x the ceiling's requests/s"
        )
        checks = [
            (f"throughput ratio at {count} client(s)", ratio, TARGET_THROUGHPUT_RATIO, ratio >= TARGET_THROUGHPUT_RATIO)
        ]
        if count in TARGET_P99_MS:
            p99 = ours.post_ms(0.99)
            checks.append(
                (f"POST p99 at {count} client(s) (ms)", p99, TARGET_P99_MS[count], p99 <= TARGET_P99_MS[count])
            )
        for name, value, target, ok in checks:
            sign = ">=" if "ratio" in name else "<="
            print(f"  {'PASS' if ok else 'FAIL'}  {name}: {value:.2f} (target {sign} {target})")
            if not ok:
                missed.append(name)
    return missed


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--duration", type=float, default=10.0, help="counted seconds per phase (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="uncounted seconds before each phase (default 3)")
    parser.add_argument("--clients", default="1,8", help="client counts, comma-separated (default 1,8)")
    parser.add_argument("--show-queries", action="store_true", help="print the SQL of one POST action")
    args = parser.parse_args(argv)
    client_counts = sorted({int(part) for part in args.clients.split(",") if part.strip()})
    if not client_counts or min(client_counts) < 1 or max(client_counts) > 32:
        parser.error("--clients: 1 to 32")
    if not 0 < args.duration <= 120 or not 0 <= args.warmup <= 60:
        parser.error("--duration: up to 120 s; --warmup: up to 60 s")

    # SIGTERM ends the run through the same clean-up as Ctrl-C.
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"Machine: {machine()}")
    try:
        admin_url = loopback_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        return run(args, client_counts, admin_url)
    except BenchError as error:
        print(f"\nbench_http: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nbench_http: interrupted; servers stopped and database dropped", file=sys.stderr)
        return 130


def run(args: argparse.Namespace, client_counts: list[int], admin_url: str) -> int:
    db_name = f"palace_bench_{os.getpid()}"
    bench_url = with_database(admin_url, db_name, "conn_max_age=600")
    most = max(client_counts)
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="palace-bench-")))
        print(f"Database {db_name} (dropped at the end); gunicorn logs in {workdir} (removed at the end)")
        stack.enter_context(fresh_database(admin_url, db_name))
        env_ours = server_environment(bench_url, "palace_api.settings", workdir)
        env_bare = {**env_ours, "DJANGO_SETTINGS_MODULE": "benchmarks.bare.settings"}
        migrate(env_bare)  # the product's tables and the ceiling's one table
        servers = {"ours": Server("ours", env_ours, workdir), "bare": Server("bare", env_bare, workdir)}
        for server in servers.values():
            stack.callback(server.stop)
            server.start()
        print(f"gunicorn -w 2 (sync): ours on {servers['ours'].base_url}, ceiling on {servers['bare'].base_url}")

        with http_client(servers["ours"].base_url) as setup:
            tables = [
                new_table(setup, [register(setup, f"p{number}s{seat}") for seat in range(2)]) for number in range(most)
            ]
            bare_tokens = [register(setup, f"bare{number}") for number in range(most)]
        counters = Counters()
        game_players = [
            GamePlayer(servers["ours"].base_url, table, SEED + number, counters) for number, table in enumerate(tables)
        ]
        bare_players = [BarePlayer(servers["bare"].base_url, token) for token in bare_tokens]
        for player in [*game_players, *bare_players]:
            stack.callback(player.close)

        results: dict[tuple[str, int], PhaseResult] = {}
        phases: list[tuple[str, list[Player]]] = [("bare", bare_players), ("ours", game_players)]
        for count in client_counts:
            for label, players in phases:
                result = run_phase(f"{label}-{count}", players[:count], warmup=args.warmup, duration=args.duration)
                results[(label, count)] = result
                print(f"  {label:4} {count} client(s): {result.rate:7.1f}/s, POST p99 {result.post_ms(0.99):6.2f} ms")
        for server in servers.values():
            server.stop()

        missed = print_results(results, client_counts)
        print(f"Load average after the measurements: {os.getloadavg()[0]:.2f} (other processes share the 2 cores)")
        if counters.new_games:
            print(f"Matches that ended and were replaced: {counters.new_games}")
        queries = count_queries(env_bare, tables, bare_tokens[0], args.show_queries)
        print(
            "\nSQL queries per request (Django's test client, same database): "
            + ", ".join(f"{kind} {value:.1f}" for kind, value in queries.items())
        )
        rejected = sum(r.rejected for r in results.values())
        if counters.error_count or rejected:
            print(f"\nFAIL: {counters.error_count} client error(s), {rejected} rejected POST(s):", file=sys.stderr)
            for text in counters.errors:
                print(f"  {text}", file=sys.stderr)
            return 2
        if missed:
            print(f"\nFAIL: {len(missed)} target(s) missed: {', '.join(missed)}")
            return 1
        print("\nPASS: every target met")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
