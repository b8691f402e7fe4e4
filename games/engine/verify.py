"""Checking a game's export (``palace-export/1``): commitments, shuffles, and every dealt and drawn card.

Pure: it reads the export's JSON and the rules in ``games.engine``, nothing of Django (``tools/verify_palace.py``
runs it from a checkout; ``python3 palace.py verify FILE`` too). Steps (README, "Provably fair shuffles"):

1. The log's entries are numbered 1, 2, 3... in order.
2. Every revealed server seed answers its deal's commitment: ``SHA-256(salt || seed)``; once the match's
   master seed is revealed, it answers the commitment the game was created with, and every seed the server brought
   (each deal's server seed and salt, the seeds it drew for seats) is the one the master gives
   (``games.engine.master_seed``).
3. With the whole log (``complete``: a staff export, or any export once every seed is revealed), the match is
   replayed from its options: each shuffle's order must be the one its deal's seeds give
   (``games.engine.fairness.derive_order``), each action must be legal, and the events the rules make (every card
   dealt, drawn, shown, the seeds committed and revealed) must be those logged.

``verify`` raises ``Mismatch`` naming the first thing that differs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import EngineError
from games.engine.fairness import SeedDraw, commitment, derive_order
from games.engine.master_seed import master_mismatch
from games.engine.protocol import STAFF, Action
from games.engine.registry import get_game

FORMAT = "palace-export/1"


class Mismatch(Exception):
    """The export differs from what its seeds and the rules give; the message names where."""


@dataclass(frozen=True, slots=True)
class Report:
    """What ``verify`` checked: ``deals`` committed, ``revealed`` of them, ``shuffles`` re-derived, ``entries``
    replayed (0 when the log is redacted, ``complete`` false)."""

    game: int
    kind: str
    complete: bool
    deals: int
    revealed: int
    shuffles: int
    entries: int
    master: str = "none"
    """``"checked"``, ``"committed"`` (not revealed yet) or ``"none"`` (a game stored before master seeds)."""

    def lines(self) -> list[str]:
        """The report in words."""
        out = [f"game {self.game} ({self.kind}): {self.deals} deals committed, {self.revealed} seeds revealed"]
        out.append(MASTER_WORDS[self.master])
        if self.complete:
            out.append(
                f"replayed {self.entries} entries: {self.shuffles} shuffles follow their seeds, every card matches"
            )
        else:
            out.append("the log is redacted for its viewer: commitments checked, no replay (verify a staff export,")
            out.append("or this one again once the match is over and every seed is revealed)")
        return out


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _check_order(log: list[Mapping[str, Any]]) -> None:
    for position, entry in enumerate(log, 1):
        if entry.get("seq") != position:
            raise Mismatch(f"log entry {position} has seq {entry.get('seq')}: entries are missing or out of order")


def _check_commitments(log: list[Mapping[str, Any]]) -> tuple[int, int]:
    committed: dict[int, str] = {}
    revealed = 0
    for entry in log:
        for event in entry.get("events", ()):
            if event["type"] == "seeds_committed":
                committed[event["deal"]] = event["commitment"]
            elif event["type"] == "seeds_revealed":
                deal = event["deal"]
                if deal not in committed:
                    raise Mismatch(f"entry {entry['seq']}: deal {deal}'s seed is revealed before it was committed")
                if commitment(event["server_seed"], event["salt"]) != committed[deal]:
                    raise Mismatch(
                        f"entry {entry['seq']}: the revealed server seed of deal {deal} does not match its "
                        f"commitment {committed[deal][:16]}..."
                    )
                revealed += 1
    return len(committed), revealed


MASTER_WORDS = {
    "checked": "the master seed answers its commitment and gives every seed the server brought",
    "committed": "the master seed is committed, not revealed yet: the server's seeds are checked once it is",
    "none": "no master seed (a game stored before them): the server drew each deal's seed as the deal opened",
}


def _revealed_draws(log: list[Mapping[str, Any]], game: str) -> list[SeedDraw]:
    """Each deal whose server seed the log shows (revealed to all, or in a staff export's shuffle action)."""
    committed: dict[int, Mapping[str, Any]] = {}
    secret: dict[int, tuple[str, str]] = {}
    for entry in log:
        seeds = (entry.get("action") or {}).get("seeds")
        if seeds:
            secret[seeds["deal"]] = (seeds["server_seed"], seeds["salt"])
        for event in entry.get("events", ()):
            if event["type"] == "seeds_committed":
                committed[event["deal"]] = event
            elif event["type"] == "seeds_revealed":
                secret[event["deal"]] = (event["server_seed"], event["salt"])
    return [
        SeedDraw(*secret[deal], game, deal, tuple(event["players"]), tuple(event["drawn"]))
        for deal, event in committed.items()
        if deal in secret
    ]


def _check_master(export: Mapping[str, Any], log: list[Mapping[str, Any]]) -> str:
    master = export.get("master")
    if not master:
        return "none"
    if master.get("seed") is None:
        return "committed"
    draws = _revealed_draws(log, str(export["id"]))
    problem = master_mismatch(master["seed"], master["salt"], master["commitment"], game=str(export["id"]), draws=draws)
    if problem:
        raise Mismatch(problem)
    return "checked"


def _check_seeds(entry: Mapping[str, Any], action: Action) -> None:
    """The seeds an entry's shuffle carries answer the commitment the same entry logged."""
    if action.seeds is None:
        return
    logged = [event for event in entry.get("events", ()) if event["type"] == "seeds_committed"]
    if not logged or logged[0]["commitment"] != action.seeds.commitment:
        raise Mismatch(
            f"entry {entry['seq']}: the server seed of deal {action.seeds.deal} does not match its commitment"
        )


def _check_shuffle(game: Any, state: Any, entry: Mapping[str, Any], action: Action) -> bool:
    request = game.chance_request(state)
    if request is None or action.type != "shuffle":
        return False
    seeds = action.seeds if request.seeds_due else None
    if request.seeds_due and seeds is None and state.shuffles > 0:
        raise Mismatch(f"entry {entry['seq']}: shuffle {request.number} opens deal {request.deal} without its seeds")
    draws = state.fair.draws if state.fair is not None else ()
    draw = seeds or (draws[-1] if draws else None)
    if draw is None:
        raise Mismatch(f"entry {entry['seq']}: shuffle {request.number} was not committed (a game without seeds)")
    expected = derive_order(request.cards, draw, request.number)
    logged = action.cards
    for position, (got, want) in enumerate(zip(logged, expected, strict=False)):
        if got != want:
            raise Mismatch(
                f"entry {entry['seq']}: shuffle {request.number} ({request.purpose}) differs from the order the seeds "
                f"of deal {draw.deal} give at card {position}: {got.code} logged, {want.code} derived"
            )
    if len(logged) != len(expected):
        raise Mismatch(
            f"entry {entry['seq']}: shuffle {request.number} orders {len(logged)} cards, not {len(expected)}"
        )
    return True


def _replay(export: Mapping[str, Any], log: list[Mapping[str, Any]]) -> tuple[int, int]:
    game = get_game(export["kind"])
    state = game.new_game(export["options"], export["seat_count"])
    shuffles = replayed = 0
    for entry in log:
        if "action" not in entry:
            continue
        try:
            action = Action.from_json(entry["action"])
        except EngineError as error:
            raise Mismatch(f"entry {entry['seq']}: the action cannot be read: {error.message}") from error
        _check_seeds(entry, action)
        shuffles += _check_shuffle(game, state, entry, action)
        try:
            state, events = game.apply(state, action)
        except EngineError as error:
            raise Mismatch(f"entry {entry['seq']}: the rules refuse its {action.type!r}: {error.message}") from error
        made = _plain([event.view_json(STAFF) for event in events])
        logged = _plain(list(entry.get("events", ())))
        for index, (want, got) in enumerate(zip(made, logged, strict=False)):
            if want != got:
                keys = sorted(key for key in {*want, *got} if want.get(key) != got.get(key))
                raise Mismatch(
                    f"entry {entry['seq']}: event {index} ({want.get('type')}) differs from the replay in {keys}: "
                    f"logged {[got.get(key) for key in keys]}, replayed {[want.get(key) for key in keys]}"
                )
        if len(made) != len(logged):
            raise Mismatch(f"entry {entry['seq']}: {len(logged)} events logged, the replay makes {len(made)}")
        replayed += 1
    return shuffles, replayed


def verify(export: Mapping[str, Any]) -> Report:
    """Check one export; return what was checked. Raises ``Mismatch`` naming the first difference."""
    if not isinstance(export, Mapping) or export.get("format") != FORMAT:
        raise Mismatch(f"not a {FORMAT} export")
    log = list(export["log"])
    _check_order(log)
    deals, revealed = _check_commitments(log)
    if deals == 0:
        raise Mismatch("no deal was committed: this game's shuffles cannot be checked (stored before commit-reveal)")
    master = _check_master(export, log)
    shuffles = entries = 0
    if export.get("complete"):
        shuffles, entries = _replay(export, log)
    complete = bool(export.get("complete"))
    return Report(export["id"], export["kind"], complete, deals, revealed, shuffles, entries, master)


def digest(export: Mapping[str, Any]) -> str:
    """SHA-256 of the export's canonical JSON: to say which file was checked."""
    return hashlib.sha256(json.dumps(export, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
