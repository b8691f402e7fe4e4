"""Appending to the event log: apply with the engine, insert the rows, update the projections.

Every append runs inside the caller's transaction with the game row locked (``select_for_update``),
so two writers of one game are serialised; the unique (game, seq) constraint is the last guard:
an ``IntegrityError`` there becomes a ``ConflictError`` and nothing is written.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import Case, F, PositiveIntegerField, Q, Value, When
from django.utils import timezone

from games.engine.cards import parse_cards
from games.engine.chance import fair_shuffle, sample_shuffle
from games.engine.errors import EngineError
from games.engine.protocol import Action
from games.engine.protocol import Event as EngineEvent
from games.models import Event, Game, GameStatus, Seat, Snapshot
from games.selectors.due import deadline_after, since_after
from games.selectors.state import (
    SNAPSHOT_EVERY,
    catch_up,
    engine_of,
    remember_state,
    remembered_version,
    seats_by_number,
)
from games.selectors.statements import is_postgresql
from games.services import statements
from games.services.finish_hooks import game_finished
from games.services.scheduling import after_commit
from games.services.versions import changed_after_commit
from palace_api.errors import ConflictError, ErrorCode, UnprocessableError


def _shuffle_for(game: Game, request: Any) -> Action:
    """The n-th shuffle of the match: staff's prearranged order if one is set (the match then has no seeds),
    else the order the deal's seeds give, drawing them with the first shuffle of each deal (``fair_shuffle``:
    derived from the game's master seed, or fresh for a game stored before it)."""
    prearranged = game.prearranged_shuffles or []
    if request.number < len(prearranged):
        action = Action(type="shuffle", cards=parse_cards(prearranged[request.number]))
        if sorted(action.cards) != sorted(request.cards):
            raise UnprocessableError(
                ErrorCode.INVALID_PREARRANGED_SHUFFLE,
                f"prearranged shuffle {request.number} must hold exactly the {len(request.cards)} cards "
                f"of the {request.purpose} shuffle",
            )
        return action
    if not request.seeds_due:
        return sample_shuffle(request)
    # Seeds never change once seated: those read with the lock (on PostgreSQL) serve while every seat is taken.
    seeds: dict[int, str] | None = getattr(game, "_seeds", None)
    if seeds is None or len(seeds) < game.seat_count:
        seeds = dict(Seat.objects.filter(game=game).order_by().values_list("number", "seed"))
        game._seeds = seeds  # type: ignore[attr-defined]  # kept with the row this process remembers
    players = [seeds.get(number) or None for number in range(game.seat_count)]
    return fair_shuffle(request, game=str(game.pk), players=players, master=game.seed_master or None)


def _row(game: Game, seq: int, action: Action, events: tuple[EngineEvent, ...]) -> Event:
    return Event(
        game=game,
        seq=seq,
        kind=action.type,
        actor=action.seat,
        payload={"action": action.to_json(), "events": [event.to_json() for event in events]},
    )


def append_action(game: Game, state: Any, action: Action | None) -> tuple[Any, list[Event]]:
    """Apply ``action`` (``None``: only the chance actions now due) and every shuffle it makes due.

    ``game`` must be locked by the caller's transaction. Raises ``EngineError`` (nothing written),
    ``UnprocessableError("invalid_prearranged_shuffle")``, ``ConflictError("version_conflict")``.
    Returns the new state and the rows written.
    """
    state, rows, before = _plan(game, state, action)
    if not _write(game, state, rows, before=before, fenced=False):
        raise ConflictError(ErrorCode.VERSION_CONFLICT, "another request changed this game first")
    return state, rows


