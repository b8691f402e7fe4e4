"""A client's side of the fault tests: heads-up Palace Poker between two human players, played over HTTP with an
``Idempotency-Key`` on every decision, and retried with the same key while the server answers 503 or nothing.

Every request is recorded (when it was sent, what it answered), so a test can say which answers came after a fault
ended, and every decision's final answer is kept, so it can check the log against them: nothing lost or doubled.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.system.faults.servers import Palace

DECISIONS = ("stay", "discard", "check", "call", "fold", "buy")
"""The decision a seat makes, first found first among its legal actions: none of them ends a match quickly."""

NO_ANSWER = 0
"""The status recorded for a request that got no HTTP answer (connection refused or reset, timeout)."""


@dataclass(frozen=True, slots=True)
class Sent:
    """One request: ``at`` (``time.monotonic()`` when it was sent), ``status`` (``NO_ANSWER`` for none), ``took``
    (seconds until the answer)."""

    at: float
    method: str
    path: str
    status: int
    took: float


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision's final answer: ``answer`` (the 201 body), ``replayed`` (``Idempotent-Replayed``), ``tries``."""

    game: int
    key: str
    body: dict[str, Any]
    answer: dict[str, Any]
    replayed: bool
    tries: int


@dataclass
class Table:
    """Two players at a heads-up match: ``seats[n]`` the headers of seat ``n``'s player."""

    app: Palace
    game: int = 0
    seats: list[dict[str, str]] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    http: httpx.Client | None = None

    def __post_init__(self) -> None:
        self.http = httpx.Client(base_url=str(self.app.http.base_url), timeout=30)
        self.seats = [self.app.player(f"seat{n}-{uuid.uuid4().hex[:8]}") for n in range(2)]
        self.new_game()

    def new_game(self) -> None:
        created = self.app.http.post(
            "/api/v1/games/",
            headers=self.seats[0],
            json={"kind": "palace-poker", "seats": 2, "options": {"max_hands": 500}},
        )
        assert created.status_code == 201, created.text
        self.game = created.json()["id"]
        for number, headers in enumerate(self.seats):
            taken = self.app.http.post(f"/api/v1/games/{self.game}/seats/", headers=headers, json={"seat": number})
            assert taken.status_code == 201, taken.text

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
        """Send one request and record it; ``None`` when no answer came."""
        assert self.http is not None
        at = time.monotonic()
        try:
            answer = self.http.request(method, path, **kwargs)
        except httpx.TransportError:
            self.sent.append(Sent(at, method, path, NO_ANSWER, time.monotonic() - at))
            return None
        self.sent.append(Sent(at, method, path, answer.status_code, time.monotonic() - at))
        return answer

    def view(self, seat: int) -> dict[str, Any] | None:
        answer = self.request("GET", f"/api/v1/games/{self.game}/", headers=self.seats[seat])
        return answer.json() if answer is not None and answer.status_code == 200 else None

    def step(self, *, deadline: float) -> bool:
        """Read the game as the seat to act and make its decision, retrying with the same key until it is
        answered 201 or ``deadline`` (``time.monotonic()``) passes; False if no decision was made."""
        spectator = self.view(0)
        if spectator is None:
            return False
        if spectator["status"] != "active":
            self.new_game()
            return True
        seat = spectator["to_act"][0]
        current = self.view(seat)
        if current is None or current["to_act"] != spectator["to_act"]:
            return False
        legal = {action["type"] for action in current["legal_actions"]}
        kind = next(kind for kind in DECISIONS if kind in legal)
        body: dict[str, Any] = {"type": kind, "expected_version": current["version"]}
        if kind == "discard":
            body["cards"] = []
        return self.decide(seat, body, deadline=deadline) is not None

    def decide(self, seat: int, body: dict[str, Any], *, deadline: float, key: str = "") -> Decision | None:
        """POST ``body`` as ``seat`` under one Idempotency-Key, again after each 503 or missing answer; any other
        answer but 201 fails the test (a retry must never hear ``idempotency_key_in_flight``)."""
        key = key or uuid.uuid4().hex
        headers = {**self.seats[seat], "Idempotency-Key": key}
        tries = 0
        while time.monotonic() < deadline:
            tries += 1
            answer = self.request("POST", f"/api/v1/games/{self.game}/actions/", headers=headers, json=body)
            if answer is None or answer.status_code == 503:
                time.sleep(0.1)
                continue
            assert answer.status_code == 201, f"try {tries} of key {key}: {answer.status_code} {answer.text}"
            decision = Decision(
                game=self.game,
                key=key,
                body=body,
                answer=answer.json(),
                replayed=answer.headers.get("Idempotent-Replayed") == "true",
                tries=tries,
            )
            self.decisions.append(decision)
            return decision
        return None

    def log(self, game: int) -> list[dict[str, Any]]:
        """The whole log of ``game`` as seat 0 sees it."""
        entries: list[dict[str, Any]] = []
        after = 0
        while True:
            page = self.app.http.get(
                f"/api/v1/games/{game}/events/", headers=self.seats[0], params={"after": after, "limit": 500}
            )
            assert page.status_code == 200, page.text
            entries += page.json()["results"]
            if page.json()["next_after"] is None:
                return entries
            after = page.json()["next_after"]

    def assert_nothing_lost_or_doubled(self) -> int:
        """Each game's decisions in the log are exactly the ones answered 201, each once, where its answer put
        it; returns how many there were."""
        games = {decision.game for decision in self.decisions}
        for game in games:
            log = self.log(game)
            assert [entry["seq"] for entry in log] == list(range(1, len(log) + 1)), "a gap or a repeated seq"
            decided = [entry for entry in log if entry["actor"] is not None and entry["kind"] in DECISIONS]
            answered = [decision for decision in self.decisions if decision.game == game]
            assert len({decision.key for decision in answered}) == len(answered), "a key answered twice"
            expected = sorted(decision.answer["events"][0]["seq"] for decision in answered)
            assert [entry["seq"] for entry in decided] == expected, f"game {game}: log and answers differ"
            for decision in answered:
                entry = log[decision.answer["events"][0]["seq"] - 1]
                assert entry["kind"] == decision.body["type"], f"key {decision.key}: logged {entry['kind']}"
        return len(self.decisions)

    def close(self) -> None:
        if self.http is not None:
            self.http.close()
