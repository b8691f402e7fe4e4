"""Reads of addresses and of the decisions and finished games owed a mail (``outbox.selectors`` reads which mails
are due for sending).

Whose decision is due, and since which entry, is ``games.selectors.due``'s projection (``seats_due``, one query,
no replay); the log (``games.models.Event``) says since when nothing has happened in a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, F, OuterRef, Q, Subquery

from games.messages import GAME_FINISHED, TURN_DUE
from games.models import Event, Game, GameStatus, Seat
from games.selectors.due import seats_due
from notifications.models import EmailAddress, Mail, MailGame, MailKind
from webhooks.models import Endpoint

TURN_KINDS = (MailKind.TURN, MailKind.DIGEST)
# The webhook event types that tell a program what a mail of that kind would tell its person.
WEBHOOK_EVENT_OF = {MailKind.TURN: TURN_DUE, MailKind.FINISHED: GAME_FINISHED}


def address_of(user: AbstractBaseUser) -> EmailAddress | None:
    """The person's address and preferences, or ``None`` if he never set an address."""
    return EmailAddress.objects.filter(user=user).first()


@dataclass
class Owed:
    """The games one person is owed a mail about: ``seats[i]`` is his seat at ``games[i]``, ``since[i]`` the entry
    the decision he owes there is due since (``None`` for a finished game)."""

    user_id: int
    address: EmailAddress
    games: list[Game] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    since: list[int | None] = field(default_factory=list)


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
        row.since.append(seat.due_since)
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
    """The people owed a turn mail, each with his games: a decision is due from him (``games.selectors.due``: his
    own, not one the bot makes for his seat) in a game where nothing has happened for ``grace`` seconds, he has a
    confirmed address with turn mails on, no enabled webhook of his hears ``turn.due``, and no turn mail told him
    of that decision yet (one made at or after the entry it is due since: a decision due anew after his own, or
    after a timeout's default action for him, is told anew). At most ``limit`` seats are read per call (the next
    sweep reads the rest)."""
    last_change = Event.objects.filter(game=OuterRef("game")).order_by("-seq").values("created")[:1]
    told = MailGame.objects.filter(
        mail__user=OuterRef("player"),
        game=OuterRef("game"),
        mail__kind__in=TURN_KINDS,
        version__gte=OuterRef("due_since"),
    )
    seats = (
        seats_due()
        .filter(_mailable("player__", "turn"))
        .annotate(last_change=Subquery(last_change))
        .filter(last_change__lte=now - timedelta(seconds=grace))
        .exclude(Exists(told))
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
    """Whether a turn or digest mail's news still holds: a decision it told of is still due from the recipient,
    the same one (due since at most the version the mail was made at; a person who acted meanwhile, while the
    mail server was down say, is not told it is his move, and a decision due anew gets a mail of its own)."""
    rows = mail.game_rows.values_list("game_id", "seat", "version")
    told = {(game_id, seat): version for game_id, seat, version in rows}
    due = seats_due().filter(game_id__in=[game_id for game_id, _ in told]).values_list("game_id", "number", "due_since")
    return any(since <= told.get((game_id, seat), -1) for game_id, seat, since in due)


def confirmations_since(user: AbstractBaseUser, since: datetime) -> list[datetime]:
    """When each confirmation mail made for ``user`` since ``since`` was made, oldest first."""
    rows = Mail.objects.filter(user=user, kind=MailKind.CONFIRM, created__gte=since).order_by("created")
    return list(rows.values_list("created", flat=True))
