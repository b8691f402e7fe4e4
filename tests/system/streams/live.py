"""A live Palace API for stream tests: uvicorn (ASGI) on a free 127.0.0.1 port over a private SQLite file and the
embedded broker, as the run command serves it; an SSE reader; a simple policy that plays a seat over HTTP."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """uvicorn serving ``palace_api.asgi`` on 127.0.0.1:``port``; ``env`` adds to the test environment."""

    def __init__(self, home: Path, **env: str) -> None:
        self.home = home
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/api/v1/"
        self.env = {
            **{key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "DJANGO"))},
            "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{home / 'broker.sqlite3'}",
            "STREAMS_REDIS_URL": "none",
            "SECRET_KEY": "palace-stream-tests-only",
            "DEBUG": "false",
            "CACHE_URL": "",
            "THROTTLE_ANON": "none",
            "THROTTLE_USER": "none",
            "THROTTLE_REGISTER": "none",
            "STREAMS_HEARTBEAT_SECONDS": "1",
            "STREAMS_POLL_SECONDS": "0.2",
            **env,
        }
        migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
        subprocess.run(migrate, cwd=ROOT, env=self.env, check=True, capture_output=True)  # noqa: S603 - our own
        self.log_path = home / "uvicorn.log"
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(  # noqa: S603 - our own fixed command, loopback only
            [sys.executable, "-m", "uvicorn", "palace_api.asgi:application", "--host", "127.0.0.1"]
            + ["--port", str(self.port), "--timeout-graceful-shutdown", "1"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, self.log()
            try:
                if httpx.get(self.base + "games/", timeout=2).status_code == 401:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "uvicorn did not come up: " + self.log()
            time.sleep(0.2)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Token {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=10)

    def player(self, name: str) -> httpx.Client:
        """A registered player's client."""
        answer = httpx.post(self.base + "players/", json={"name": name}, timeout=10)
        assert answer.status_code == 201, answer.text
        return self.client(answer.json()["token"])

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@dataclass
class Sse:
    """One Server-Sent Event as received (``data`` parsed as JSON), or a comment (``comment``)."""

    id: str | None = None
    event: str | None = None
    data: Any = None
    comment: str | None = None
    raw: list[str] = field(default_factory=list)


def read_sse(response: httpx.Response) -> Iterator[Sse]:
    """The events and comments of an open ``text/event-stream`` response, as they arrive."""
    current = Sse()
    for line in response.iter_lines():
        if line == "":
            if current.raw:
                yield current
            current = Sse()
            continue
        current.raw.append(line)
        if line.startswith(":"):
            yield Sse(comment=line[1:].strip(), raw=[line])
            current = Sse()
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "id":
            current.id = value
        elif name == "event":
            current.event = value
        elif name == "data":
            current.data = json.loads(value)


def act_if_due(client: httpx.Client, game_id: int) -> bool:
    """Make the seat's decision if it is due (a plain policy: stay, else the first legal action); whether it did."""
    view = client.get(f"games/{game_id}/").json()
    if view["status"] != "active" or view["viewer"] not in view["to_act"]:
        return False
    legal = {action["type"]: action for action in view["legal_actions"]}
    if not legal:
        return False
    body: dict[str, Any] = {"type": "stay"} if "stay" in legal else {"type": next(iter(legal))}
    if body["type"] == "discard":
        body["cards"] = legal["discard"]["cards"][: legal["discard"]["min_cards"]]
    answer = client.post(f"games/{game_id}/actions/", json={**body, "expected_version": view["version"]})
    assert answer.status_code in (201, 409), answer.text
    return answer.status_code == 201


def new_poker_game(creator: httpx.Client, *others: httpx.Client) -> int:
    """A one-hand Palace Poker game of the creator and ``others``, every seat taken (so started)."""
    game = creator.post("games/", json={"kind": "palace-poker", "seats": 1 + len(others), "options": {"max_hands": 1}})
    assert game.status_code == 201, game.text
    game_id = int(game.json()["id"])
    for client in (creator, *others):
        assert client.post(f"games/{game_id}/seats/", json={}).status_code == 201
    return game_id
