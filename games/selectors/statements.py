"""The game view's read as fixed SQL on PostgreSQL (``games.selectors.read_models.game_get`` uses it there).

One statement reads the game, its creator's name, its rematch's id, its seats with their players' names, and the
log entries this process's remembered state of the game lacks (``games.selectors.state.remembered_version``):
with the ORM the same read was a four-table join whose query building was the largest part of a GET's time
(``benchmarks/README.md``, bench_http), then an events read whenever another process made the last move. The
objects it builds are those ``select_related`` would (the game; each seat with its game and player; the game's
creator and rematch), with only the columns the views read: any other field of a player, the creator or the
rematch is deferred, so reading one costs a query rather than a wrong value.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Game, Seat

TAIL_MAX = 100
"""Log entries a statement reads at most for a remembered state (the 100 in ``GAME_SQL`` and in
``games.services.statements.LOCK_SQL``); one further behind reads the latest snapshot
(``games.selectors.state.SNAPSHOT_EVERY`` apart)."""


_User = get_user_model()
_SEAT_FIELDS = ["id", "number", "player_id", "bot", "seed", "to_act", "due_since"]

# The tables are Game's, Seat's, Event's and the user model's (Django's auth.User, whose USERNAME_FIELD is
# ``username``); tests/games/api/test_games_queries.py runs this statement.
GAME_SQL = """
SELECT g.*, c.username AS creator_name, r.id AS rematch_id,
  (SELECT json_agg(json_build_array(s.id, s.number, s.player_id, s.bot, s.seed, s.to_act, s.due_since, u.username))
   FROM games_seat s LEFT JOIN auth_user u ON u.id = s.player_id WHERE s.game_id = g.id) AS seats_json,
  CASE WHEN %(known)s >= 0 AND g.version > %(known)s AND g.version - %(known)s <= 100 THEN
    (SELECT json_agg(e.payload ORDER BY e.seq) FROM games_event e
     WHERE e.game_id = g.id AND e.seq > %(known)s AND e.seq <= g.version)
  END AS tail
FROM games_game g JOIN auth_user c ON c.id = g.creator_id LEFT JOIN games_game r ON r.rematch_of_id = g.id
WHERE g.id = %(game)s
"""


def is_postgresql() -> bool:
    """Whether the default database is PostgreSQL, where this statement runs."""
    return connection.vendor == "postgresql"


def json_value(value: Any) -> Any:
    """A JSON column of a raw statement as Python: Django reads jsonb as text for JSONField to parse, and
    json_agg's json may come parsed or not."""
    return json.loads(value) if isinstance(value, str) else value


def tail_payloads(game: Any) -> list[dict[str, Any]] | None:
    """The ``tail`` column of a game read by a raw statement, as a list of payloads, or ``None``."""
    tail = json_value(game.tail)
    return None if tail is None else [json_value(payload) for payload in tail]


def _from_db(model: Any, values: dict[str, Any]) -> Any:
    """A ``model`` instance as the ORM loads one, with ``values`` (attname -> value) and every other field deferred
    (``Model.from_db`` takes the values in the order of the model's fields)."""
    names = [field.attname for field in model._meta.concrete_fields if field.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])


def _user(user_id: int, name: str) -> Any:
    return _from_db(_User, {"id": user_id, "username": name})


def game_read(game_id: int, known: int | None) -> tuple[Game, list[dict[str, Any]] | None] | None:
    """The game ``game_id`` as ``read_models.game_get`` returns it, without its seats' prefetch cache (the caller
    sets it from ``game._seat_rows``, the seats in order), or ``None`` if there is no such game. ``known``: the
    version of the state this process remembers of the game (``None``: none); returned beside the game, the
    payloads of the entries after it up to the game's version, in order, or ``None`` (no such stretch, or one
    longer than ``TAIL_MAX``)."""
    found = list(Game.objects.raw(GAME_SQL, {"game": game_id, "known": -1 if known is None else known}))
    if not found:
        return None
    game = found[0]
    cache = game._state.fields_cache
    cache["creator"] = _user(game.creator_id, game.creator_name)
    cache["rematch"] = None if game.rematch_id is None else _from_db(Game, {"id": game.rematch_id})
    seats = []
    for *values, name in sorted(json_value(game.seats_json) or [], key=lambda row: row[1]):
        seat = _from_db(Seat, {**dict(zip(_SEAT_FIELDS, values, strict=True)), "game_id": game.pk})
        seat._state.fields_cache["game"] = game
        seat._state.fields_cache["player"] = None if seat.player_id is None else _user(seat.player_id, name)
        seats.append(seat)
    game._seat_rows = seats  # type: ignore[attr-defined]
    return game, tail_payloads(game)
