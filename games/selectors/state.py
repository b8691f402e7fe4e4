"""Loading a game's engine state at any version: the latest snapshot plus a replay of the events after it.

States are immutable, so the last state loaded per game is kept in memory and reused when the
game has not moved, or replayed forward when it has; beside it, the game's row as this process last committed it
(``remembered_game``), for a writer that fences its write on that row's version. Snapshots are written by the
services every ``SNAPSHOT_EVERY`` events; deleting them changes nothing but speed.

The game view's read can also come from this memory (``game_as_committed``): when the game's view version token
(``games.selectors.versions``) is the one this process wrote after its own last commit of the game, nothing was
committed since whose renewal has landed, since a renewal writes the game's token only over an older version's
(``palace_api.cache.RedisCache.set_newer``). So the reader needs no query, as with a 304 under that token.
"""

from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from games.engine.protocol import Action
from games.engine.protocol import Game as EngineGame
from games.engine.registry import get_game
from games.models import Event, Game, GameStatus, Seat, Snapshot

SNAPSHOT_EVERY = 100
"""Events between two snapshots: a load replays at most this many actions."""

_MEMORY_GAMES = 512
# Keyed by id, each entry with the game's creation time: an id reused after a deletion or a rolled-back
# transaction is another game, whose entry does not match. The last item: the game's row as this process wrote
# it at that version (``remember_state(..., written=True)``), or ``None``.
_memory: OrderedDict[int, tuple[str, int, Any, Game | None]] = OrderedDict()
_memory_lock = threading.Lock()
# Per game id: the view version token this process wrote after committing the version, and when it sent the
# write (monotonic seconds); and the game's row as this process last read it for a view (``remember_read``), with
# its seats, their players and its creator.
_tokens: OrderedDict[int, tuple[str, int, float]] = OrderedDict()
_reads: OrderedDict[int, Game] = OrderedDict()

SERVE_SECONDS = 5.0
"""How long after writing a game's token this process may answer the game's view from what it committed
(``game_as_committed``). A later commit elsewhere whose renewal is lost to a cache error leaves the token in place
(its tag stays current for up to ``TOKEN_TTL``, as every tag does then); this bounds how long that leaves this
process's answer at the older version."""


def engine_of(game: Game) -> EngineGame:
    """The rules module of ``game.kind``."""
    return get_game(game.kind)


def _remembered(game: Game) -> tuple[int, Any] | None:
    created = game.created.isoformat()
    with _memory_lock:
        found = _memory.get(game.pk)
        if found is None or found[0] != created:
            return None
        _memory.move_to_end(game.pk)
        return found[1], found[2]


def remembered_version(game_id: int) -> int | None:
    """The version of the state this process remembers of game ``game_id`` (``None``: none). A hint for a reader
    that reads the entries after it in its own query (``catch_up``): the entry may be another game's of the same id
    (``catch_up`` checks)."""
    with _memory_lock:
        found = _memory.get(game_id)
        return None if found is None else found[1]


def remember_state(game: Game, version: int, state: Any, *, written: bool = False) -> None:
    """Keep ``state`` (after ``version`` events of ``game``) in the per-process cache; ``written``: ``game`` is the
    row this process has just committed at ``version`` (as ``games.services.log`` locked and wrote it, with its
    seats), kept beside the state for ``remembered_game``."""
    created = game.created.isoformat()
    with _memory_lock:
        current = _memory.get(game.pk)
        if current is None or current[0] != created or current[1] <= version:
            if written and game.version == version:
                row: Game | None = copy.copy(game)
            elif current is not None and current[0] == created and current[1] == version:
                row = current[3]
            else:
                row = None
            _memory[game.pk] = (created, version, state, row)
            _memory.move_to_end(game.pk)
        while len(_memory) > _MEMORY_GAMES:
            _memory.popitem(last=False)


def remembered_game(game_id: int, version: int) -> tuple[Game, Any] | None:
    """A copy of game ``game_id``'s row as this process last committed it, and its state, if both are at
    ``version``; else ``None``. The row may have changed since in the database: a writer that uses it fences its
    write on the version and status it holds (``games.services.log.append_unlocked``)."""
    with _memory_lock:
        written = _written(game_id, version)
    return None if written is None else (copy.copy(written[0]), written[1])


def _written(game_id: int, version: int) -> tuple[Game, Any] | None:
    # The row this process committed of game ``game_id`` and its state, both at ``version`` (not copied), or None.
    # Call under ``_memory_lock``.
    found = _memory.get(game_id)
    if found is None or found[1] != version or found[3] is None:
        return None
    _memory.move_to_end(game_id)
    return found[3], found[2]


def seats_by_number(seats: Iterable[Seat]) -> dict[int, tuple[int | None, str]]:
    """``{number: (player_id, bot)}`` of ``seats``: what a game's row carries as ``_seats`` for its writer
    (``games.services.log``), and what ``game_as_committed`` compares a read's seats with."""
    return {seat.number: (seat.player_id, seat.bot) for seat in seats}


def catch_up(game: Game, known: int, payloads: list[dict[str, Any]]) -> bool:
    """Bring the remembered state of ``game`` from version ``known`` to ``game.version`` with ``payloads``, the
    entries ``known + 1`` to ``game.version`` in order (read by the caller, committed), if this process still
    remembers ``game`` at ``known``; then ``game_state(game)`` reads nothing. Returns whether it did."""
    remembered = _remembered(game)
    if remembered is None or remembered[0] != known or known + len(payloads) != game.version:
        return False
    engine = engine_of(game)
    state = remembered[1]
    for payload in payloads:
        state = apply_entry(engine, game, state, payload)
    if state is not None:
        remember_state(game, game.version, state)
    return True


