"""Per-viewer read models of games: the game view, the redacted log, the caller's turns, lists.

Redaction is the engine's: each stored engine event carries who may see each of its cards, and the
engine's ``view`` answers for a seat, a spectator or staff. A seated player (staff included) sees
as his seat; staff who are not seated see everything; anyone else sees what a spectator sees.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from games.engine.protocol import SPECTATOR, STAFF, Viewer, action_for_viewer
from games.engine.protocol import Event as EngineEvent
from games.models import Event, Game, GameStatus, Seat
from games.selectors import statements
from games.selectors.due import due_of, seats_due
from games.selectors.rematch import rematch_links
from games.selectors.state import (
    catch_up,
    engine_of,
    game_as_committed,
    game_state,
    remember_read,
    remembered_version,
)
from palace_api.errors import ErrorCode, NotFoundError


def viewer_for(game: Game, user: AbstractBaseUser | AnonymousUser, *, public_only: bool = False) -> Viewer:
    """The engine viewer ``user`` is in ``game``: his seat number, ``"staff"`` or ``"spectator"``.

    ``public_only``: staff who do not sit at the game see it as a spectator (the web pages' spectating)."""
    # An anonymous caller's pk is None, like a bot seat's player: he must not see as the bot.
    seat = None
    if user.pk is not None:
        seat = next((seat.number for seat in game.seats.all() if seat.player_id == user.pk), None)
    if seat is not None:
        return seat
    return STAFF if getattr(user, "is_staff", False) and not public_only else SPECTATOR


def event_json(event: Event, viewer: Viewer) -> dict[str, Any]:
    """One log entry as ``viewer`` may see it: every card of its ``action`` and ``events`` that the viewer
    may not know is ``null`` (a sealed choice is its chooser's alone), and cards no player ever sees (a
    shuffle's order) are only counted. Events in ``Event.view_json``'s shape: ``"cards": {"<group>": [...]}``."""
    created = event.created.isoformat().replace("+00:00", "Z")
    out: dict[str, Any] = {"seq": event.seq, "kind": event.kind, "actor": event.actor, "created": created}
    payload = event.payload
    if "action" not in payload:
        out.update(payload)
        return out
    events = [EngineEvent.from_json(raw) for raw in payload["events"]]
    # The action passes through the same visibility as its events: it never names a card they hide.
    out["action"] = action_for_viewer(payload["action"], events, viewer)
    out["events"] = [event.view_json(viewer) for event in events]
    return out


def game_seats(game: Game) -> list[dict[str, Any]]:
    """Each seat: ``seat``, ``player`` (``{"id", "name"}`` or ``None``), ``bot``."""
    rows = []
    for seat in game.seats.all():
        player = None if seat.player is None else {"id": seat.player.pk, "name": seat.player.get_username()}
        rows.append({"seat": seat.number, "player": player, "bot": seat.bot or None})
    taken = {row["seat"] for row in rows}
    rows += [{"seat": number, "player": None, "bot": None} for number in range(game.seat_count) if number not in taken]
    return sorted(rows, key=lambda row: row["seat"])


def game_detail(game: Game, user: AbstractBaseUser | AnonymousUser, *, public_only: bool = False) -> dict[str, Any]:
    """The caller's view of ``game``: metadata, seats with stacks, the engine's redacted state,
    ``to_act``, the caller's ``legal_actions`` (with chip costs) and the decision's ``deadline``.
    ``public_only``: see ``viewer_for``."""
    viewer = viewer_for(game, user, public_only=public_only)
    state = game_state(game)
    engine = engine_of(game)
    engine_view = None if state is None else engine.view(state, viewer)
    seats = game_seats(game)
    for row in seats:
        # Chips only in games that have them (the shedding Palace has none).
        row["stack"] = None if engine_view is None else engine_view["seats"][row["seat"]].get("stack")
    # The engine's view says whose decision it is as this viewer may know it: a seat's chance to play out
    # of turn would tell what it holds.
    to_act = [] if engine_view is None else list(engine_view["to_act"])
    legal = [] if engine_view is None else list(engine_view["legal_actions"])
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "options": game.options,
        "turn_timeout": game.turn_timeout,
        "max_timeouts": game.max_timeouts,
        "on_absent": game.on_absent,
        "rated": game.rated,
        "creator": {"id": game.creator_id, "name": game.creator.get_username()},
        "created": game.created,
        "viewer": viewer,
        "seats": seats,
        "state": engine_view,
        "to_act": to_act,
        "legal_actions": legal,
        "deadline": game.deadline,
        **rematch_links(game),
    }


