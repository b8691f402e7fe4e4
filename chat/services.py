"""The only writers of the table chat: say something, hide a message (staff), mute a player.

A message is never a log entry: nothing here locks the game, changes its version or touches its events. Once
committed, the game's streams are told through the same fan-out as a move (``games.services.fanout.announce``),
and each stream reads the new message itself (``chat.api.stream``).
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from chat.models import Message, Mute, Room
from chat.selectors import room_rights
from games.models import Game
from games.services.fanout import announce
from palace_api.errors import (
    ApplicationError,
    ConflictError,
    ErrorCode,
    ForbiddenError,
    NotFoundError,
    TooManyRequestsError,
)

MAX_LENGTH = 500
"""Characters of a message at most, after NFC normalisation (issue 26)."""


def _clean(text: str) -> str:
    """``text`` in NFC, without surrounding white space. Raises ``ApplicationError`` (400) ``invalid`` (a control
    character other than a newline or a tab), ``message_empty`` or ``message_too_long``."""
    text = unicodedata.normalize("NFC", text).strip()
    if any(unicodedata.category(char) == "Cc" and char not in "\n\t" for char in text):
        raise ApplicationError(ErrorCode.INVALID, "a message holds no control characters (a NUL byte...)")
    if not text:
        raise ApplicationError(ErrorCode.MESSAGE_EMPTY, "say something: the message is empty")
    if len(text) > MAX_LENGTH:
        raise ApplicationError(
            ErrorCode.MESSAGE_TOO_LONG, f"a message has {MAX_LENGTH} characters at most", limit=MAX_LENGTH
        )
    return text


def _rate_limit(user_id: int) -> None:
    """At most ``settings.CHAT_RATE_COUNT`` messages per player per ``CHAT_RATE_SECONDS`` (a fixed window in the
    cache, shared by every process that shares the cache). Raises ``TooManyRequestsError`` (429 ``throttled``
    with ``retry_after``)."""
    window = max(1, int(settings.CHAT_RATE_SECONDS))
    now = time.time()
    start = int(now // window) * window
    key = f"chat:rate:{user_id}:{start}"
    cache.add(key, 0, timeout=window + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.add(key, 1, timeout=window + 1)
        count = 1
    if count > settings.CHAT_RATE_COUNT:
        retry = max(1, int(start + window - now + 0.999))
        raise TooManyRequestsError(
            ErrorCode.THROTTLED, f"slow down: {settings.CHAT_RATE_COUNT} messages per {window} s", retry_after=retry
        )


def message_post(*, user: Any, game_id: int, room: str, text: str) -> Message:
    """``user`` says ``text`` in ``room`` of the game. Raises ``NotFoundError`` ``game_not_found``,
    ``ForbiddenError`` ``chat_forbidden`` (the room is not his to write in: ``chat.selectors.room_rights``),
    ``ApplicationError`` ``message_empty`` / ``message_too_long`` / ``invalid`` (no such room) and
    ``TooManyRequestsError`` ``throttled``. The rate limit counts only messages that pass every other check."""
    if room not in Room.values:
        raise ApplicationError(ErrorCode.INVALID, f"room is one of {', '.join(Room.values)}")
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    if not room_rights(game, user, room).write:
        raise ForbiddenError(ErrorCode.CHAT_FORBIDDEN, f"you may not write in the {room}' room of this game now")
    text = _clean(text)
    _rate_limit(user.pk)
    with transaction.atomic():
        message = Message.objects.create(game=game, room=room, author=user, text=text)
        # No seated players in the message: a chat line wakes the game's streams, not the players' own streams.
        version = game.version
        transaction.on_commit(lambda: announce(game_id=game.pk, version=version, players=[]))
    return message


@transaction.atomic
def message_hide(*, staff: Any, message_id: int, hidden: bool = True) -> Message:
    """Staff hide (or show again) a message: kept, with who hid it and when. Raises ``ForbiddenError``
    ``staff_only`` and ``NotFoundError`` ``message_not_found``."""
    if not getattr(staff, "is_staff", False):
        raise ForbiddenError(ErrorCode.STAFF_ONLY, "only staff hide messages")
    message = Message.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFoundError(ErrorCode.MESSAGE_NOT_FOUND, "no such message")
    message.hidden = hidden
    message.hidden_by = staff if hidden else None
    message.hidden_at = timezone.now() if hidden else None
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    return message


@transaction.atomic
def mute_set(*, user: Any, player_id: int, muted: bool) -> bool:
    """``user`` mutes (or unmutes) the player ``player_id`` for himself; returns whether a row changed. Raises
    ``NotFoundError`` ``player_not_found`` and ``ConflictError`` ``cannot_mute_self``."""
    target = get_user_model().objects.filter(pk=player_id).first()
    if target is None:
        raise NotFoundError(ErrorCode.PLAYER_NOT_FOUND, "no such player")
    if target.pk == user.pk:
        raise ConflictError(ErrorCode.CANNOT_MUTE_SELF, "you cannot mute yourself")
    if muted:
        _, created = Mute.objects.get_or_create(user=user, muted=target)
        return created
    deleted, _ = Mute.objects.filter(user=user, muted=target).delete()
    return deleted > 0
