"""The end of the last hand and of the match, as a viewer may see them: what the table shows once a hand is over.

The reading belongs to each game: its history reader (``games.engine.<game>.history``, found through
``games.engine.registry``) turns the log into hands; this module only chooses which log entries to read, as the
viewer receives them, and whether the viewer has acted since the hand ended. The match's end is its
``match_ended`` event (``games/engine/<game>/events.py``), read from the game's last entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from games.engine.protocol import SPECTATOR
from games.engine.registry import game_kind
from games.models import Event, Game, GameStatus
from games.selectors.read_models import event_json, game_events, viewer_for
from games.selectors.words import game_names

WINDOW = 64
"""Log entries read first, back from the game's version: a hand and the start of the next, most of the time."""
WINDOW_MAX = 512
"""The most entries read back for a running game; a hand longer than this is not shown at its end."""
WHOLE_LOG = 20_000
"""A finished game is read from its start (its last hand may be the whole match), at most this many entries."""


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """The last hand over: ``hand`` as its game's history reader gives it (``number``, ``finished``,
    ``last_seq``... and its game's own details); ``fresh``: the viewer has made no decision since it ended (a
    spectator: nobody has), so the table shows it in full."""

    hand: Any
    fresh: bool


def _decisions_after(entries: Iterable[Mapping[str, Any]], seq: int, viewer: Any) -> bool:
    """Whether some entry after ``seq`` is a decision of ``viewer`` (a seat), or of anyone for a spectator."""
    for entry in entries:
        seat = (entry.get("action") or {}).get("seat")
        if entry["seq"] > seq and seat is not None and (not isinstance(viewer, int) or seat == viewer):
            return True
    return False


def last_finished_hand(
    game: Game, user: AbstractBaseUser | AnonymousUser, *, public_only: bool = False
) -> FinishedHand | None:
    """The last finished hand of ``game`` as ``user`` may see it (``public_only``: see
    ``read_models.viewer_for``), or ``None`` before the first hand ends. A running game's log is read back
    ``WINDOW`` entries, then twice as many, up to ``WINDOW_MAX``, until a whole hand that ended is among them
    (a history reader yields no hand whose start it did not read); a finished game's whole log is read."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.FINISHED) or game.version == 0:
        return None
    parts, names = game_kind(game.kind), game_names(game)
    viewer = viewer_for(game, user, public_only=public_only)
    window = WHOLE_LOG if game.status == GameStatus.FINISHED else WINDOW
    while True:
        after = max(0, game.version - window)
        entries = game_events(game, user, after=after, limit=window, public_only=public_only)["results"]
        hands = [hand for hand in parts.histories(entries, names, game.options) if hand.finished]
        if hands:
            hand = hands[-1]
            return FinishedHand(hand, fresh=not _decisions_after(entries, hand.last_seq, viewer))
        if after == 0 or window >= WINDOW_MAX:
            return None
        window *= 2


def match_ends(games: Iterable[Game]) -> dict[int, dict[str, Any]]:
    """Each finished game's ``match_ended`` event (public: every field of it is), by game id, in one query;
    games that did not finish, or whose last entry does not hold it, are left out."""
    finished = [game for game in games if game.status == GameStatus.FINISHED]
    if not finished:
        return {}
    rows = Event.objects.filter(game__in=finished).filter(seq__in={game.version for game in finished})
    versions = {game.pk: game.version for game in finished}
    out: dict[int, dict[str, Any]] = {}
    for row in rows:
        if versions.get(row.game_id) != row.seq or "events" not in row.payload:
            continue
        for event in event_json(row, SPECTATOR)["events"]:
            if event["type"] == "match_ended":
                out[row.game_id] = event
    return out
