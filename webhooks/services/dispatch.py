"""Turning a game's new log entries into messages for its players' endpoints.

``games`` announces each committed change by sending the task ``webhooks.tasks.game_changed`` with the game's id
and new version (games/services/scheduling.py); it never imports this app. Here a cursor per game
(``GameCursor``) records how far the log has been announced, and is moved by compare-and-set in the transaction
that writes the messages: tasks that arrive late, twice or out of order announce each entry once, and a lost
task's entries go out with the next change of the game.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games.selectors.read_models import game_get
from outbox.services import deliveries_queue, queued_now
from palace_api.errors import NotFoundError
from webhooks.models import Endpoint, GameCursor, Message
from webhooks.selectors.endpoints import has_listeners, listening_endpoints
from webhooks.selectors.notices import Notice, log_stretch, stretch_notices
from webhooks.services.delivery import WEBHOOKS
from webhooks.services.messages import message_body, new_msg_id

GAME_CHANGED = "webhooks.tasks.game_changed"
"""The task games send by name after each change whose seated players may listen (``Player.news_wanted``)."""

MAX_STRETCH = 1000
"""At most this many entries are read at once: a game that changed for long with nobody listening is announced
from its last ``MAX_STRETCH`` entries (older ones predate every endpoint that could want them)."""


def game_changes_announce(*, game_id: int, version: int) -> int:
    """Make the messages the log of ``game_id`` owes up to ``version``; returns how many were made.

    Does nothing (and reads one row) when no seated player has an enabled endpoint. Each notice goes to the
    recipient's enabled endpoints subscribed to its type and registered before the entry it follows from.
    """
    if not has_listeners(game_id):
        return 0
    while True:
        cursor, _ = GameCursor.objects.get_or_create(game_id=game_id)
        if cursor.version >= version:
            return 0
        made = _announce(
            game_id=game_id, first=max(cursor.version, version - MAX_STRETCH), claimed=cursor.version, last=version
        )
        if made is not None:
            return made


@transaction.atomic
def _announce(*, game_id: int, first: int, claimed: int, last: int) -> int | None:
    """Move the cursor from ``claimed`` to ``last`` and write the messages; ``None`` if another task moved it
    first (the caller reads it again)."""
    if not GameCursor.objects.filter(game_id=game_id, version=claimed).update(version=last):
        return None
    try:
        game = game_get(game_id)
    except NotFoundError:
        return 0
    stretch = log_stretch(game, first=first, last=last)
    if stretch is None:
        return 0
    notices = stretch_notices(stretch)
    endpoints = listening_endpoints(list(stretch.players.values()))
    queued = queued_now()
    messages = [
        _message(notice, endpoint, queued)
        for notice in notices
        for endpoint in endpoints
        if _wants(endpoint, notice, user_id=stretch.players[notice.seat])
    ]
    Message.objects.bulk_create(messages)
    # bulk_create sets primary keys on PostgreSQL and SQLite alike (RETURNING).
    deliveries_queue(WEBHOOKS, [message.pk for message in messages])
    return len(messages)


def _wants(endpoint: Endpoint, notice: Notice, *, user_id: int) -> bool:
    return endpoint.user_id == user_id and notice.type in endpoint.events and endpoint.created <= notice.at


def _message(notice: Notice, endpoint: Endpoint, queued: dict[str, datetime]) -> Message:
    return Message(
        endpoint=endpoint,
        msg_id=new_msg_id(),
        event_type=notice.type,
        body=message_body(event_type=notice.type, at=notice.at, data=notice.data),
        **queued,
    )
