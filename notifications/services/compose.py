"""Making mails: render the subject and both parts once, add the unsubscribe headers, store, queue delivery.

What a mail may say: the game, its kind, the seats' names, whose decision it is, the deadline, and how a finished
game ended (its last lines that say who won, in the game's own words, as this person may see them: no card is in
them). No card: a turn mail needs none, and a finished mail points at the table for the rest, where the game's
own view redacts what this person may not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.template.loader import render_to_string
from django.utils.timesince import timeuntil

from games.engine.registry import game_kind
from games.models import Game, GameStatus, Seat
from games.selectors.words import game_outcome, seat_row_name
from notifications.models import Mail, MailGame, MailKind
from notifications.services.delivery import MAILS
from notifications.services.links import table_url, unsubscribe_url
from outbox.services import deliveries_queue, queued_now

# Which preference an unsubscribe link of each kind of mail turns off.
SCOPE_OF = {MailKind.CONFIRM: "all", MailKind.TURN: "turn", MailKind.DIGEST: "turn", MailKind.FINISHED: "finished"}


def kind_name(kind: str) -> str:
    """``palace-poker`` -> ``Palace Poker``: the game's title (``games.engine.registry``)."""
    return game_kind(kind).title


def deadline_words(deadline: datetime | None, now: datetime) -> str:
    """The deadline in words and in UTC: ``in 2 hours, 5 minutes (2025-06-01 14:00 UTC)``; ``no deadline``."""
    if deadline is None:
        return "no deadline"
    utc = deadline.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if deadline <= now:
        return f"now ({utc})"
    return f"in {timeuntil(deadline, now)} ({utc})"


def game_row(game: Game, seat: int, user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    """What a mail says about one game: id, kind, the recipient's seat, the others at the table, deadline, and
    ``outcome``: how a finished game ended, in lines of words (empty before)."""
    others = [_seat_name(row) for row in game.seats.all() if row.number != seat]
    return {
        "id": game.pk,
        "kind": kind_name(game.kind),
        "seat": seat,
        "player": user.get_username(),
        "others": ", ".join(others) or "nobody",
        "deadline": deadline_words(game.deadline, now),
        "has_deadline": game.deadline is not None,
        "url": table_url(game.pk),
        "outcome": game_outcome(game, seat) if game.status == GameStatus.FINISHED else [],
    }


def _seat_name(seat: Seat) -> str:
    name = seat_row_name(seat)
    return f"{name} (the bot plays for them)" if seat.player and seat.bot else name


def mail_make(
    *,
    user: AbstractBaseUser,
    to: str,
    kind: MailKind,
    subject: str,
    context: dict[str, Any],
    games: Sequence[tuple[Game, int]] = (),
) -> Mail:
    """Render ``notifications/mail/<kind>.txt`` and ``.html`` with ``context`` (plus ``unsubscribe_url``,
    ``site_url``, ``player``), store the mail with its games (``(game, seat)`` pairs, at their current version)
    and queue its delivery after the commit. The caller holds the transaction."""
    unsubscribe = unsubscribe_url(user_id=user.pk, scope=SCOPE_OF[kind])
    full = {**context, "unsubscribe_url": unsubscribe, "site_url": settings.SITE_URL, "player": user.get_username()}
    template = "digest" if kind == MailKind.DIGEST else kind.value
    mail = Mail.objects.create(
        user=user,
        to=to,
        kind=kind,
        subject=subject[:200],
        body_text=render_to_string(f"notifications/mail/{template}.txt", full),
        body_html=render_to_string(f"notifications/mail/{template}.html", full),
        # RFC 8058: a mail client's "unsubscribe" button POSTs List-Unsubscribe=One-Click to this URL, no login.
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # RFC 3834: made by a machine; auto-responders should not answer it.
            "Auto-Submitted": "auto-generated",
        },
        **queued_now(),
    )
    MailGame.objects.bulk_create(
        [MailGame(mail=mail, game=game, seat=seat, version=game.version) for game, seat in games]
    )
    deliveries_queue(MAILS, [mail.pk])
    return mail
