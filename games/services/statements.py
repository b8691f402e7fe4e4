"""The write path's two hot statements as fixed SQL on PostgreSQL (``games.services.log`` uses them there).

Each decision is one read under the row lock and one write before the commit, or, when this process committed the
game's last version itself and still holds it, the write alone (``games.services.log.append_unlocked``):

- ``lock_read``: the game's row, locked (``FOR UPDATE OF``), with its seats and the log entries this process's
  remembered state of the game lacks (``games.selectors.state.remembered_version``), in one statement;
- ``write_append``: the new log entries inserted, the game's row and its seats' projections (``Seat.to_act``,
  ``Seat.due_since``) updated, and the state's snapshot inserted when one is due, if the game's row still has the
  version and status the writer read, in one statement (data-modifying ``WITH`` clauses, which PostgreSQL runs to
  completion whether or not the outer query reads them, all in the caller's transaction, or in the statement's
  own).

Why fixed SQL: with the ORM an action was the lock, an events read when another process made the previous move,
an INSERT and two UPDATEs, each a round trip and the ORM's query building, which was the largest single part of
an action's profile (``benchmarks/README.md``, bench_http). The statements are the ORM's, said once: the same
columns, the same values, the same lock; the ORM path stays for other databases (SQLite in tests).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import connection

from games.models import Event, Game
from games.selectors.statements import json_value, tail_payloads

# Whether a seated player wants the news of the game aliased ``g`` (``players.models.Player.news_wanted``; a user
# without a Player does): read with the lock, or by a write without it.
NEWS_SQL = """EXISTS (SELECT 1 FROM games_seat s LEFT JOIN players_player p ON p.user_id = s.player_id
          WHERE s.game_id = g.id AND s.player_id IS NOT NULL AND (p.id IS NULL OR p.news_wanted))"""

# The tables are Game's, Seat's and Event's (tests/games/api/test_games_queries.py runs these statements).
LOCK_SQL = f"""
SELECT g.*,
  (SELECT json_agg(json_build_array(s.number, s.player_id, s.bot, s.seed))
   FROM games_seat s WHERE s.game_id = g.id) AS seats_json,
  {NEWS_SQL} AS news,
  CASE WHEN %(known)s >= 0 AND g.version > %(known)s AND g.version - %(known)s <= 100 THEN
    (SELECT json_agg(e.payload ORDER BY e.seq) FROM games_event e
     WHERE e.game_id = g.id AND e.seq > %(known)s AND e.seq <= g.version)
  END AS tail
FROM games_game g WHERE g.id = %(game)s FOR UPDATE OF g
"""  # noqa: S608 - made of this module's constants alone

# Seat.due_since: the version that made each newly due seat's decision due; kept for a seat due since before;
# NULL for the others (``games.services.log._write``). The seats are written only when ``%(seats)s``, the state's
# snapshot (``Snapshot``, a cache: one already there is left) only when ``%(snapshot_due)s`` (a test of the snapshot's
# own parameter would parse its JSON twice).
# Nothing is written unless the game's row still has the version the writer read (always so under the row lock),
# and the status, when given: the whole guard of a writer without the lock (``games.services.log.append_unlocked``).
# An UPDATE that waited for another writer's lock checks its WHERE again on the row that writer committed.
WRITE_SQL = f"""WITH moved AS (
  UPDATE games_game SET version = %(version)s, status = %(status)s, deadline = %(deadline)s, updated = %(now)s
  WHERE id = %(game)s AND version = %(version_before)s
    AND (%(status_before)s::text IS NULL OR status = %(status_before)s) RETURNING id
), inserted AS (
  INSERT INTO games_event (game_id, seq, kind, actor, payload, created)
  SELECT %(game)s, r.seq, r.kind, r.actor, r.payload, %(now)s
  FROM jsonb_to_recordset(%(rows)s::jsonb) AS r(seq integer, kind text, actor integer, payload jsonb)
  WHERE EXISTS (SELECT 1 FROM moved)
  RETURNING id, seq
), seated AS (
  UPDATE games_seat SET
    to_act = (number = ANY(%(to_act)s::integer[])),
    due_since = CASE
      WHEN number = ANY(%(started)s::integer[])
        THEN (%(versions)s::integer[])[array_position(%(started)s::integer[], number::integer)]
      WHEN number = ANY(%(kept)s::integer[]) THEN due_since
    END
  WHERE game_id = %(game)s AND %(seats)s AND EXISTS (SELECT 1 FROM moved) RETURNING id
), snapshotted AS (
  INSERT INTO games_snapshot (game_id, version, state, created)
  SELECT %(game)s, %(version)s, %(snapshot)s::jsonb, %(now)s
  WHERE %(snapshot_due)s AND EXISTS (SELECT 1 FROM moved)
  ON CONFLICT (game_id, version) DO NOTHING RETURNING id
) SELECT i.seq, i.id,
  CASE WHEN %(status_before)s::text IS NOT NULL THEN {NEWS_SQL} END AS news