def append_unlocked(game: Game, state: Any, action: Action) -> tuple[Any, list[Event]] | None:
    """``append_action`` without the row lock, on PostgreSQL, when ``game`` and ``state`` are this process's memory
    of the game at its last commit here (``games.selectors.state.remembered_game``): the write is one statement that
    inserts and updates nothing unless the game's row still has the version and status ``game`` holds, so it commits
    exactly what the locked path would have, or nothing. Seats change only with a new version, so the fence covers
    them too; whether a seated player wants the game's news is read again by the statement.

    A shuffle the action makes due is drawn as under the lock: a prearranged order, or the seeds the game and its
    seats logged (which never change once seated), or fresh ones that nobody sees unless the write commits.
    Returns ``None`` (nothing written) when the fence fails, when the rules refuse the action or a prearranged
    shuffle does not fit, and when the action needs what the locked path does alone: the end of the match, another
    database than PostgreSQL. A snapshot due is written by the same statement. Raises only what the write raises
    once it is sent.
    """
    if not is_postgresql():
        return None
    try:
        state, rows, before = _plan(game, state, action)
    except (EngineError, UnprocessableError):
        return None  # the locked path gives the refusal, after the checks it makes first
    if engine_of(game).is_over(state):
        return None
    if not _write(game, state, rows, before=before, fenced=True):
        return None
    return state, rows


class _Before(NamedTuple):
    """What the state the rows were applied to said (see ``_write``): ``to_act``, ``due_to_act``, and the seats due
    after the rows, each with the row that made its decision due (``None``: due since before them)."""

    acting: set[int]
    due: set[int]
    since: dict[int, int | None]


def _plan(game: Game, state: Any, action: Action | None) -> tuple[Any, list[Event], _Before]:
    """The state after ``action`` and the shuffles it makes due, the rows to write, and what ``_write`` needs of
    the state before. Raises what ``append_action`` raises."""
    engine = engine_of(game)
    acting_before = set(engine.to_act(state))
    due_before = set(engine.due_to_act(state))
    # None: due since before these rows (Seat.due_since keeps its value); else the row that made it due.
    since: dict[int, int | None] = dict.fromkeys(due_before)
    rows: list[Event] = []
    seq = game.version
    if action is not None:
        state, events = engine.apply(state, action)
        seq += 1
        rows.append(_row(game, seq, action, events))
        since = since_after(since, due=engine.due_to_act(state), decided=action.seat, version=seq)
    while (request := engine.chance_request(state)) is not None:
        shuffle = _shuffle_for(game, request)
        state, events = engine.apply(state, shuffle)
        seq += 1
        rows.append(_row(game, seq, shuffle, events))
        since = since_after(since, due=engine.due_to_act(state), decided=None, version=seq)
    return state, rows, _Before(acting_before, due_before, since)


def append_rows(game: Game, rows: list[Event]) -> None:
    """Insert rows that are not engine actions (seats taken) and move the version on."""
    _insert(game, rows)
    game.save(update_fields=["version", "updated"])
    _changed(game)


def _insert(game: Game, rows: list[Event]) -> None:
    # No savepoint: a duplicate (game, seq) aborts the whole transaction, which the ConflictError rolls back.
    try:
        Event.objects.bulk_create(rows)
    except IntegrityError as error:
        raise ConflictError(ErrorCode.VERSION_CONFLICT, "another request changed this game first") from error
    game.version = rows[-1].seq if rows else game.version


def game_lock(game_id: int) -> Game | None:
    """The game ``game_id`` (``None`` if there is none), its row locked until the caller's transaction ends.

    One query reads the seats with the game and locks the game's row alone (``FOR UPDATE OF``; SQLite
    ignores row locks). A request that waited for the lock gets the row as the other writer committed it,
    with its new version. The seats it reads may be older than the game's row, but a started match has
    all its seats and they never change; with fewer seats than ``seat_count``, ``_seats`` reads them again.
    On PostgreSQL the same statement reads the log entries this process's remembered state of the game lacks
    (``games.services.statements.lock_read``), so ``game_state`` then reads nothing.
    """
    if is_postgresql():
        known = remembered_version(game_id)
        found = statements.lock_read(game_id, known)
        if found is None:
            return None
        game, tail = found
        if known is not None and tail is not None:
            catch_up(game, known, tail)
        return game
    # No ORDER BY (Seat's default one would sort by the game's creation): sorting a few seats here costs
    # less than compiling one.
    locked = Seat.objects.filter(game_id=game_id).select_related("game").select_for_update(of=("game",)).order_by()
    seats = sorted(locked, key=lambda seat: seat.number)
    if not seats:
        return Game.objects.select_for_update().filter(pk=game_id).first()
    game = seats[0].game
    game._seats = seats_by_number(seats)
    return game


