"""Reads of the table chat: who may read and write each room, pages of messages, the stream's and the export's.

Rights (README, "Chat"), Lichess's: during play (a table waiting or active) the players' room is its players'
(staff read it too) and the spectators' room is everyone else's, closed to the players so that nobody at the
table is helped from outside. Once the game has ended (finished or cancelled) both rooms are readable by
everyone; the players' room stays the players' to write in and the spectators' room is open to all. Tables have
no privacy setting (any game is visible to any client), so the players' room is kept for its players only while
the game is played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from chat.models import Message, Mute, Room
from games.models import Game, GameStatus

ENDED = (GameStatus.FINISHED, GameStatus.CANCELLED)
ROOMS: tuple[str, ...] = tuple(Room.values)
"""The rooms of every game: ``players``, ``spectators``."""


@dataclass(frozen=True, slots=True)
class Rights:
    read: bool
    write: bool


def is_player(game: Game, user: Any) -> bool:
    """Whether ``user`` holds a seat of ``game`` (one query unless the seats were prefetched)."""
    if getattr(user, "pk", None) is None:
        return False
    return any(seat.player_id == user.pk for seat in game.seats.all())


def room_rights(game: Game, user: Any, room: str) -> Rights:
    """What ``user`` (a user or an anonymous one) may do in ``room`` of ``game`` (the module's rules)."""
    authenticated = getattr(user, "pk", None) is not None
    player = is_player(game, user)
    staff = bool(getattr(user, "is_staff", False))
    ended = game.status in ENDED
    if room == Room.PLAYERS:
        return Rights(read=player or staff or ended, write=player)
    if ended:
        return Rights(read=True, write=authenticated)
    return Rights(read=not player, write=authenticated and not player)


def readable_rooms(game: Game, user: Any) -> list[str]:
    return [room for room in Room.values if room_rights(game, user, room).read]


def message_json(message: Message, *, staff: bool = False) -> dict[str, Any]:
    """A message as the API and the stream give it: ``id``, ``game``, ``room``, ``author`` (``{"id", "name"}``),
    ``text`` (raw: escape it where shown), ``created``; staff also get ``hidden``."""
    out: dict[str, Any] = {
        "id": message.pk,
        "game": message.game_id,
        "room": message.room,
        "author": {"id": message.author_id, "name": message.author.get_username()},
        "text": message.text,
        "created": message.created,
    }
    if staff:
        out["hidden"] = message.hidden
    return out


def _visible(game: Game, user: Any, rooms: list[str]) -> QuerySet[Message]:
    """The messages of ``rooms`` that ``user`` sees: hidden ones only for staff, muted authors never."""
    queryset = Message.objects.filter(game=game, room__in=rooms).select_related("author")
    if not getattr(user, "is_staff", False):
        queryset = queryset.filter(hidden=False)
    if getattr(user, "pk", None) is not None:
        queryset = queryset.exclude(author__in=Mute.objects.filter(user=user).values("muted"))
    return queryset


def messages_page(game: Game, user: Any, *, room: str, after: int = 0, limit: int = 50) -> dict[str, Any]:
    """``{"results": [message_json...], "more": bool}``: the messages of ``room`` after id ``after``, oldest first,
    at most ``limit``. The caller checks ``room_rights(...).read`` first."""
    rows = list(_visible(game, user, [room]).filter(id__gt=after).order_by("id")[: limit + 1])
    staff = bool(getattr(user, "is_staff", False))
    return {"results": [message_json(row, staff=staff) for row in rows[:limit]], "more": len(rows) > limit}


def latest_messages(game: Game, user: Any, *, room: str, limit: int = 30) -> list[dict[str, Any]]:
    """The last ``limit`` messages of ``room``, oldest first (the table page's panel)."""
    rows = list(_visible(game, user, [room]).order_by("-id")[:limit])
    return [message_json(row) for row in reversed(rows)]


def latest_id(game_id: int) -> int:
    """The id of the game's newest message, 0 if none: where a new stream starts sending chat."""
    last = Message.objects.filter(game_id=game_id).order_by("-id").values_list("id", flat=True).first()
    return last or 0


def stream_messages(game_id: int, user: Any, *, after: int, upto: int, limit: int = 100) -> list[dict[str, Any]]:
    """The messages with ``after < id <= upto`` in every room ``user`` may read now (the game's stream), oldest
    first, at most ``limit``. A deleted game gives ``[]``."""
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None:
        return []
    rooms = readable_rooms(game, user)
    if not rooms:
        return []
    rows = _visible(game, user, rooms).filter(id__gt=after, id__lte=upto).order_by("id")[:limit]
    return [message_json(row) for row in rows]


def chat_for_export(game: Game, viewer: Any) -> list[dict[str, Any]]:
    """Both rooms' messages (hidden ones left out) for the export of ``game`` (issue 26: the chat is in the export
    only for its players): ``[]`` unless ``viewer`` (a user) holds a seat of it. Oldest first, ``message_json``
    shape with ``created`` a ``datetime``."""
    if not is_player(game, viewer):
        return []
    rows = Message.objects.filter(game=game, hidden=False).select_related("author").order_by("id")
    return [message_json(row) for row in rows]


def mutes_of(user: Any) -> list[dict[str, Any]]:
    """Whom ``user`` muted: ``[{"id", "name"}]`` by name."""
    rows = Mute.objects.filter(user=user).select_related("muted").order_by("muted__username")
    return [{"id": row.muted_id, "name": row.muted.get_username()} for row in rows]
