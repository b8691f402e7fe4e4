"""A game's export (``GET games/{id}/export/``) and a player's games as NDJSON (``GET me/games/export/``).

An export is one JSON document (``FORMAT``): the game's options and seats, every log entry as the caller may see
it, the deals' commitments and their seeds once revealed, and the result. Staff get the whole log; a player or
spectator gets the log redacted for him (``read_models.event_json``) until the match has ended and every seed is
revealed: from then on nothing in the log is secret (the seeds give every shuffle, hence every card), and the
export holds the whole log as staff see it, so that ``tools/verify_palace.py`` re-derives and replays it all.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from games.engine.fairness import commitment
from games.engine.master_seed import SCHEME as MASTER_SCHEME
from games.engine.phrasing import Names
from games.engine.protocol import STAFF, Viewer
from games.engine.registry import game_kind
from games.models import Event, Game, GameStatus
from games.selectors.read_models import event_json, game_seats, viewer_for
from games.selectors.words import seat_names
from palace_api.errors import ErrorCode, UnprocessableError

FORMAT = "palace-export/1"
"""The export's version: a change that a reader of version 1 would misread gets a new one."""
EXPORT_MAX_GAMES = 10_000
"""The most games one NDJSON export sends (``max``); the default is ``EXPORT_DEFAULT_GAMES``."""
EXPORT_DEFAULT_GAMES = 1_000
ROWS_PER_READ = 2_000
"""Log entries read per query while a game is exported: no single query's answer grows with the log."""


def _rows(game: Game) -> Iterator[Event]:
    last = 0
    while True:
        page = list(
            Event.objects.filter(game=game, seq__gt=last, seq__lte=game.version).order_by("seq")[:ROWS_PER_READ]
        )
        yield from page
        if len(page) < ROWS_PER_READ:
            return
        last = page[-1].seq