def _news(game: Game) -> bool:
    """Whether a player seated at ``game`` wants its news (``Player.news_wanted``; a user without a Player does):
    read with the lock on PostgreSQL (``statements.lock_read``), else here, once per game object."""
    news: bool | None = getattr(game, "_news", None)
    if news is None:
        seated = Seat.objects.filter(game=game, player__isnull=False)
        news = seated.filter(Q(player__player__isnull=True) | Q(player__player__news_wanted=True)).exists()
        game._news = news  # type: ignore[attr-defined]
    return news


def _seats(game: Game) -> dict[int, tuple[int | None, str]]:
    # Read once per game object: seats never change once the match has started.
    cached: dict[int, tuple[int | None, str]] | None = getattr(game, "_seats", None)
    if cached is None or len(cached) < game.seat_count:
        rows = Seat.objects.filter(game=game).order_by().values_list("number", "player_id", "bot")
        cached = {number: (player_id, bot) for number, player_id, bot in sorted(rows)}
        game._seats = cached  # type: ignore[attr-defined]
    return cached


def seat_bots(game: Game) -> dict[int, str]:
    """Each seat's bot policy (``""`` for a human)."""
    return {number: bot for number, (_, bot) in _seats(game).items()}


def seat_of(game: Game, user: Any) -> int | None:
    """The seat ``user`` sits at in ``game``, or ``None``."""
    if user.pk is None:  # a bot seat has no player either
        return None
    return next((number for number, (player_id, _) in _seats(game).items() if player_id == user.pk), None)


def _changed(game: Game) -> None:
    # Every append comes through here: on commit the game's viewers and its seated players' turns get new tags,
    # and the live streams hear of the new version.
    players = [player_id for player_id, _ in _seats(game).values()]
    changed_after_commit(game_id=game.pk, version=game.version, players=players)


