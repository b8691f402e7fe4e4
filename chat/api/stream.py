"""The chat on a game's stream: a ``chat`` SSE event per new message the viewer may read (README, "Chat")."""

from __future__ import annotations

from typing import Any

from chat.selectors import latest_id, stream_messages
from games.api.side_events import SideSource
from games.api.side_events import register as register_source

EVENT = "chat"
"""The SSE event name of a chat message on ``games/{id}/stream/``."""

LIMIT = 100
"""Messages sent per read; more follow at the next."""


def _read(game_id: int, user: Any, after: int) -> tuple[list[tuple[str, Any]], int]:
    # The mark moves to the game's newest message, those this viewer may not read (another room, hidden, muted)
    # included: none of them is for him, and a mark left behind would wake his stream again and again.
    top = latest_id(game_id)
    rows = stream_messages(game_id, user, after=after, upto=top, limit=LIMIT)
    mark = rows[-1]["id"] if len(rows) == LIMIT else top
    return [(EVENT, {**row, "created": row["created"].isoformat()}) for row in rows], max(mark, after)


def register() -> None:
    register_source(SideSource(name=EVENT, start=latest_id, read=_read))