def game_events(
    game: Game, user: AbstractBaseUser | AnonymousUser, *, after: int, limit: int, public_only: bool = False
) -> dict[str, Any]:
    """Log entries with ``seq > after``, at most ``limit``, redacted for the caller (``public_only``: see
    ``viewer_for``).

    Returns ``{"version", "results", "next_after"}``; ``next_after`` is ``None`` at the end, which is
    ``game.version``: entries committed since ``game`` was read (``game_get``) wait for the next read, as its seats
    tell the viewer only up to its version (a seat taken, or left and taken by another, in between would show a
    deal to the wrong viewer).
    """
    viewer = viewer_for(game, user, public_only=public_only)
    rows = list(Event.objects.filter(game=game, seq__gt=after, seq__lte=game.version).order_by("seq")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "version": game.version,
        "results": [event_json(row, viewer) for row in rows],
        "next_after": rows[-1].seq if more else None,
    }


def my_turns(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The decisions due from the caller (``games.selectors.due``), the nearest deadline first (no deadline
    last).

    Each: ``game``, ``kind``, ``seat``, ``version``, ``deadline`` and ``seconds_left`` (``None``
    without a deadline). Reads only the projection (``Seat.due_since``): no replay.
    """
    now = timezone.now()
    seats = seats_due().filter(player=user).order_by(F("game__deadline").asc(nulls_last=True), "game__updated")
    out = []
    for seat in seats:
        due = due_of(seat)
        if due is not None:
            out.append({**due.to_json(now), "deadline": due.deadline})
    return out


def my_turns_etag(turns: list[dict[str, Any]]) -> str:
    """An entity tag for ``my_turns``'s answer: it changes when a turn comes or goes, a game moves or a deadline
    moves, not as ``seconds_left`` counts down (a client works that out from ``deadline``)."""
    digest = hashlib.sha256()
    for turn in turns:
        deadline = "" if turn["deadline"] is None else turn["deadline"].isoformat()
        digest.update(f"{turn['game']}:{turn['seat']}:{turn['version']}:{deadline};".encode())
    return f'"t-{digest.hexdigest()[:32]}"'


def games_queryset(user: AbstractBaseUser) -> QuerySet[Game]:
    """Every game, newest first, annotated with ``seats_taken``, for listing and filtering."""
    return (
        Game.objects.select_related("creator")
        .prefetch_related("seats__player")
        .annotate(seats_taken=Count("seats", distinct=True))
        .order_by("-created", "-id")
    )


def games_filtered(
    user: AbstractBaseUser,
    *,
    kind: str | None = None,
    status: str | None = None,
    open_seats: bool | None = None,
    mine: bool | None = None,
) -> QuerySet[Game]:
    """``games_queryset`` narrowed by each filter that is not ``None``: the game's kind and status, whether it
    waits with a free seat, whether the caller sits at it or created it."""
    games = games_queryset(user)
    if kind is not None:
        games = games.filter(kind=kind)
    if status is not None:
        games = games.filter(status=status)
    if open_seats is not None:
        games = filter_open_seats(games, open_seats=open_seats)
    if mine is not None:
        games = filter_mine(games, user, mine=mine)
    return games


def filter_open_seats(queryset: QuerySet[Game], *, open_seats: bool) -> QuerySet[Game]:
    """Games still waiting with a free seat (or, ``False``, the others)."""
    condition = Q(status=GameStatus.WAITING, seats_taken__lt=F("seat_count"))
    return queryset.filter(condition) if open_seats else queryset.exclude(condition)


def filter_mine(queryset: QuerySet[Game], user: AbstractBaseUser, *, mine: bool) -> QuerySet[Game]:
    """Games the caller sits at or created (or, ``False``, the others)."""
    condition = Q(seats__player=user) | Q(creator=user)
    ids = Game.objects.filter(condition).values("id")
    return queryset.filter(id__in=ids) if mine else queryset.exclude(id__in=ids)


def game_summary(game: Game) -> dict[str, Any]:
    """A game in a list: no engine state, no replay."""
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "seats_taken": sum(1 for seat in game.seats.all() if seat.player_id or seat.bot),
        "seats": game_seats(game),
        "options": game.options,
        "turn_timeout": game.turn_timeout,
        "rated": game.rated,
        "creator": {"id": game.creator_id, "name": game.creator.get_username()},
        "created": game.created,
        "deadline": game.deadline,
    }


def game_of_kind(game_id: int, kind: str) -> Game:
    """``game_get(game_id)`` if that game is of ``kind`` (a query's filter: no code branches on a kind), else
    ``NotFoundError("game_not_found")``, as for a game that does not exist."""
    if not Game.objects.filter(pk=game_id, kind=kind).exists():
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    return game_get(game_id)


def game_get(game_id: int, *, token: str | None = None) -> Game:
    """The game with its seats (and their players) and creator, as one snapshot: the seats are those of the game's
    ``version``. Raises ``NotFoundError("game_not_found")``. ``token``: the game's view version token, taken
    before (``games.selectors.versions.game_token``); when it names this process's own last commit of the game, the
    game comes from memory without a query (``games.selectors.state.game_as_committed``).

    One query while the game has a seat: the seats joined to their game (one statement, so one snapshot), whose
    ``game.seats.all()`` then answers from them, as after ``prefetch_related``; a second, for the game alone, before
    anyone sits, which also says whether a seat was taken after the first (then both are read again). Every seat
    change commits with its log entry and the version it makes (``games.services``), so a reader that pairs these
    seats with log entries up to ``version`` (``game_events``, ``live.feed_read``) tells each entry's viewer right.
    On PostgreSQL it is one statement in every case (``_game_read``).
    """
    if token is not None:
        remembered = game_as_committed(game_id, token)
        if remembered is not None:
            return remembered
    if statements.is_postgresql():
        game = _game_read(game_id)
        remember_read(game)
        return game
    while True:
        # No ORDER BY: sorting a few seats here costs less than compiling one.
        joined = (
            Seat.objects.filter(game_id=game_id).select_related("game__creator", "game__rematch", "player").order_by()
        )
        seats = sorted(joined, key=lambda seat: seat.number)
        if seats:
            game = seats[0].game
            for seat in seats:
                seat.game = game
            break
        seated = Exists(Seat.objects.filter(game_id=OuterRef("pk")))
        found = Game.objects.select_related("creator", "rematch").filter(pk=game_id).annotate(seated=seated).first()
        if found is None:
            raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
        if not found.seated:
            game = found
            break
        # Someone sat down between the two reads: this game row's version counts his seat_taken (and maybe a
        # deal), which the empty seats above do not. Each turn of the loop takes another commit of a seat taken
        # and all seats left again between two statements of ours: it cannot spin by itself.
    _prefetched(game, seats)
    remember_read(game)
    return game


def _prefetched(game: Game, seats: list[Seat]) -> None:
    # What prefetch_related("seats") leaves: the related manager's queryset, already evaluated.
    prefetched = game.seats.all()
    prefetched._result_cache = seats
    prefetched._prefetch_done = True
    game._prefetched_objects_cache = {"seats": prefetched}


def _game_read(game_id: int) -> Game:
    """``game_get`` on PostgreSQL: one statement (``games.selectors.statements``), which also brings this process's
    remembered state of the game up to its version when it is a few entries behind."""
    known = remembered_version(game_id)
    found = statements.game_read(game_id, known)
    if found is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    game, tail = found
    _prefetched(game, game._seat_rows)  # type: ignore[attr-defined]
    if known is not None and tail is not None:
        catch_up(game, known, tail)
    return game


def game_etag(game: Game, user: AbstractBaseUser | AnonymousUser) -> str:
    """An entity tag for the caller's view: it changes with the version and differs per viewer."""
    # A finished game's view changes once more when its rematch is made (``rematch``), with no new version.
    rematch = rematch_links(game)["rematch"] if game.status == GameStatus.FINISHED else None
    suffix = f"-r{rematch}" if rematch else ""
    return f'"g{game.pk}-v{game.version}-{viewer_for(game, user)}{suffix}"'