def _write(game: Game, state: Any, rows: list[Event], *, before: _Before, fenced: bool) -> bool:
    """Insert ``rows`` and update the projections to ``state``; return whether it did.

    ``before.acting``: ``to_act`` of the state the rows were applied to, which is what ``Seat.to_act``
    holds: every append to a started match comes here, and a waiting game's seats hold ``False``, as
    the new game's ``to_act`` (empty while the first shuffle is due) says. ``before.due``: ``due_to_act``
    of that state, the seats whose ``Seat.due_since`` is set. ``before.since``: the seats due after the rows, each
    with the row that made its decision due, or ``None`` for one whose decision is due since before them
    (``games.selectors.due``). The seats are written only when one of the two changes. The deadline is
    counted from the last row's time, as ``games.selectors.due`` counts it when it reads the past.
    A snapshot of ``state`` is written with them when the version passes a multiple of ``SNAPSHOT_EVERY``.
    On PostgreSQL all of it is one statement (``games.services.statements.write_append``), which writes nothing
    unless the game's row still has the version and status ``game`` held (always so under the lock; ``fenced``:
    ``game`` is not locked, and its news flag is taken from the statement). Returns ``False`` only then.
    """
    engine = engine_of(game)
    version_before, status_before = game.version, game.status
    to_act = set(engine.to_act(state))
    over = engine.is_over(state)
    finishing = over and game.status != GameStatus.FINISHED
    bots = seat_bots(game)
    acting = [bot for number, bot in bots.items() if number in to_act]
    humans_due = any(not bot for number, bot in bots.items() if number in before.since)
    seats = _seats_change(to_act=to_act, acting_before=before.acting, since=before.since, due_before=before.due)
    game.status = GameStatus.FINISHED if over else GameStatus.ACTIVE
    version = rows[-1].seq if rows else version_before
    snapshot = _snapshot_due(engine, state, version=version, version_before=version_before)
    if is_postgresql():
        now = timezone.now()
        game.deadline = deadline_after(now, game.turn_timeout) if humans_due else None
        game.version = version
        try:
            news = statements.write_append(
                game,
                rows,
                now=now,
                seats=seats,
                version_before=version_before,
                status_before=status_before if fenced else None,
                snapshot=snapshot,
            )
        except IntegrityError as error:
            raise ConflictError(ErrorCode.VERSION_CONFLICT, "another request changed this game first") from error
        if news is None:
            return False
        if fenced:
            game._news = news  # type: ignore[attr-defined]
    else:
        _insert(game, rows)
        moment = rows[-1].created if rows else timezone.now()
        game.deadline = deadline_after(moment, game.turn_timeout) if humans_due else None
        game.save(update_fields=["version", "status", "deadline", "updated"])
        _seats_write(game, seats)
        if snapshot is not None:
            Snapshot.objects.create(game=game, version=version, state=snapshot)
    if finishing:
        game_finished(game)
    _after_write(game, state, bots_to_act=[bot for bot in acting if bot])
    return True


def _snapshot_due(engine: Any, state: Any, *, version: int, version_before: int) -> dict[str, Any] | None:
    """``state`` (at ``version``) as a ``Snapshot``'s JSON when the write from ``version_before`` passes a multiple
    of ``SNAPSHOT_EVERY``, else ``None``."""
    if version // SNAPSHOT_EVERY > version_before // SNAPSHOT_EVERY:
        return engine.state_to_json(state)
    return None


def _after_write(game: Game, state: Any, *, bots_to_act: list[str]) -> None:
    """What a commit of ``_write`` owes: the state remembered, the view versions and the streams' announce, the
    tasks."""
    version = game.version
    transaction.on_commit(lambda: remember_state(game, version, state, written=True))
    _changed(game)
    after_commit(
        game_id=game.pk,
        version=version,
        bots_to_act=bots_to_act,
        timeout=game.turn_timeout if game.deadline is not None else None,
        news=_news(game),
    )


def _seats_change(
    *, to_act: set[int], acting_before: set[int], since: dict[int, int | None], due_before: set[int]
) -> tuple[set[int], dict[int, int], set[int]] | None:
    """What ``Seat.to_act`` and ``Seat.due_since`` become (see ``_write``), or ``None`` if neither changes: (the
    seats that may act, {seat: the version its decision is due since, for the newly due}, the seats due since
    before, which keep theirs; every other seat's ``due_since`` becomes ``None``)."""
    started = {seat: version for seat, version in since.items() if version is not None}
    if to_act == acting_before and not started and set(since) == due_before:
        return None
    return to_act, started, set(since) - set(started)


def _seats_write(game: Game, seats: tuple[set[int], dict[int, int], set[int]] | None) -> None:
    """Write ``Seat.to_act`` and ``Seat.due_since`` as ``_seats_change`` says, in one statement (the ORM's path)."""
    if seats is None:
        return
    to_act, started, kept = seats
    due_since = Case(
        *(When(number=seat, then=Value(version)) for seat, version in started.items()),
        When(number__in=list(kept), then=F("due_since")),
        default=Value(None),
        output_field=PositiveIntegerField(),
    )
    acting = Case(When(number__in=to_act, then=Value(True)), default=Value(False))
    Seat.objects.filter(game=game).update(to_act=acting, due_since=due_since)