def _deals(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each deal's ``commitment``, the players' seeds, and ``server_seed`` and ``salt`` (``None`` until revealed
    to the caller), from the log as the caller sees it."""
    deals: dict[int, dict[str, Any]] = {}
    for entry in entries:
        seeds = (entry.get("action") or {}).get("seeds")
        for event in entry.get("events", ()):
            if event["type"] == "seeds_committed":
                deals[event["deal"]] = {
                    "deal": event["deal"],
                    "scheme": event["scheme"],
                    "commitment": event["commitment"],
                    "players": event["players"],
                    "drawn": event["drawn"],
                    "committed_at": entry["seq"],
                    "server_seed": seeds["server_seed"] if seeds else None,
                    "salt": seeds["salt"] if seeds else None,
                    "revealed_at": None,
                }
            elif event["type"] == "seeds_revealed" and event["deal"] in deals:
                deal = deals[event["deal"]]
                deal.update(server_seed=event["server_seed"], salt=event["salt"], revealed_at=entry["seq"])
    return list(deals.values())


def _whole_log(game: Game, viewer: Viewer, rows: list[Event]) -> list[dict[str, Any]] | None:
    """The log as staff see it, if ``viewer``'s export holds it whole: staff's, or anyone's once the match is over
    and every deal's seeds are public (then nothing in it is secret); else ``None``, and for a running game the
    log is never redacted for staff at all."""
    if viewer != STAFF and game.status != GameStatus.FINISHED:
        return None
    entries = [event_json(row, STAFF) for row in rows]
    if viewer == STAFF:
        return entries
    deals = _deals(entries)
    return entries if deals and all(deal["revealed_at"] is not None for deal in deals) else None


def _result(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    ended = [event for entry in entries for event in entry.get("events", ()) if event["type"] == "match_ended"]
    return ended[-1] if ended else None


def game_master(game: Game, *, revealed: bool) -> dict[str, Any] | None:
    """The game's master seed (``games.engine.master_seed``): ``{"scheme", "commitment", "seed", "salt"}``,
    ``seed`` and ``salt`` ``None`` unless ``revealed``; ``None`` for a game stored before master seeds."""
    if not game.seed_master:
        return None
    return {
        "scheme": MASTER_SCHEME,
        "commitment": commitment(game.seed_master, game.seed_master_salt),
        "seed": game.seed_master if revealed else None,
        "salt": game.seed_master_salt if revealed else None,
    }


def game_export(game: Game, user: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """The export of ``game`` (read with its seats, ``game_get``) for ``user``: ``{"format", "id", "kind",
    "status", "version", "seat_count", "options", "created", "viewer", "complete", "master", "seats", "deals",
    "log", "result"}``. ``complete``: the log is whole (staff, or every seed revealed); else redacted for
    ``viewer``. ``master``: ``game_master``, its seed revealed with the whole log.
    ``deals``: per deal ``deal``, ``scheme``, ``commitment``, ``players``, ``drawn``, ``committed_at`` (seq),
    ``server_seed``, ``salt`` and ``revealed_at`` (``None`` until revealed to the caller)."""
    viewer: Viewer = viewer_for(game, user)
    rows = list(_rows(game))
    whole = _whole_log(game, viewer, rows)
    complete = whole is not None
    entries = whole if whole is not None else [event_json(row, viewer) for row in rows]
    return {
        "format": FORMAT,
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "options": game.options,
        "created": game.created.isoformat().replace("+00:00", "Z"),
        "viewer": viewer,
        "complete": complete,
        "master": game_master(game, revealed=complete),
        "seats": game_seats(game),
        "deals": _deals(entries),
        "log": entries,
        "result": _result(entries),
    }


def has_phh(game: Game) -> bool:
    """Whether ``game``'s kind has a PHH form (``game_phh``): the pages link to it where it has."""
    return game_kind(game.kind).phh is not None


def game_phh(game: Game, user: AbstractBaseUser | AnonymousUser) -> str:
    """``game`` as a PHH text (``.phhs``: one TOML table a hand) for ``user``, written by its kind's PHH writer
    (``games.engine.registry``, e.g. ``games.engine.poker.phh.phhs``) from ``game_export``: the same log, redacted
    or whole, as the JSON export gives ``user``, so it shows no card that export does not. Raises
    ``UnprocessableError("phh_unavailable")`` for a kind PHH cannot write (the shedding game)."""
    kind = game_kind(game.kind)
    if kind.phh is None:
        raise UnprocessableError(
            ErrorCode.PHH_UNAVAILABLE,
            f"{kind.title} has no PHH form: PHH records poker hands. The JSON export (export/) holds the game.",
        )
    export = game_export(game, user)
    return kind.phh(export, Names(seat_names(export["seats"])))


def player_games(
    user: AbstractBaseUser,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    kind: str | None = None,
    limit: int = EXPORT_DEFAULT_GAMES,
    page: int = 50,
) -> Iterator[Game]:
    """The finished games ``user`` sat at, oldest first by (``created``, ``id``) (a stable order: two exports of
    the same filters list the same games), created at ``since`` or later and before ``until``, at most ``limit``;
    read ``page`` at a time by keyset, each with its seats, so memory holds one page whatever the count."""
    games = Game.objects.filter(status=GameStatus.FINISHED, seats__player=user)
    if since is not None:
        games = games.filter(created__gte=since)
    if until is not None:
        games = games.filter(created__lt=until)
    if kind is not None:
        games = games.filter(kind=kind)
    games = games.order_by("created", "id").select_related("creator").prefetch_related("seats__player")
    sent = 0
    after: tuple[datetime, int] | None = None
    while sent < limit:
        chunk = games if after is None else games.filter(Q(created__gt=after[0]) | Q(created=after[0], id__gt=after[1]))
        size = min(page, limit - sent)
        rows = list(chunk[:size])
        yield from rows
        sent += len(rows)
        if len(rows) < size:
            return
        after = (rows[-1].created, rows[-1].pk)
