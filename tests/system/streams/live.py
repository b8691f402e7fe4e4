"""A live Palace API for stream tests: uvicorn (ASGI) on a free 127.0.0.1 port over a private SQLite file and the
embedded broker, as the run command serves it; an SSE reader; a simple policy that plays a seat over HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.servers import WebServer, app_env, migrate_sqlite


class LiveServer:
    """uvicorn serving ``palace_api.asgi`` on 127.0.0.1:``port`` (``tests.servers``); ``env`` adds to the test
    environment."""

    def __init__(self, home: Path, **env: str) -> None:
        self.home = home
        defaults = {
            "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{home / 'broker.sqlite3'}",
            "STREAMS_REDIS_URL": "none",
            "STREAMS_HEARTBEAT_SECONDS": "1",
            "STREAMS_POLL_SECONDS": "0.2",
        }
        self.env = app_env(**{**defaults, **env})
        migrate_sqlite(self.env)
        self.web = WebServer(env=self.env, home=home, kind="uvicorn", name="uvicorn", ready_path="/api/v1/games/")
        self.port = self.web.port
        self.base = f"{self.web.url}/api/v1/"
        self.log_path = self.web.log_path
        self.web.start()

    def log(self) -> str:
        return self.web.log(4000)

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Token {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=10)

    def player(self, name: str) -> httpx.Client:
        """A registered player's client."""
        answer = httpx.post(self.base + "players/", json={"name": name}, timeout=10)
        assert answer.status_code == 201, answer.text
        return self.client(answer.json()["token"])

    def close(self) -> None:
        self.web.stop(grace=10)


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
