"""Load clients of ``bench_streams``, in a process of their own: many open SSE streams, or many ``me/turns/`` pollers.

Run by ``benchmarks/bench_streams.py`` (not by hand)::

    python -m benchmarks.stream_clients --mode stream|poll --port P --plan plan.json --out out.json
        [--every 0.5] [--max-seconds 300]

``plan.json``: a list of ``{"game": id, "token": clear token, "after": seq}``, one per connection. Each connection
is plain HTTP/1.1 on asyncio's sockets to 127.0.0.1 (no client library: ten thousand of them must stay cheap).
The process prints ``connected <n> <failed>`` once every connection is open (streams) or has had its first answer
(pollers), then runs until a line ``stop`` on stdin or ``--max-seconds``, and writes ``out.json``:

- ``stream``: ``{"arrivals": [[seq, t], ...] per connection, "errors": n}``: each entry id as it arrived;
- ``poll``: ``{"requests": [[sent, seconds or -1, status], ...] per connection, "errors": n}``: every request,
  ``-1`` and status 0 when it failed or went unanswered for ``ANSWER_TIMEOUT`` seconds.

Times are ``time.monotonic()``, which every process on the machine shares (Linux's ``CLOCK_MONOTONIC``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CONNECTING_AT_ONCE = 200
"""Connections being opened at the same time: more would overflow the server's listen backlog."""
ANSWER_TIMEOUT = 10.0
RAMP_SECONDS = 20.0


def raise_file_limit(wanted: int) -> None:
    """Raise this process's open-file limit to ``wanted`` (at most the hard limit): a socket is a file."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def request(path: str, token: str, **headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", f"Authorization: Token {token}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def first_of(*events: asyncio.Event) -> None:
    """Return once one of ``events`` is set."""
    waits = [asyncio.create_task(event.wait()) for event in events]
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for wait in waits:
        wait.cancel()


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """A response's status and headers (names lower-cased). Raises ``ConnectionError`` on a closed connection."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding") == "chunked":
        body = b""
        while size := int((await reader.readline()).strip(), 16):
            body += await reader.readexactly(size + 2)
        await reader.readline()
        return body
    return b""


class Streams:
    """Each connection follows one game's stream from ``after``, noting each ``id:`` line with its arrival time."""

    def __init__(self, port: int, plan: list[dict[str, Any]]) -> None:
        self.port, self.plan = port, plan
        self.arrivals: list[list[list[float]]] = [[] for _ in plan]
        self.errors = 0
        self.open = 0

    async def one(self, index: int, gate: asyncio.Semaphore, settled: asyncio.Event) -> None:
        item = self.plan[index]
        path = f"/api/v1/games/{item['game']}/stream/"
        writer: asyncio.StreamWriter | None = None
        counted = False
        try:
            async with gate:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, self.port, limit=2**20), 120)
                writer.write(request(path, item["token"], Last_Event_ID=str(item["after"])))
                status, _ = await asyncio.wait_for(read_head(reader), 120)
            counted = self._opened(settled)
            if status != 200:
                raise ConnectionError(f"status {status}")
            got = self.arrivals[index]
            while line := await reader.readline():
                if line.startswith(b"id: "):
                    got.append([int(line[4:]), time.monotonic()])
        except (OSError, TimeoutError, ValueError, IndexError):
            self.errors += 1
            if not counted:
                self._opened(settled)
        finally:
            if writer is not None:
                writer.close()

    def _opened(self, settled: asyncio.Event) -> bool:
        """Count one connection settled (open, or failed to open); the last one sets ``settled``."""
        self.open += 1
        if self.open == len(self.plan):
            settled.set()
        return True

    async def run(self, stop: asyncio.Event) -> None:
        gate, settled = asyncio.Semaphore(CONNECTING_AT_ONCE), asyncio.Event()
        tasks = [asyncio.create_task(self.one(index, gate, settled)) for index in range(len(self.plan))]
        await first_of(settled, stop)
        print(f"connected {len(self.plan) - self.errors} {self.errors}", flush=True)
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def result(self) -> dict[str, Any]:
        return {"arrivals": self.arrivals, "errors": self.errors}


