"""Live streams at scale: many open SSE connections while games are played, against polling with ETags.

Run from the repository root with PostgreSQL and Redis up on loopback (``DATABASE_URL``, default CI's;
``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/9``, a database this script empties)::

    .venv/bin/python -m benchmarks.bench_streams [--connections 1000] [--games 50] [--duration 30]

One bounded run on 127.0.0.1 only: a fresh PostgreSQL database and the Dockerfile's server (gunicorn with one
uvicorn worker, ASGI) on a free port, fanning out through Redis pub/sub. ``--games`` heads-up Palace Poker
matches between two people; ``--connections`` clients (asyncio, in this process), each following one game's
stream (``GET games/{id}/stream/``) as one of its players.

1. Streams: the clients connect (the server's memory is read before and after: memory per connection); then for
   ``--duration`` seconds a driver in this process plays the games through ``games.services`` at a steady pace,
   noting when each decision's commit returned; each client notes when each entry reached it. Delivery latency
   = arrival - commit, over every (entry, client). Target: p99 < 500 ms.
2. Polling: the same clients, streams closed, each polls its player's ``me/turns/`` every ``--poll`` seconds
   (0.5 s: the freshness the target asks of streams) with ``If-None-Match`` (a 304 while no turn came or went),
   while the driver plays as before. Staleness = for each decision that hands a client's seat the turn, the time
   from its commit to the client's first answer that shows it.

For each phase: the server's CPU seconds per wall second, requests answered, and the latency or staleness
percentiles, and their ratios (polling / streams). Exit 0 if the streams' p99 is under 500 ms and every client
received every entry, 1 if not, 2 if the run failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import redis

from benchmarks.bench_http import (
    DEFAULT_DATABASE_URL,
    HOST,
    LOOPBACK_NAMES,
    BenchError,
    free_port,
    fresh_database,
    loopback_url,
    machine,
    migrate,
    percentile,
    server_environment,
    with_database,
)

ROOT = Path(__file__).resolve().parent.parent
TARGET_P99_MS = 500.0
OPTIONS = {"first_dealer": 1, "starting_stack": 10**7, "small_bet": 1, "big_bet": 2, "max_hands": 10**6}
CONNECT_TIMEOUT = 120.0


def raise_file_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its children (the gunicorn arbiter and its worker), KiB."""
    total = 0
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(child) for child in task.read_text().split()]
    for one in pids:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its children so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(child) for child in task.read_text().split()]
    total = 0.0
    for one in pids:
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


class Server:
    """gunicorn palace_api.asgi:application with one uvicorn worker, in its own session."""

    def __init__(self, env: dict[str, str], workdir: Path) -> None:
        self.port = free_port()
        log = open(workdir / "server.log", "ab")
        command = [sys.executable, "-m", "gunicorn", "palace_api.asgi:application"]
        command += ["--worker-class", "uvicorn_worker.UvicornWorker", "--workers", "1", "--bind", f"{HOST}:{self.port}"]
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and fixed arguments
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.base}/api/schema/", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise BenchError("the server did not start")
            time.sleep(0.3)

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # Open streams hold a graceful shutdown for its whole timeout: the run is over, so no need to wait.
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


def make_games(count: int) -> list[tuple[int, list[tuple[object, str]]]]:
    """``count`` started heads-up matches: (game id, [(user, token) of seat 0, of seat 1])."""
    from games.services import game_create, seat_take
    from players.services import player_register

    out = []
    for _ in range(count):
        players = [player_register(name=f"s-{uuid.uuid4().hex[:10]}") for _ in range(2)]
        game = game_create(creator=players[0][0], kind="palace-poker", seats=2, options=OPTIONS)
        for seat, (user, _) in enumerate(players):
            seat_take(game_id=game.pk, player=user, seat=seat)
        out.append((game.pk, players))
    return out


