"""``manage.py play_demo``: a demo client that plays a whole match against bots over real HTTP.

It knows nothing of the server's insides: it registers a player, creates a table of Palace Poker
(``--kind palace-poker``, the default) or of the shedding game Palace (``--kind palace``), seats
itself and the bots, and answers its turns from its own view (deciding with the same ``basic``
policy the bots use, run on the client side), printing each hand's result, or the finishing order.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx
from django.core.management.base import BaseCommand, CommandError

from games.engine.bots import get_bot


class Command(BaseCommand):
    help = "Play a match against bots over HTTP against a running server (python3 palace.py run)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server's base URL")
        parser.add_argument(
            "--kind", default="palace-poker", choices=["palace-poker", "palace"], help="the game to play"
        )
        parser.add_argument("--bots", type=int, default=1, help="bots at the table (1 to 9)")
        parser.add_argument("--hands", type=int, default=5, help="Palace Poker: the match ends after this many hands")
        parser.add_argument("--timeout", type=float, default=300.0, help="give up after this many seconds")

    def handle(self, *args: Any, url: str, kind: str, bots: int, hands: int, timeout: float, **options: Any) -> None:
        if not 1 <= bots <= 9:
            raise CommandError("--bots takes 1 to 9")
        self.kind = kind
        # One connection a request: the development server may close an idle kept-alive connection just as a
        # request reuses it, and a demo has no use for the saving.
        headers = {"Connection": "close"}
        with httpx.Client(base_url=url.rstrip("/") + "/api/v1/", timeout=30.0, headers=headers) as client:
            self.play(client, bots=bots, hands=hands, timeout=timeout)

    def call(self, client: httpx.Client, method: str, path: str, *, conflict_ok: bool = False, **kwargs: Any) -> Any:
        """The answer's JSON; raises ``CommandError`` on an error status (but a 409 with ``conflict_ok``: the
        game moved on first, as when a bot or an out-of-turn play came first, and ``None`` is returned)."""
        try:
            response = client.request(method, path, **kwargs)
        except httpx.HTTPError as error:
            raise CommandError(f"cannot reach the server: {error}") from error
        if conflict_ok and response.status_code == 409:
            return None
        if response.status_code >= 400:
            raise CommandError(f"{method} {path}: {response.status_code} {response.text}")
        return response.json() if response.content else None

    def play(self, client: httpx.Client, *, bots: int, hands: int, timeout: float) -> None:
        name = f"demo-{secrets.token_hex(4)}"
        token = self.call(client, "POST", "players/", json={"name": name})["token"]
        client.headers["Authorization"] = f"Token {token}"
        kind = self.kind
        options = {"max_hands": hands, "starting_stack": 500} if kind == "palace-poker" else {}
        game = self.call(client, "POST", "games/", json={"kind": kind, "seats": bots + 1, "options": options})
        game_id = game["id"]
        self.call(client, "POST", f"games/{game_id}/seats/", json={"seat": 0})
        for _ in range(bots):
            self.call(client, "POST", f"games/{game_id}/seats/", json={"bot": "basic"})
        length = f"{hands} hand(s)" if kind == "palace-poker" else "to the end"
        self.stdout.write(f"{name} plays {kind} game {game_id} against {bots} bot(s), {length}")
        policy = get_bot(kind, "basic")
        rng = secrets.SystemRandom()
        seen, moves, started = 0, 0, time.monotonic()
        while time.monotonic() - started < timeout:
            view = self.call(client, "GET", f"games/{game_id}/")
            seen = self.report(client, game_id, seen)
            if view["status"] == "finished":
                if kind == "palace-poker":
                    stacks = ", ".join(f"seat {seat['seat']}: {seat['stack']}" for seat in view["seats"])
                    self.stdout.write(f"match over after {moves} of my moves; stacks {stacks}")
                else:
                    order = view["state"]["result"]["order"]
                    self.stdout.write(f"match over after {moves} of my moves; finishing order (seats) {order}")
                return
            if 0 not in view["to_act"] or not view["legal_actions"]:
                time.sleep(0.2)
                continue
            body = policy.choose(view["state"], rng)
            body["expected_version"] = view["version"]
            if self.call(client, "POST", f"games/{game_id}/actions/", json=body, conflict_ok=True) is not None:
                moves += 1
        raise CommandError(f"the match did not end within {timeout:.0f} s")

    def report(self, client: httpx.Client, game_id: int, seen: int) -> int:
        """Print the hands that ended since log entry ``seen``; return the last entry read."""
        page = self.call(client, "GET", f"games/{game_id}/events/", params={"after": seen, "limit": 500})
        for entry in page["results"]:
            for event in entry.get("events", []):
                if event["type"] == "pot_awarded":
                    won = ", ".join(f"seat {seat} +{chips}" for seat, chips in event["amounts"].items())
                    self.stdout.write(f"  pot of {event['pot']} ({event['reason']}): {won}")
                elif event["type"] == "hand_ended":
                    self.stdout.write(f"hand {event['hand']} over; stacks {event['stacks']}")
                elif event["type"] == "player_out":
                    self.stdout.write(f"  seat {event['seat']} is out")
            seen = entry["seq"]
        return seen
