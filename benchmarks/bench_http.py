"""Palace Poker played over loopback HTTP by concurrent clients, next to a bare Django + DRF ceiling.

Run from the repository root, with PostgreSQL and Redis up (``DATABASE_URL`` names a loopback server and a role
that may create databases; the default is CI's; ``BENCH_REDIS_URL`` the broker's Redis database, emptied at the
start and the end, ``redis://127.0.0.1:6379/10`` by default)::

    .venv/bin/python -m benchmarks.bench_http [--duration 10] [--warmup 3] [--clients 1,8] [--shapes asgi,wsgi]
        [--rounds 1]

One run, bounded in time and in requests, on 127.0.0.1 only:

1. creates a fresh PostgreSQL database (``palace_bench_<pid>``) and runs ``manage.py migrate`` on it;
2. for each server shape, first the one the Dockerfile ships (``asgi``: gunicorn with 2 uvicorn workers, a
   database pool of at most 20 connections per process as docker-compose.yml's web service), then ``wsgi``
   (gunicorn with 2 sync workers, persistent connections, ``?conn_max_age=600``), serves two apps that way on
   free loopback ports through ``tests.servers``, ``DEBUG=false``, throttles off: the product
   (``palace_api.settings``) and the ceiling (``benchmarks.bare.settings``: the product's settings plus
   ``POST /bare/``, which authenticates with the same token authentication, parses the JSON body and inserts
   one row in a transaction), then steps 3 and 4, then stops both;
3. registers players and seats each game client at its own heads-up Palace Poker match (``first_dealer``
   0, large stacks, ``max_hands`` large), and gives each ceiling client a token;
4. for each client count (1, then 8; threads, one ``httpx.Client`` each): the ceiling, then the game,
   each for ``--warmup`` seconds not counted and ``--duration`` seconds counted (with ``--rounds N``: the
   two alternate N times, each round ``--duration / N`` seconds counted after a warm-up, the first round's
   ``--warmup``, a second in later ones; the rounds' requests are pooled, so that the machine's speed, which
   drifts within a minute on a shared machine, weighs on both alike). A game client loops:
   ``GET /api/v1/games/{id}/`` as the seat it expects to act (again as the other seat if it guessed
   wrong), picks a cheap legal action (mostly stay; buy then discard; bet then call or fold) and
   ``POST .../actions/`` with ``expected_version``; when the POST's answer (``to_act``, the caller's
   ``legal_actions``) says the same seat decides again, as after a buy, it acts on that without a GET.
   A ceiling client loops ``POST /bare/``.
5. counts with Django's ``CaptureQueriesContext`` the SQL queries of a few requests of each kind
   (in this process, Django's test client on the same database);
6. drops the database, whatever happened.

It prints, per shape, accepted actions/s and the p50/p99 latency of the ``POST .../actions/`` requests at
each client count, the ceiling's inserts/s and latencies, the ratios ours/ceiling, and the load average. Exit 0
if every target is met on the shipped (ASGI) server, 1 if one is missed (ours >= 0.5 x the ceiling's
throughput and ours/ceiling POST p99 <= 1.5, at each client count; the WSGI figures are printed beside, without
targets), 2 if a request failed or the run could not be set up.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from benchmarks.harness import (
    DEFAULT_DATABASE_URL,
    HOST,
    LOOPBACK_NAMES,
    BenchError,
    Server,
    choose_action,
    cpu_seconds,
    free_port,
    fresh_database,
    load_average,
    loopback_url,
    machine,
    migrate,
    percentile,
    raise_interrupt,
    ratio,
    server_environment,
    with_database,
)
from tests.servers import children_of

# The names other benchmarks imported from here before ``benchmarks.harness`` held them.
__all__ = [
    "DEFAULT_DATABASE_URL",
    "HOST",
    "LOOPBACK_NAMES",
    "BenchError",
    "Server",
    "choose_action",
    "free_port",
    "fresh_database",
    "loopback_url",
    "machine",
    "migrate",
    "percentile",
    "server_environment",
    "with_database",
]

TARGET_THROUGHPUT_RATIO = 0.5
"""Ours at least this fraction of the ceiling's accepted POSTs/s, on the shipped server, at every client count."""
TARGET_P99_RATIO = 1.5
"""Ours' POST p99 at most this multiple of the ceiling's, on the shipped server, at every client count."""
SHAPES = ("asgi", "wsgi")
"""The shipped server first (the Dockerfile's: gunicorn with uvicorn workers, a database pool), then gunicorn's
sync workers with persistent connections (what this benchmark measured before), whose figures are printed beside."""
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/10"
"""The broker's Redis database when ``BENCH_REDIS_URL`` is unset; the run empties it at its start and end."""
POOL_SIZE = "20"
"""``DATABASE_POOL_MAX_SIZE`` of the ASGI servers, as docker-compose.yml's web service."""