class Driver(threading.Thread):
    """Plays every game a decision at a time, round robin, at ``rate`` decisions per second, for ``duration``
    seconds; ``committed[(game, version)]`` = when the service returned (``time.monotonic()``), ``to_act[(game,
    version)]`` = the seats whose decision it was then."""

    def __init__(self, games: list, *, rate: float, duration: float) -> None:
        super().__init__(daemon=True)
        self.games, self.rate, self.duration = games, rate, duration
        self.committed: dict[tuple[int, int], float] = {}
        self.to_act: dict[tuple[int, int], list[int]] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as error:  # reported by the main thread
            self.error = error

    def _play(self) -> None:
        from django.db import connection

        from games.models import Game, Seat
        from games.selectors.state import engine_of, game_state
        from games.services import action_submit

        started = time.monotonic()
        decisions = 0
        while time.monotonic() - started < self.duration:
            for game_id, players in self.games:
                if time.monotonic() - started >= self.duration:
                    break
                seat = Seat.objects.filter(game_id=game_id, to_act=True).values_list("number", flat=True).first()
                if seat is None:
                    continue
                game = Game.objects.get(pk=game_id)
                legal = {a["type"]: a for a in engine_of(game).view(game_state(game), seat)["legal_actions"]}
                if "stay" in legal:
                    body: dict = {"type": "stay"}
                elif "call" in legal:
                    body = {"type": "call"}
                elif "discard" in legal:
                    body = {"type": "discard", "cards": legal["discard"]["cards"][: legal["discard"]["min_cards"]]}
                else:
                    body = {"type": next(iter(legal))}
                result = action_submit(user=players[seat][0], game_id=game_id, **body)
                now = time.monotonic()
                for version in range(game.version + 1, result.version + 1):
                    self.committed[(game_id, version)] = now
                self.to_act[(game_id, result.version)] = list(result.to_act)
                decisions += 1
                pause = started + decisions / self.rate - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
        connection.close()


async def follow(base: str, game_id: int, token: str, after: int, arrivals: dict, ready: asyncio.Event,
                 connected: list[int], stop: asyncio.Event) -> None:  # fmt: skip
    """One client: the game's stream from ``after``; notes when each entry id arrives."""
    headers = {"Authorization": f"Token {token}", "Last-Event-ID": str(after)}
    timeout = httpx.Timeout(connect=CONNECT_TIMEOUT, read=None, write=30, pool=CONNECT_TIMEOUT)
    async with httpx.AsyncClient(timeout=timeout) as client:
        async with client.stream("GET", f"{base}/api/v1/games/{game_id}/stream/", headers=headers) as answer:
            if answer.status_code != 200:
                raise BenchError(f"a stream answered {answer.status_code}")
            connected[0] += 1
            if connected[0] == connected[1]:
                ready.set()
            # Read until the task is cancelled at the end of the phase (a timeout per line would close the
            # line iterator).
            async for line in answer.aiter_lines():
                if line.startswith("id:"):
                    arrivals.setdefault((game_id, int(line[3:].strip())), []).append(time.monotonic())


async def poll(base: str, game_id: int, token: str, every: float, seen: list, counts: list[int],
               stop: asyncio.Event) -> None:  # fmt: skip
    """One client: its player's ``me/turns/`` every ``every`` seconds with If-None-Match; ``seen`` gets (version of
    the game's turn or None, when) for each full answer; ``counts[0]`` counts requests, ``counts[1]`` the failed
    ones and the answers neither 200 nor 304."""
    headers = {"Authorization": f"Token {token}"}
    async with httpx.AsyncClient(timeout=30) as client:
        etag = None
        while not stop.is_set():
            sent = time.monotonic()
            try:
                answer = await client.get(
                    f"{base}/api/v1/me/turns/", headers={**headers, **({"If-None-Match": etag} if etag else {})}
                )
            except httpx.HTTPError:  # a timeout of an overloaded server: counted, and the client polls on
                counts[0] += 1
                counts[1] += 1
                continue
            counts[0] += 1
            if answer.status_code not in (200, 304):
                counts[1] += 1
            if answer.status_code == 200:
                etag = answer.headers.get("ETag")
                version = next((turn["version"] for turn in answer.json() if turn["game"] == game_id), None)
                seen.append((version, time.monotonic()))
            await asyncio.sleep(max(0.0, every - (time.monotonic() - sent)))


