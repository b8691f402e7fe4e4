"""Reads of addresses and of the decisions and finished games owed a mail (``outbox.selectors`` reads which mails
are due for sending).

Games are read through ``games.models`` alone: ``Seat.to_act`` (the projection of whose decision it is) and the
log (``games.models.Event``), whose newest entry says since when nothing has happened in a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, F, OuterRef, Q, Subquery

from games.models import Event, Game, GameStatus, Seat
from notifications.models import EmailAddress, Mail, MailGame, MailKind
from webhooks.models import Endpoint

TURN_KINDS = (MailKind.TURN, MailKind.DIGEST)
# The webhook event types that tell a program what a mail of that kind would tell its person.
WEBHOOK_EVENT_OF = {MailKind.TURN: "turn.due", MailKind.FINISHED: "game.finished"}


def address_of(user: AbstractBaseUser) -> EmailAddress | None:
    """The person's address and preferences, or ``None`` if he never set an address."""
    return EmailAddress.objects.filter(user=user).first()


@dataclass
class Owed:
    """The games one person is owed a mail about: ``seats[i]`` is his seat at ``games[i]``."""

    user_id: int
    address: EmailAddress
    games: list[Game] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)


def _webhook_listeners(user_ids: set[int], event_type: str) -> set[int]:
    """Those of ``user_ids`` whose own program hears ``event_type`` on an enabled webhook: it tells them."""
    endpoints = Endpoint.objects.filter(user_id__in=user_ids, disabled_at__isnull=True).values_list("user_id", "events")
    # events is a JSON list: filtered here, as SQLite has no JSON containment lookup.
    return {user_id for user_id, events in endpoints if event_type in (events or [])}


def _group(seats: list[Seat], event_type: str) -> list[Owed]:
    listeners = _webhook_listeners({seat.player_id for seat in seats if seat.player_id}, event_type)
    addresses = {row.user_id: row for row in EmailAddress.objects.filter(user_id__in={s.player_id for s in seats})}
    owed: dict[int, Owed] = {}
    for seat in seats:
        user_id = seat.player_id
        if user_id is None or user_id in listeners or user_id not in addresses:
            continue
        row = owed.setdefault(user_id, Owed(user_id=user_id, address=addresses[user_id]))
        row.games.append(seat.game)
        row.seats.append(seat.number)
    return sorted(owed.values(), key=lambda row: row.user_id)


def _mailable(prefix: str, preference: str) -> Q:
    """Seats whose player has a confirmed address with ``preference`` on."""
    return Q(
        **{
            f"{prefix}email_address__confirmed_at__isnull": False,
            f"{prefix}email_address__{preference}": True,
        }
    )


def turns_owed(*, now: datetime, grace: float, limit: int = 1000) -> list[Owed]:
    """The people owed a turn mail, each with his games: a decision of his (a human seat, not one the bot plays
    for him) is due in an active game where nothing has happened for ``grace`` seconds, he has a confirmed
    address with turn mails on, no enabled webhook of his hears ``turn.due``, and he was not mailed about that
    game already, unless he has acted in it since (a timeout applied for him is not acting).
    At most ``limit`` seats are read per call (the next sweep reads the rest)."""
    last_change = Event.objects.filter(game=OuterRef("game")).order_by("-seq").values("created")[:1]
    notices = MailGame.objects.filter(mail__user=OuterRef("player"), game=OuterRef("game"), mail__kind__in=TURN_KINDS)
    last_notice = notices.order_by("-version").values("version")[:1]
    acted_since = Event.objects.filter(
        game=OuterRef("game"), actor=OuterRef("number"), seq__gt=OuterRef("notice_version")
    ).exclude(payload__action__has_key="timeout")
    seats = (
        Seat.objects.filter(
            _mailable("player__", "turn"),
            to_act=True,
            bot="",
            player__isnull=False,
            game__status=GameStatus.ACTIVE,
        )
        .annotate(last_change=Subquery(last_change), notice_version=Subquery(last_notice))
        .filter(last_change__lte=now - timedelta(seconds=grace))
        .filter(Q(notice_version__isnull=True) | Exists(acted_since))
        .select_related("game")
        .prefetch_related("game__seats__player")
        .order_by("player_id", "game_id")[:limit]
    )
    return _group(list(seats), WEBHOOK_EVENT_OF[MailKind.TURN])


def finished_owed(*, now: datetime, window: float, limit: int = 1000) -> list[Owed]:
    """The people owed a finished-game mail: a human seat at a game that finished within the last ``window``
    seconds and after his address was confirmed (so confirming never mails about old games), with finished
    mails on, no webhook of his hearing ``game.finished``, and no finished mail about that game yet."""
    mailed = MailGame.objects.filter(mail__user=OuterRef("player"), game=OuterRef("game"), mail__kind=MailKind.FINISHED)
    seats = Seat.objects.filter(
        _mailable("player__", "finished"),
        bot="",
        player__isnull=False,
        game__status=GameStatus.FINISHED,
        game__updated__gte=now - timedelta(seconds=window),
    )
    seats = (
        seats.filter(game__updated__gte=F("player__email_address__confirmed_at"))
        .exclude(Exists(mailed))
        .select_related("game")
        .prefetch_related("game__seats__player")
        .order_by("player_id", "game_id")[:limit]
    )
    return _group(list(seats), WEBHOOK_EVENT_OF[MailKind.FINISHED])


def still_waiting(mail: Mail) -> bool:
    """Whether a turn or digest mail's news still holds: one of its games still waits for the recipient's seat
    (a person who acted meanwhile, while the mail server was down say, is not told it is his move)."""
    pairs = list(mail.game_rows.values_list("game_id", "seat"))
    waiting = Seat.objects.filter(
        game_id__in=[game_id for game_id, _ in pairs], to_act=True, bot="", game__status=GameStatus.ACTIVE
    ).values_list("game_id", "number")
    return bool(set(pairs) & set(waiting))


def confirmations_since(user: AbstractBaseUser, since: datetime) -> list[datetime]:
    """When each confirmation mail made for ``user`` since ``since`` was made, oldest first."""
    rows = Mail.objects.filter(user=user, kind=MailKind.CONFIRM, created__gte=since).order_by("created")
    return list(rows.values_list("created", flat=True))