LATER_ROUND_WARMUP = 1.0
"""Seconds not counted before each round after the first (``--rounds``): the servers are warm by then."""
HTTP_TIMEOUT = 10.0
"""Seconds any one request may take before the client gives up on it."""
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
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds in the counted window, per ``CPU_GROUPS``

    @property
    def rate(self) -> float:
        return self.accepted / self.duration

    def post_ms(self, q: float) -> float:
        return percentile(self.posts, q) * 1000

    def get_ms(self, q: float) -> float:
        return percentile(self.gets, q) * 1000 if self.gets else float("nan")

    def pooled(self, other: PhaseResult) -> PhaseResult:
        """This phase and ``other`` (another round of it) as one: their counted seconds and requests together."""
        return PhaseResult(
            label=self.label,
            clients=self.clients,
            duration=self.duration + other.duration,
            posts=self.posts + other.posts,
            accepted=self.accepted + other.accepted,
            rejected=self.rejected + other.rejected,
            gets=self.gets + other.gets,
            cpu={group: self.cpu.get(group, 0.0) + other.cpu.get(group, 0.0) for group in {*self.cpu, *other.cpu}},
        )

    def cpu_ms(self, group: str) -> float:
        """Milliseconds of CPU ``group`` spent per accepted POST in the counted window."""
        return 1000 * self.cpu.get(group, 0.0) / max(1, self.accepted)


def run_phase(
    label: str,
    players: list[Player],
    *,
    warmup: float,
    duration: float,
    probe: Callable[[], dict[str, float]] | None = None,
) -> PhaseResult:
    """Every player loops in its own thread for ``warmup + duration`` seconds; the last ``duration`` count.
    ``probe``: read at the counted window's start and end, its difference is the result's ``cpu``."""
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
    cpu: dict[str, float] = {}
    if probe is not None:
        time.sleep(max(0.0, window["start"] - time.perf_counter()))
        before = probe()
        time.sleep(max(0.0, window["stop"] - time.perf_counter()))
        cpu = {group: seconds - before.get(group, 0.0) for group, seconds in probe().items()}
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
        cpu=cpu,
    )


CPU_GROUPS = {
    "servers": "both apps' server processes",
    "postgres": "PostgreSQL",
    "redis": "Redis",
    "clients": "this process (the clients)",
}
"""The processes whose CPU time each phase counts (``cpu_probe``); one side's clients run at a time, so the
other app's server idles and the database and Redis work for the side measured (and whatever else runs)."""


def _named(name: str) -> list[int]:
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == name:
                found.append(int(comm.parent.name))
        except (OSError, ValueError):
            continue
    return found


def cpu_probe(server_pids: list[int]) -> Callable[[], dict[str, float]]:
    """A reading of the CPU seconds spent so far by each of ``CPU_GROUPS`` (Linux's /proc): the servers' process
    trees, every process called ``postgres`` and ``redis-server``, and this process. Processes that end between
    two readings (none in a phase: pooled and persistent connections) are not counted."""

    def read() -> dict[str, float]:
        servers = [pid for root in server_pids for pid in (root, *children_of(root))]
        return {
            "servers": sum(cpu_seconds(pid) for pid in servers),
            "postgres": sum(cpu_seconds(pid) for pid in _named("postgres")),
            "redis": sum(cpu_seconds(pid) for pid in _named("redis-server")),
            "clients": cpu_seconds("self"),
        }

    return read


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
    import logging

    logging.getLogger("palace.requests").setLevel(logging.WARNING)  # a line per request would bury the figures
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


