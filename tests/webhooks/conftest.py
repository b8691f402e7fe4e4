"""Fixtures of the webhooks tests: a real HTTP receiver on 127.0.0.1, a real Celery worker, players at a game."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import pytest
from django.db import OperationalError

from games.engine.bots import get_bot
from games.engine.errors import EngineError
from games.models import Game, GameStatus
from games.selectors.read_models import game_get
from games.selectors.state import engine_of, game_state
from games.services.actions import action_submit

T = TypeVar("T")


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A local HTTP server: answers each POST with the next of ``answers`` (status, seconds to wait first),
    then with 200; keeps every request it got."""

    url: str
    answers: list[tuple[int, float]] = field(default_factory=list)
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, status: int = 200, *, wait: float = 0.0) -> None:
        self.answers.append((status, wait))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A receiver listening on 127.0.0.1, on a free port, until the test ends."""
    state: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            hook = state["receiver"]
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            with hook.lock:
                hook.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status, wait = hook.answers.pop(0) if hook.answers else (200, 0.0)
            time.sleep(wait)
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    host, port = server.server_address[:2]
    state["receiver"] = Receiver(url=f"http://{host}:{port}/hook")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state["receiver"]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def allow_loopback(settings) -> None:
    """Webhooks may reach 127.0.0.0/8 in this test, as in local runs."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]


def read(query: Callable[[], T]) -> T:
    """A read, again while the in-memory SQLite test database says a table is locked by the worker thread."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return query()
        except OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def play_one(game_id: int, players: dict[int, Any], rng: random.Random) -> bool:
    """The seat to act decides as the basic bot would on its own view, through ``action_submit``; returns
    whether the game goes on."""
    game = game_get(game_id)
    if game.status != GameStatus.ACTIVE:
        return False
    state = game_state(game)
    engine = engine_of(game)
    seat = engine.due_to_act(state)[0]
    choice = get_bot(game.kind, "basic").choose(engine.view(state, seat), rng)
    try:
        action_submit(user=players[seat], game_id=game_id, **_fields(choice))
    except EngineError:
        action_submit(user=players[seat], game_id=game_id, **_fields(engine.default_action(state, seat).to_json()))
    return Game.objects.get(pk=game_id).status == GameStatus.ACTIVE


def _fields(action: dict[str, Any]) -> dict[str, Any]:
    return {key: action[key] for key in ("type", "cards", "target", "amount") if key in action}
