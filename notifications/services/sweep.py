"""The periodic sweeper: makes the turn, digest and finished mails that are owed, and re-sends delivery tasks
that were lost. Games never call this app; this sweep reads what is due from the database every
``NOTIFICATION_SWEEP_SECONDS``, so a lost message or a worker down for a while only delays a mail."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.models import Game
from notifications.models import MailGame, MailKind
from notifications.selectors import TURN_KINDS, Owed, finished_owed, turns_owed
from notifications.services.compose import game_row, mail_make
from notifications.services.delivery import MAILS
from outbox.services import deliveries_sweep


def turn_mails_make(*, now: datetime | None = None) -> int:
    """One mail per person owed one (``notifications.selectors.turns_owed``, grace ``NOTIFICATION_GRACE_SECONDS``):
    a turn mail for one game, a digest listing them for several. Returns how many mails were made."""
    now = now or timezone.now()
    made = 0
    for owed in turns_owed(now=now, grace=settings.NOTIFICATION_GRACE_SECONDS):
        made += _make_turn_mail(owed, now)
    return made


@transaction.atomic
def _make_turn_mail(owed: Owed, now: datetime) -> int:
    # The person's row lock serialises two sweeps that overlap: the second finds the first's mail about the same
    # decision (made at or after the entry it is due since), and drops that game.
    user = get_user_model().objects.select_for_update().get(pk=owed.user_id)
    told = MailGame.objects.filter(mail__user=user, mail__kind__in=TURN_KINDS, game__in=owed.games)
    latest = dict(told.order_by().values("game_id").annotate(top=Max("version")).values_list("game_id", "top"))
    pairs = [
        (game, seat)
        for game, seat, since in zip(owed.games, owed.seats, owed.since, strict=True)
        if latest.get(game.pk, -1) < (since or 0)
    ]
    if not pairs:
        return 0
    rows = [game_row(game, seat, user, now) for game, seat in pairs]
    if len(rows) == 1:
        kind = MailKind.TURN
        subject = f"Your move in game #{rows[0]['id']} ({rows[0]['kind']})"
    else:
        kind = MailKind.DIGEST
        subject = f"Your move in {len(rows)} games"
    mail_make(
        user=user,
        to=owed.address.address,
        kind=kind,
        subject=subject,
        context={"games": rows},
        games=pairs,
    )
    return 1


def finished_mails_make(*, now: datetime | None = None) -> int:
    """One mail per finished game and person owed one (``notifications.selectors.finished_owed``, games finished
    within ``NOTIFICATION_FINISHED_WINDOW`` seconds). Returns how many mails were made."""
    now = now or timezone.now()
    made = 0
    for owed in finished_owed(now=now, window=settings.NOTIFICATION_FINISHED_WINDOW):
        for game, seat in zip(owed.games, owed.seats, strict=True):
            made += _make_finished_mail(owed, game, seat, now)
    return made


@transaction.atomic
def _make_finished_mail(owed: Owed, game: Game, seat: int, now: datetime) -> int:
    user = get_user_model().objects.select_for_update().get(pk=owed.user_id)
    if MailGame.objects.filter(mail__user=user, mail__kind=MailKind.FINISHED, game=game).exists():
        return 0  # an overlapping sweep made it
    row = game_row(game, seat, user, now)
    mail_make(
        user=user,
        to=owed.address.address,
        kind=MailKind.FINISHED,
        subject=f"Game #{row['id']} ({row['kind']}) has finished",
        context={"game": row},
        games=[(game, seat)],
    )
    return 1


def notifications_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The whole sweep: turn mails, finished mails, and a task for each mail due without one (a retry too far
    away for a countdown, or a lost task: ``outbox.services.deliveries_sweep``). Returns the counts of each."""
    now = now or timezone.now()
    return {
        "turn": turn_mails_make(now=now),
        "finished": finished_mails_make(now=now),
        "requeued": deliveries_sweep(MAILS, now=now),
    }
