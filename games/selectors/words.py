"""A game's log in words for one viewer, and the one way the server names who sits at a seat.

Engine events are phrased by their game's own phrase table (``games.engine.registry.game_kind(kind).phrase``);
the entries the server writes itself (a seat taken or left, a seat handed to the bot, a cancellation) are
phrased here. The web table, its log page and its replay, the admin's hand histories and the mails all name
seats with ``seat_name`` and read the log through ``log_lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.phrasing import Line, Names, Piece, line
from games.engine.protocol import Viewer
from games.engine.registry import game_kind
from games.models import Event, Game, Seat
from games.selectors.read_models import event_json


def seat_name(number: int, *, player: str | None = None, bot: str | None = None) -> str:
    """Who sits at seat ``number``, for people: the player's name (also while a bot plays for them), ``bot 1
    (basic)`` for a bot's seat, ``seat 1`` for an empty one."""
    if player:
        return player
    if bot:
        return f"bot {number} ({bot})"
    return f"seat {number}"


def seat_names(seats: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Seat number -> ``seat_name``, from seat rows as ``games.selectors.read_models.game_seats`` lists them
    (``{"seat", "player": {"name"} | None, "bot"}``)."""
    return {
        row["seat"]: seat_name(row["seat"], player=(row.get("player") or {}).get("name"), bot=row.get("bot"))
        for row in seats
    }


def seat_row_name(seat: Seat) -> str:
    """``seat_name`` of a ``Seat`` row (its player loaded, or loaded here)."""
    player = seat.player.get_username() if seat.player else None
    return seat_name(seat.number, player=player, bot=seat.bot or None)


def game_names(game: Game) -> Names:
    """The names of every seat of ``game`` (``seat_name``), for a phrase table or a history."""
    names = {number: seat_name(number) for number in range(game.seat_count)}
    names.update((seat.number, seat_row_name(seat)) for seat in game.seats.all())
    return Names(names)


@dataclass(frozen=True, slots=True)
class LogLine:
    """One thing that happened, in words: its log entry ``seq`` and its ``line`` (``pieces`` of text and
    cards; ``text``: all of it as text)."""

    seq: int
    line: Line

    @property
    def text(self) -> str:
        return self.line.text

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return self.line.pieces

    @property
    def cards(self) -> tuple[str, ...]:
        return self.line.cards


def _player(entry: Mapping[str, Any], key: str = "player") -> str | None:
    return (entry.get(key) or {}).get("name")


def _seat_taken(entry: Mapping[str, Any], names: Names) -> Line:
    seat = entry["seat"]
    return line(f"{seat_name(seat, player=_player(entry), bot=entry.get('bot'))} takes seat {seat}")


def _seat_left(entry: Mapping[str, Any], names: Names) -> Line:
    seat = entry["seat"]
    return line(f"{seat_name(seat, player=_player(entry))} leaves seat {seat}")


def _seat_to_bot(entry: Mapping[str, Any], names: Names) -> Line:
    return line(
        f"{names(entry['seat'])} missed {entry['timeouts']} turns in a row: the {entry['bot']} bot plays for them "
        "from now on"
    )


def _game_cancelled(entry: Mapping[str, Any], names: Names) -> Line:
    return line(f"{_player(entry, 'by') or 'The creator'} cancels the table")


SERVER_PHRASES: dict[str, Callable[[Mapping[str, Any], Names], Line]] = {
    "seat_taken": _seat_taken,
    "seat_left": _seat_left,
    "seat_to_bot": _seat_to_bot,
    "game_cancelled": _game_cancelled,
}
"""The log entries the server writes beside the engine's actions (games/services), by ``kind``."""


def log_lines(kind: str, entries: Iterable[Mapping[str, Any]], names: Mapping[int, str]) -> list[LogLine]:
    """Log entries of a game of ``kind``, already redacted for their viewer (``events/``'s shape), in words: one
    line per event, phrased by the game's own table; ``names``: seat number -> ``seat_name``."""
    parts, known = game_kind(kind), Names(names)
    lines = []
    for entry in entries:
        if "events" not in entry:
            phrase = SERVER_PHRASES.get(entry["kind"])
            if phrase is not None:
                lines.append(LogLine(entry["seq"], phrase(entry, known)))
            continue
        lines += [LogLine(entry["seq"], parts.phrase(event, known)) for event in entry["events"]]
    return lines


def game_outcome(game: Game, viewer: Viewer) -> list[str]:
    """How ``game`` ended, as ``viewer`` may see it: the lines of its last log entry that say who won (the
    game's ``outcomes``: the last pot and the match's end, or who went out and the ranking). Empty for a game
    that has not ended."""
    parts = game_kind(game.kind)
    row = Event.objects.filter(game=game).order_by("-seq").first()
    if row is None or "events" not in row.payload:
        return []
    entry = event_json(row, viewer)
    if not any(event["type"] == "match_ended" for event in entry["events"]):
        return []
    names = game_names(game)
    return [parts.phrase(event, names).text for event in entry["events"] if event["type"] in parts.outcomes]