def print_results(results: dict[tuple[str, str, int], PhaseResult], client_counts: list[int]) -> list[str]:
    """Print the figures and ratios of each server shape; return the shipped server's missed targets."""
    print()
    header = f"{'':30} {'clients':>7} {'accepted/s':>10} {'POST p50':>9} {'POST p99':>9} {'GET p50':>8} {'rejected':>8}"
    missed = []
    for shape in SHAPES:
        if ("ours", shape, client_counts[0]) not in results:
            continue
        print(f"{SHAPE_NAMES[shape]}:\n{header}")
        for count in client_counts:
            for label, name in (("ours", "  ours (POST .../actions/)"), ("bare", "  ceiling (POST /bare/)")):
                r = results[(label, shape, count)]
                gets = f"{r.get_ms(0.5):6.2f}ms" if r.gets else f"{'-':>8}"
                print(
                    f"{name:30} {count:7} {r.rate:10.1f} {r.post_ms(0.5):7.2f}ms {r.post_ms(0.99):7.2f}ms "
                    f"{gets} {r.rejected:8}"
                )
        for count in client_counts:
            ours, bare = results[("ours", shape, count)], results[("bare", shape, count)]
            throughput = ratio(ours.rate, bare.rate)
            p99 = ratio(ours.post_ms(0.99), bare.post_ms(0.99))
            requests = ours.accepted + len(ours.gets)
            print(
                f"  {count} client(s): ours/ceiling throughput {throughput:.3f}x, POST p50 "
                f"{ratio(ours.post_ms(0.5), bare.post_ms(0.5)):.2f}x, p99 {p99:.2f}x; ours served "
                f"{requests / ours.duration:.1f} requests/s "
                f"({len(ours.gets) / max(1, ours.accepted):.2f} GETs per action)"
            )
            if ours.cpu and bare.cpu:
                parts = ", ".join(
                    f"{name} {ours.cpu_ms(group):.2f} / {bare.cpu_ms(group):.2f}" for group, name in CPU_GROUPS.items()
                )
                total = sum(ours.cpu_ms(group) for group in CPU_GROUPS), sum(bare.cpu_ms(group) for group in CPU_GROUPS)
                print(f"    CPU ms an action / an insert: {parts}; all {total[0]:.2f} / {total[1]:.2f}")
            if shape != SHAPES[0]:
                continue  # the figures beside: no targets
            for name, value, ok in (
                (
                    f"throughput ratio at {count} client(s) >= {TARGET_THROUGHPUT_RATIO}",
                    throughput,
                    throughput >= TARGET_THROUGHPUT_RATIO,
                ),
                (f"POST p99 ratio at {count} client(s) <= {TARGET_P99_RATIO}", p99, p99 <= TARGET_P99_RATIO),
            ):
                print(f"    {'PASS' if ok else 'FAIL'}  {name}: {value:.2f}")
                if not ok:
                    missed.append(name)
        print()
    return missed