class Pollers:
    """Each connection polls its player's ``me/turns/`` every ``every`` seconds with the ``ETag`` it last got."""

    def __init__(self, port: int, plan: list[dict[str, Any]], every: float) -> None:
        self.port, self.plan, self.every = port, plan, every
        self.requests: list[list[list[float]]] = [[] for _ in plan]
        self.errors = 0
        self.answered = 0

    async def one(self, index: int, stop: asyncio.Event, settled: asyncio.Event) -> None:
        token, log = self.plan[index]["token"], self.requests[index]
        etag: str | None = None
        connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        # Clients arrive over ``RAMP_SECONDS``, as real ones do, not all within one period.
        await asyncio.sleep(random.uniform(0, RAMP_SECONDS))
        while not stop.is_set():
            sent = time.monotonic()
            try:
                if connection is None:
                    connection = await asyncio.wait_for(asyncio.open_connection(HOST, self.port), ANSWER_TIMEOUT)
                reader, writer = connection
                extra = {"If_None_Match": etag} if etag else {}
                writer.write(request("/api/v1/me/turns/", token, **extra))
                status, headers = await asyncio.wait_for(read_head(reader), ANSWER_TIMEOUT)
                await asyncio.wait_for(read_body(reader, headers), ANSWER_TIMEOUT)
                log.append([sent, time.monotonic() - sent, status])
                etag = headers.get("etag", etag)
            except (OSError, TimeoutError, ValueError, IndexError, asyncio.IncompleteReadError):
                log.append([sent, -1, 0])
                self.errors += 1
                if connection is not None:
                    connection[1].close()
                connection = None
            if len(log) == 1:
                self.answered += 1
                if self.answered == len(self.plan):
                    settled.set()
            await asyncio.sleep(max(0.0, self.every - (time.monotonic() - sent)))
        if connection is not None:
            connection[1].close()

    async def run(self, stop: asyncio.Event) -> None:
        settled = asyncio.Event()
        tasks = [asyncio.create_task(self.one(index, stop, settled)) for index in range(len(self.plan))]
        await first_of(settled, stop)
        print(f"connected {len(self.plan)} {self.errors}", flush=True)
        await stop.wait()
        await asyncio.gather(*tasks, return_exceptions=True)

    def result(self) -> dict[str, Any]:
        return {"requests": self.requests, "errors": self.errors}


class ClientProcesses:
    """The parent's side: processes of this module in one mode, ``plan`` split between them in order, at most
    ``per_process`` connections each, each stopped by ``bound`` seconds at the latest."""

    def __init__(
        self, mode: str, port: int, plan: list[dict], *, per_process: int, workdir: Path, bound: float, every: float
    ) -> None:
        self.processes: list[subprocess.Popen[str]] = []
        self.outs: list[Path] = []
        for first in range(0, len(plan), per_process):
            plan_path, out = workdir / f"{mode}-{first}.json", workdir / f"{mode}-{first}-out.json"
            plan_path.write_text(json.dumps(plan[first : first + per_process]))
            command = [sys.executable, "-m", "benchmarks.stream_clients", "--mode", mode, "--port", str(port)]
            command += ["--plan", str(plan_path), "--out", str(out), "--every", str(every)]
            command += ["--max-seconds", str(bound)]
            self.processes.append(
                subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # noqa: S603
            )
            self.outs.append(out)

    def connected(self) -> tuple[int, int]:
        """Wait until every process has its connections open: (open, failed) over all of them."""
        opened = failed = 0
        for process in self.processes:
            assert process.stdout is not None
            line = process.stdout.readline().split()  # each process bounds its own wait (the bound)
            if len(line) != 3 or line[0] != "connected":
                raise RuntimeError(f"a client process did not connect (exit code {process.poll()})")
            opened, failed = opened + int(line[1]), failed + int(line[2])
        return opened, failed

    def stop(self) -> list[dict[str, Any]]:
        for process in self.processes:
            assert process.stdin is not None
            try:
                process.stdin.write("stop\n")
                process.stdin.flush()
            except BrokenPipeError:
                pass  # it stopped at its bound already
        for process in self.processes:
            process.wait(timeout=120)
        if any(not out.exists() for out in self.outs):
            raise RuntimeError("a client process ended without its results")
        return [json.loads(out.read_text()) for out in self.outs]

    def kill(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    plan = json.loads(open(args.plan).read())
    clients = Streams(args.port, plan) if args.mode == "stream" else Pollers(args.port, plan, args.every)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_stdin() -> None:
        line = sys.stdin.readline()
        if not line or line.strip() == "stop":
            stop.set()

    loop.add_reader(sys.stdin.fileno(), on_stdin)
    loop.call_later(args.max_seconds, stop.set)
    await clients.run(stop)
    return clients.result()


def _loop_factory() -> Any:
    """uvloop's event loop where it is installed (the server's uvicorn uses it too): the clients then take less of
    the CPU the server shares with them. asyncio's own loop otherwise."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> int:
    parser = argparse.ArgumentParser(description="bench_streams' load clients (run by bench_streams)")
    parser.add_argument("--mode", choices=["stream", "poll"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--plan", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--every", type=float, default=0.5)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    args = parser.parse_args()
    raise_file_limit(len(json.loads(open(args.plan).read())) + 256)
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        result = runner.run(main_async(args))
    with open(args.out, "w") as out:
        json.dump(result, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