def forget_states() -> None:
    """Empty the per-process cache (tests and benchmarks measure loads without it)."""
    with _memory_lock:
        _memory.clear()
        _tokens.clear()
        _reads.clear()


def _keep(memory: OrderedDict[int, Any], game_id: int, value: Any) -> None:
    memory[game_id] = value
    memory.move_to_end(game_id)
    while len(memory) > _MEMORY_GAMES:
        memory.popitem(last=False)


def remember_token(game_id: int, version: int, token: str, *, sent: float) -> None:
    """Note that this process wrote ``token`` as game ``game_id``'s view version token after committing
    ``version``, and the write took (``games.services.versions``: only over an older version's token). ``sent``:
    ``time.monotonic()`` before the write was sent: ``SERVE_SECONDS`` count from it, so a write that took long to
    land (a token and version lost meanwhile, the guard with nothing to compare) is trusted the less."""
    with _memory_lock:
        _keep(_tokens, game_id, (token, version, sent))


def remember_read(game: Game) -> None:
    """Keep ``game`` as read for a view (``read_models.game_get``: its seats, their players, its creator and
    rematch loaded): ``game_as_committed`` takes what a commit does not change from it. A copy is kept: the
    caller's object is its own to change."""
    kept = copy.copy(game)
    with _memory_lock:
        _keep(_reads, game.pk, kept)


def game_as_committed(game_id: int, token: str) -> Game | None:
    """Game ``game_id`` as ``read_models.game_get`` would read it now, from this process's memory alone, or
    ``None`` when that memory cannot say.

    It can when ``token`` (the game's view version token, taken from the shared cache by the caller) is the one
    this process wrote after its last commit of the game, less than ``SERVE_SECONDS`` ago (``remember_token``);
    the game is active; this process remembers the row and state it committed then (``remember_state(...,
    written=True)``); and it has read the game for a view before (``remember_read``) with the seats that commit
    had (a seat handed to a bot is a commit, and it changes them). The row read then gives what a commit of the
    log does not change (the seats' players, the creator, the options); the commit gives the version, status,
    deadline and time of the last change. The state at that version is in memory (``game_state`` reads nothing).
    """
    now = time.monotonic()
    with _memory_lock:
        mark, read = _tokens.get(game_id), _reads.get(game_id)
        if mark is None or read is None or mark[0] != token or now - mark[2] > SERVE_SECONDS:
            return None
        committed = _written(game_id, mark[1])
    if committed is None:
        return None
    version, written = mark[1], committed[0]
    if written.status != GameStatus.ACTIVE or read.created != written.created:
        return None
    seats: dict[int, tuple[int | None, str]] | None = getattr(written, "_seats", None)
    if seats is None or len(seats) != written.seat_count or seats_by_number(read.seats.all()) != seats:
        return None
    game = copy.copy(read)
    game.version, game.status, game.deadline, game.updated = version, written.status, written.deadline, written.updated
    return game


def apply_entry(engine: EngineGame, game: Game, state: Any | None, payload: dict[str, Any]) -> Any | None:
    """The state after one log entry (its ``payload``) of ``game``: its engine action applied to ``state``, the
    match's initial state for the first one (``state`` ``None``); entries that are no engine action (seats
    taken, a seat handed to the bot) leave it as it is. Raises ``EngineError`` only if the log is corrupt."""
    if "action" not in payload:
        return state
    if state is None:
        state = engine.new_game(game.options, game.seat_count)
    state, _ = engine.apply(state, Action.from_json(payload["action"]))
    return state


def state_at(game: Game, version: int, *, use_memory: bool = True, use_snapshots: bool = True) -> Any | None:
    """The engine state after the first ``version`` entries of ``game``'s log, or ``None`` if the match had not
    started by then (no entry up to ``version`` is an engine action: a game waiting, or cancelled, before it).

    The one way the server reads a game, now or in the past (the view, replay, history, notices): it starts from
    the newest of the in-memory state, the latest snapshot and the initial state that is at or before
    ``version``, then applies the actions logged after it, up to ``version``. ``use_memory`` / ``use_snapshots``
    ``False`` skip those starting points (tests and benchmarks compare them with a full replay). Raises
    ``EngineError`` only if the log is corrupt.
    """
    if version == game.version and game.status in (GameStatus.WAITING, GameStatus.CANCELLED):
        return None  # no engine action logged: nothing to read
    engine = engine_of(game)
    start_version, state = 0, None
    if use_memory:
        remembered = _remembered(game)
        if remembered is not None and remembered[0] <= version:
            start_version, state = remembered
    if use_snapshots and (state is None or version - start_version >= SNAPSHOT_EVERY):
        snapshot = (
            Snapshot.objects.filter(game=game, version__gt=start_version, version__lte=version)
            .order_by("-version")
            .values_list("version", "state")
            .first()
        )
        if snapshot is not None:
            start_version, state = snapshot[0], engine.state_from_json(snapshot[1])
    if start_version < version:
        payloads = Event.objects.filter(game=game, seq__gt=start_version, seq__lte=version).order_by("seq")
        for payload in payloads.values_list("payload", flat=True).iterator():
            state = apply_entry(engine, game, state, payload)
    if use_memory and state is not None:
        remember_state(game, version, state)
    return state


def game_state(game: Game, *, use_memory: bool = True, use_snapshots: bool = True) -> Any | None:
    """The engine state now: ``state_at(game, game.version)``."""
    return state_at(game, game.version, use_memory=use_memory, use_snapshots=use_snapshots)