SHAPE_NAMES = {
    "asgi": "gunicorn + uvicorn workers, database pool (the Dockerfile's server; targets)",
    "wsgi": "gunicorn sync workers, persistent connections (beside)",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--duration", type=float, default=10.0, help="counted seconds per phase (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="uncounted seconds before each phase (default 3)")
    parser.add_argument("--clients", default="1,8", help="client counts, comma-separated (default 1,8)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="ceiling and game alternated this many times per client count (default 1)"
    )
    parser.add_argument("--show-queries", action="store_true", help="print the SQL of one POST action")
    parser.add_argument(
        "--shapes", default=",".join(SHAPES), help="servers to measure, comma-separated (default asgi,wsgi)"
    )
    args = parser.parse_args(argv)
    client_counts = sorted({int(part) for part in args.clients.split(",") if part.strip()})
    args.shapes = [shape for shape in SHAPES if shape in args.shapes.split(",")]
    if not args.shapes:
        parser.error(f"--shapes: one or more of {', '.join(SHAPES)}")
    if not client_counts or min(client_counts) < 1 or max(client_counts) > 32:
        parser.error("--clients: 1 to 32")
    if not 0 < args.duration <= 120 or not 0 <= args.warmup <= 60:
        parser.error("--duration: up to 120 s; --warmup: up to 60 s")
    if not 1 <= args.rounds <= 20 or args.duration / args.rounds < 1:
        parser.error("--rounds: 1 to 20, each of at least 1 s counted")

    # SIGTERM ends the run through the same clean-up as Ctrl-C.
    signal.signal(signal.SIGTERM, raise_interrupt)
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


def measure_shape(
    shape: str,
    args: argparse.Namespace,
    client_counts: list[int],
    envs: dict[str, dict[str, str]],
    workdir: Path,
    counters: Counters,
) -> tuple[dict[tuple[str, str, int], PhaseResult], list[Table], str]:
    """Serve the product and the ceiling as ``shape`` (``tests.servers``), seat fresh tables, and run every phase.

    Returns the phases' results, the tables played and a ceiling client's token (for counting queries)."""
    results: dict[tuple[str, str, int], PhaseResult] = {}
    most = max(client_counts)
    with ExitStack() as stack:
        servers = {label: Server(label, env, workdir, kind=shape) for label, env in envs.items()}
        for server in servers.values():
            stack.callback(server.stop)
            server.start()
        print(f"{shape}: ours on {servers['ours'].base_url}, ceiling on {servers['bare'].base_url}")
        with http_client(servers["ours"].base_url) as setup:
            tables = [
                new_table(setup, [register(setup, f"{shape}p{number}s{seat}") for seat in range(2)])
                for number in range(most)
            ]
            bare_tokens = [register(setup, f"{shape}bare{number}") for number in range(most)]
        game_players = [
            GamePlayer(servers["ours"].base_url, table, SEED + number, counters) for number, table in enumerate(tables)
        ]
        bare_players = [BarePlayer(servers["bare"].base_url, token) for token in bare_tokens]
        for player in [*game_players, *bare_players]:
            stack.callback(player.close)
        phases: list[tuple[str, list[Player]]] = [("bare", bare_players), ("ours", game_players)]
        probe = cpu_probe([server.pid for server in servers.values()])
        for count in client_counts:
            for round_ in range(args.rounds):
                warmup = args.warmup if round_ == 0 else min(args.warmup, LATER_ROUND_WARMUP)
                for label, players in phases:
                    result = run_phase(
                        f"{shape}-{label}-{count}",
                        players[:count],
                        warmup=warmup,
                        duration=args.duration / args.rounds,
                        probe=probe,
                    )
                    earlier = results.get((label, shape, count))
                    results[(label, shape, count)] = result if earlier is None else earlier.pooled(result)
                    print(
                        f"  {shape} {label:4} {count} client(s){f' round {round_ + 1}' if args.rounds > 1 else ''}: "
                        f"{result.rate:7.1f}/s, POST p99 {result.post_ms(0.99):6.2f} ms (load average {load_average()})"
                    )
    return results, tables, bare_tokens[0]


def run(args: argparse.Namespace, client_counts: list[int], admin_url: str) -> int:
    import redis

    db_name = f"palace_bench_{os.getpid()}"
    redis_url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS_URL)
    if (urlsplit(redis_url).hostname or "") not in LOOPBACK_NAMES:
        raise BenchError("BENCH_REDIS_URL must name a Redis server on loopback")
    broker = redis.Redis.from_url(redis_url)
    with ExitStack() as stack:
        broker.flushdb()
        stack.callback(broker.flushdb)
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="palace-bench-")))
        print(f"Database {db_name} (dropped at the end); server logs in {workdir} (removed at the end)")
        stack.enter_context(fresh_database(admin_url, db_name))
        wsgi_ours = server_environment(
            with_database(admin_url, db_name, "conn_max_age=600"), "palace_api.settings", workdir
        )
        # The broker and the streams' fan-out on Redis, as docker-compose.yml: each action's publish costs what
        # it costs there. No worker takes the messages; the database is emptied at the end.
        wsgi_ours["CELERY_BROKER_URL"] = redis_url
        # The shipped shape as docker-compose.yml's web service: the pool, and the cache (throttle counters, the
        # game views' versions) shared on Redis, where each read and renewal costs a round trip.
        asgi_ours = {
            **wsgi_ours,
            "DATABASE_URL": with_database(admin_url, db_name),
            "DATABASE_POOL_MAX_SIZE": POOL_SIZE,
            "CACHE_URL": redis_url,
        }
        envs = {
            shape: {"ours": env, "bare": {**env, "DJANGO_SETTINGS_MODULE": "benchmarks.bare.settings"}}
            for shape, env in (("asgi", asgi_ours), ("wsgi", wsgi_ours))
        }
        migrate(envs["wsgi"]["bare"])  # the product's tables and the ceiling's one table
        results: dict[tuple[str, str, int], PhaseResult] = {}
        counters = Counters()
        for shape in args.shapes:
            measured, tables, bare_token = measure_shape(shape, args, client_counts, envs[shape], workdir, counters)
            results.update(measured)

        missed = print_results(results, client_counts)
        print(f"Load average after the measurements: {load_average()} (other processes share the CPUs)")
        if counters.new_games:
            print(f"Matches that ended and were replaced: {counters.new_games}")
        queries = count_queries(envs["wsgi"]["bare"], tables, bare_token, args.show_queries)
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
