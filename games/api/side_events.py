"""Events a game's stream sends beside its log entries (the table chat, issue 26), registered by other apps.

A side source never touches the log: its events carry no SSE ``id`` (so ``Last-Event-ID`` stays the last log
entry's seq and a reconnection resumes the log where it was) and its own ``event`` name. games never imports the
apps that register here (import-linter, ``games-knows-no-chat``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SideSource:
    """``start(game_id) -> mark``: where a new stream starts (what is there already is read over the API);
    ``read(game_id, user, mark) -> (events, mark)``: the new events as ``(event name, JSON data)`` and the new mark.
    Both synchronous (ORM reads), run in the streams' database threads."""

    name: str
    start: Callable[[int], int]
    read: Callable[[int, Any, int], tuple[list[tuple[str, Any]], int]]


_sources: dict[str, SideSource] = {}


def register(source: SideSource) -> None:
    """Add (or replace, by name) a side source for every game stream."""
    _sources[source.name] = source


def side_start(game_id: int) -> dict[str, int]:
    return {name: source.start(game_id) for name, source in _sources.items()}


def side_read(game_id: int, user: Any, marks: dict[str, int]) -> tuple[list[tuple[str, Any]], dict[str, int]]:
    """Every source's new events for ``user`` after ``marks``, and the marks after them."""
    events: list[tuple[str, Any]] = []
    after = dict(marks)
    for name, source in _sources.items():
        found, after[name] = source.read(game_id, user, marks.get(name, 0))
        events.extend(found)
    return events, after
