"""``manage.py play_demo``: a demo client that plays a whole match against bots over real HTTP.

It knows nothing of the server's insides: it registers a player, creates a table of Palace Poker
(``--kind palace-poker``, the default) or of the shedding game Palace (``--kind palace``), seats
itself and the bots, and answers its turns from its own view (deciding with the same ``basic``
policy the bots use, run on the client side). It prints, in the game's own words (its phrase table,
``games.engine.registry``), the events that say who won: each pot, the players out, the match's end.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx
from django.core.management.base import BaseCommand, CommandError

from games.engine.bots import get_bot
from games.engine.phrasing import Names
from games.engine.registry import KINDS, game_kind
from games.selectors.words import seat_names

DEMO_OPTIONS = {"starting_stack": 500}
"""Options the demo sets where the game has them (besides ``max_hands``, from ``--hands``)."""


class Command(BaseCommand):
    help = "Play a match against bots over HTTP against a running server (python3 palace.py run)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server's base URL")
        parser.add_argument("--kind", default="palace-poker", choices=sorted(KINDS), help="the game to play")
        parser.add_argument("--bots", type=int, default=1, help="bots at the table (1 to 9)")
        parser.add_argument("--hands", type=int, default=5, help="a game with hands ends after this many")
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
        known = {field.name for field in game_kind(kind).game.option_fields}
        options = {name: value for name, value in {**DEMO_OPTIONS, "max_hands": hands}.items() if name in known}
        game = self.call(client, "POST", "games/", json={"kind": kind, "seats": bots + 1, "options": options})
        game_id = game["id"]
        self.call(client, "POST", f"games/{game_id}/seats/", json={"seat": 0})
        for _ in range(bots):
            self.call(client, "POST", f"games/{game_id}/seats/", json={"bot": "basic"})
        length = f"{hands} hand(s)" if "max_hands" in options else "to the end"
        self.stdout.write(f"{name} plays {kind} game {game_id} against {bots} bot(s), {length}")
        policy = get_bot(kind, "basic")
        rng = secrets.SystemRandom()
        seen, moves, started = 0, 0, time.monotonic()
        while time.monotonic() - started < timeout:
            view = self.call(client, "GET", f"games/{game_id}/")
            seen = self.report(client, game_id, seen, Names(seat_names(view["seats"])))
            if view["status"] == "finished":
                self.stdout.write(f"match over after {moves} of my moves")
                return
            if 0 not in view["to_act"] or not view["legal_actions"]:
                time.sleep(0.2)
                continue
            body = policy.choose(view["state"], rng)
            body["expected_version"] = view["version"]
            if self.call(client, "POST", f"games/{game_id}/actions/", json=body, conflict_ok=True) is not None:
                moves += 1
        raise CommandError(f"the match did not end within {timeout:.0f} s")

    def report(self, client: httpx.Client, game_id: int, seen: int, names: Names) -> int:
        """Print, in the game's words, the events since log entry ``seen`` that say who won; return the last
        entry read."""
        parts = game_kind(self.kind)
        page = self.call(client, "GET", f"games/{game_id}/events/", params={"after": seen, "limit": 500})
        for entry in page["results"]:
            for event in entry.get("events", []):
                if event["type"] in parts.outcomes:
                    self.stdout.write(f"  {parts.phrase(event, names).text}")
            seen = entry["seq"]
        return seen