def latencies(committed: dict, arrivals: dict, clients_per_game: dict) -> tuple[list[float], int]:
    """Seconds from commit to each arrival, and how many (entry, client) arrivals were missing."""
    out, missing = [], 0
    for (game_id, version), at in committed.items():
        got = arrivals.get((game_id, version), [])
        out += [arrival - at for arrival in got]
        missing += max(0, clients_per_game[game_id] - len(got))
    return out, missing


def staleness(committed: dict, to_act: dict, seen_by_client: list[tuple[int, int, list]]) -> list[float]:
    """For each decision that handed a polling client's seat the turn: seconds until that client's first answer
    showing the turn at that version or a later one (turns no poll showed before the end are left out)."""
    out = []
    by_game: dict[int, list[tuple[int, list]]] = {}
    for game_id, seat, seen in seen_by_client:
        by_game.setdefault(game_id, []).append((seat, seen))
    for (game_id, version), seats in to_act.items():
        at = committed[(game_id, version)]
        for seat, seen in by_game.get(game_id, []):
            if seat not in seats:
                continue
            shown = [when for got, when in seen if got is not None and got >= version and when >= at]
            if shown:
                out.append(min(shown) - at)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=20.0, help="decisions per second over all games")
    parser.add_argument("--poll", type=float, default=0.5)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except BenchError as error:
        print(f"bench_streams: {error}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace) -> int:
    admin_url = loopback_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
    if (urlsplit(redis_url).hostname or "") not in LOOPBACK_NAMES:
        raise BenchError("BENCH_REDIS_URL must name a Redis server on loopback")
    raise_file_limit(4 * args.connections + 1024)
    name = f"palace_bench_streams_{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp, fresh_database(admin_url, name):
        workdir = Path(tmp)
        env = server_environment(with_database(admin_url, name), "palace_api.settings", workdir)
        # As docker-compose.yml's web service: a connection pool, since the ASGI server runs each request's
        # synchronous part in a thread of its own.
        env.update({"CELERY_BROKER_URL": redis_url, "STREAMS_REDIS_URL": redis_url, "DATABASE_POOL_MAX_SIZE": "20"})
        client = redis.Redis.from_url(redis_url)
        client.flushdb()
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        from games.models import Game

        games = make_games(args.games)
        server = Server(env, workdir)
        try:
            result = asyncio.run(phases(args, server, games, Game))
        finally:
            server.stop()
            client.flushdb()
    return report(args, result)


async def phases(args: argparse.Namespace, server: Server, games: list, game_model) -> dict:
    """Both phases against one server; returns what ``report`` prints."""
    from asgiref.sync import sync_to_async

    watchers = [(games[index % len(games)], index % 2) for index in range(args.connections)]
    clients_per_game = {game_id: 0 for game_id, _ in games}
    for (game_id, _), _ in watchers:
        clients_per_game[game_id] += 1
    versions = {
        game_id: version
        for game_id, version in await sync_to_async(
            lambda: list(game_model.objects.values_list("id", "version")), thread_sensitive=False
        )()
    }
    memory_before = rss_kib(server.process.pid)
    arrivals: dict = {}
    ready, stop = asyncio.Event(), asyncio.Event()
    connected = [0, args.connections]
    tasks = [
        asyncio.create_task(
            follow(server.base, game_id, players[seat][1], versions[game_id], arrivals, ready, connected, stop)
        )  # fmt: skip
        for (game_id, players), seat in watchers
    ]
    try:
        await asyncio.wait_for(ready.wait(), timeout=CONNECT_TIMEOUT)
    except TimeoutError as error:
        raise BenchError(f"only {connected[0]} of {args.connections} streams connected") from error
    await asyncio.sleep(2)
    memory_after = rss_kib(server.process.pid)
    cpu_before, started = cpu_seconds(server.process.pid), time.monotonic()
    driver = Driver(games, rate=args.rate, duration=args.duration)
    driver.start()
    while driver.is_alive():
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # the last entries on their way
    stream_cpu = (cpu_seconds(server.process.pid) - cpu_before) / (time.monotonic() - started)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if driver.error:
        raise BenchError(f"the driver failed: {driver.error!r}")
    stream_latency, missing = latencies(driver.committed, arrivals, clients_per_game)

    stop = asyncio.Event()
    counts = [0, 0]
    seen_by_client: list[tuple[int, int, list]] = [(game_id, seat, []) for (game_id, _), seat in watchers]
    polls = [
        asyncio.create_task(
            poll(server.base, game_id, players[seat][1], args.poll, seen_by_client[index][2], counts, stop)
        )  # fmt: skip
        for index, ((game_id, players), seat) in enumerate(watchers)
    ]
    await asyncio.sleep(args.poll * 2)
    cpu_before, started, counted = cpu_seconds(server.process.pid), time.monotonic(), counts[0]
    driver = Driver(games, rate=args.rate, duration=args.duration)
    driver.start()
    while driver.is_alive():
        await asyncio.sleep(0.2)
    await asyncio.sleep(args.poll * 2)
    elapsed = time.monotonic() - started
    poll_cpu = (cpu_seconds(server.process.pid) - cpu_before) / elapsed
    poll_rate = (counts[0] - counted) / elapsed
    stop.set()
    await asyncio.gather(*polls, return_exceptions=True)
    return {
        "memory_per_connection_kib": (memory_after - memory_before) / args.connections,
        "stream_latency": stream_latency,
        "stream_missing": missing,
        "stream_entries": len(driver.committed),
        "stream_cpu": stream_cpu,
        "poll_staleness": staleness(driver.committed, driver.to_act, seen_by_client),
        "poll_cpu": poll_cpu,
        "poll_rate": poll_rate,
        "poll_errors": counts[1],
    }


def report(args: argparse.Namespace, result: dict) -> int:
    stream50, stream99 = (percentile(result["stream_latency"], q) * 1000 for q in (0.5, 0.99))
    poll50, poll99 = (percentile(result["poll_staleness"], q) * 1000 for q in (0.5, 0.99))
    print(f"machine: {machine()}")
    print(
        f"{args.connections} connections over {args.games} games, {args.rate:.0f} decisions/s for {args.duration:.0f} s"
    )
    print(f"memory per open stream (server RSS): {result['memory_per_connection_kib']:.1f} KiB")
    print(
        f"streams: delivery p50 {stream50:.1f} ms, p99 {stream99:.1f} ms over {len(result['stream_latency'])} "
        f"arrivals, {result['stream_missing']} missing; server CPU {result['stream_cpu']:.2f} s/s"
    )
    print(
        f"polling me/turns/ every {args.poll} s with ETags: staleness p50 {poll50:.1f} ms, p99 {poll99:.1f} ms; "
        f"{result['poll_rate']:.0f} requests/s ({result['poll_errors']} failed or neither 200 nor 304); "
        f"server CPU {result['poll_cpu']:.2f} s/s"
    )
    print(
        f"ratios polling/streams: p50 {poll50 / stream50:.1f}x, p99 {poll99 / stream99:.1f}x, "
        f"server CPU {result['poll_cpu'] / max(result['stream_cpu'], 1e-9):.1f}x"
    )
    ok = stream99 < TARGET_P99_MS and result["stream_missing"] == 0
    print(f"target streams p99 < {TARGET_P99_MS:.0f} ms with nothing missing: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