FROM moved g LEFT JOIN inserted i ON true"""  # noqa: S608 - made of this module's constants alone


def lock_read(game_id: int, known: int | None) -> tuple[Game, list[dict[str, Any]] | None] | None:
    """The game ``game_id`` with its row locked until the caller's transaction ends, or ``None`` if there is none.

    The game carries ``_seats`` (``{number: (player_id, bot)}``, as ``games.services.log._seats`` reads them) and
    ``_seeds`` (``{number: Seat.seed}``, for ``games.services.log._shuffle_for``) and ``_news`` (whether a seated
    player wants the game's news: ``players.models.Player.news_wanted``, or a user without a Player).
    ``known``: the version of the state this process remembers of the game (``None``: none); returned beside the
    game: the payloads of the entries after ``known`` up to the game's version, in order, or ``None`` when there
    is no such stretch or it is longer than ``games.selectors.statements.TAIL_MAX``.
    """
    params = {"game": game_id, "known": -1 if known is None else known}
    found = list(Game.objects.raw(LOCK_SQL, params))
    if not found:
        return None
    game = found[0]
    seats = json_value(game.seats_json) or []
    game._seats = {number: (player_id, bot) for number, player_id, bot, _ in sorted(seats)}  # type: ignore[attr-defined]
    game._seeds = {number: seed for number, _, _, seed in seats}  # type: ignore[attr-defined]
    game._news = bool(game.news)  # type: ignore[attr-defined]
    return game, tail_payloads(game)


def write_append(
    game: Game,
    rows: list[Event],
    *,
    now: datetime,
    seats: tuple[set[int], dict[int, int], set[int]] | None,
    version_before: int,
    status_before: str | None,
    snapshot: dict[str, Any] | None = None,
) -> bool | None:
    """Insert ``rows`` (``created``: ``now``; their ``pk`` set), and write ``game``'s ``version``, ``status``,
    ``deadline`` and ``updated`` (``now``), and, when ``seats`` is given, every seat's ``to_act`` and ``due_since``:
    ``seats`` = (the seats that may act, {seat: the version its decision is due since, for those newly due}, the
    seats due since before, which keep theirs), and, when ``snapshot`` is given (the engine's state at the new
    version as JSON, ``state_to_json``), the game's ``Snapshot`` at that version, in one statement, if the game's
    row still has ``version_before`` and ``status_before`` (``None``: any status; the caller holds the row's lock).

    Returns ``None`` when it has not (nothing written), else whether a seated player wants the game's news (as
    ``lock_read`` reads it; read only when ``status_before`` is given, else ``False``). Raises ``IntegrityError``
    when a row's ``(game, seq)`` exists (the caller's transaction, or the statement alone outside one, is then
    rolled back)."""
    to_act, started, kept = seats or (set(), {}, set())
    params: dict[str, Any] = {
        "game": game.pk,
        "now": now,
        "rows": json.dumps(
            [{"seq": row.seq, "kind": row.kind, "actor": row.actor, "payload": row.payload} for row in rows]
        ),
        "version": game.version,
        "status": game.status,
        "deadline": game.deadline,
        "version_before": version_before,
        "status_before": status_before,
        "seats": seats is not None,
        "to_act": sorted(to_act),
        "started": list(started),
        "versions": list(started.values()),
        "kept": sorted(kept),
        "snapshot": None if snapshot is None else json.dumps(snapshot),
        "snapshot_due": snapshot is not None,
    }
    with connection.cursor() as cursor:
        cursor.execute(WRITE_SQL, params)
        found = cursor.fetchall()
    if not found:
        return None
    ids = {seq: pk for seq, pk, _ in found if seq is not None}
    for row in rows:
        row.created = now
        row.pk = ids[row.seq]
    game.updated = now
    return bool(found[0][2])
