"""A person's address and preferences: the interface of the API and of the web pages.

``email_set`` stores a new address unconfirmed and mails it a signed confirmation link; ``email_confirm`` checks
that link; nothing but the confirmation mail ever goes to an unconfirmed address. ``preferences_update`` turns
turn or finished mails on or off; ``unsubscribe`` is the one-click link of every mail (no login: the token is
the authority).
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from notifications.models import EmailAddress, Mail, MailKind
from notifications.selectors import confirmations_since
from notifications.services.compose import mail_make
from notifications.services.links import confirm_url, read_confirm_token, read_unsubscribe_token
from outbox.models import DeliveryStatus
from palace_api.errors import ApplicationError, ConflictError, NotFoundError

INVALID_EMAIL = "invalid_email"
NO_EMAIL = "no_email"
ADDRESS_CHANGED = "address_changed"
TOO_MANY_CONFIRMATIONS = "too_many_confirmations"

CONFIRMATIONS_PER_DAY = 5
"""Confirmation mails an account may have sent in 24 hours: setting an address mails a stranger's inbox."""
CONFIRMATION_WINDOW = timedelta(days=1)


class TooManyRequestsError(ApplicationError):
    status = 429


def _normalized(address: str) -> str:
    address = BaseUserManager.normalize_email((address or "").strip())
    try:
        validate_email(address)
    except ValidationError:
        raise ApplicationError(INVALID_EMAIL, f"{address!r} is not an email address.") from None
    if len(address) > 254:
        raise ApplicationError(INVALID_EMAIL, "An email address has at most 254 characters.")
    return address


@transaction.atomic
def email_set(*, user: AbstractBaseUser, address: str) -> EmailAddress:
    """Set (or change) the account's address. A new address is unconfirmed: a confirmation mail with a signed
    link (valid 7 days) goes to it, and no other mail until it is confirmed; pending mails to the old address are
    cancelled. The same address again, unconfirmed, sends the link again; already confirmed, changes nothing.
    Preferences are kept. Raises ``ApplicationError("invalid_email")`` and ``TooManyRequestsError``
    (429, ``too_many_confirmations``: more than ``CONFIRMATIONS_PER_DAY`` links in 24 hours; ``retry_after``:
    whole seconds until one more may be sent)."""
    address = _normalized(address)
    # The row lock serialises two requests of one account, so the daily count holds.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    row = EmailAddress.objects.filter(user=user).first()
    if row is not None and row.address == address and row.confirmed_at is not None:
        return row
    now = timezone.now()
    sent = confirmations_since(user, now - CONFIRMATION_WINDOW)
    if len(sent) >= CONFIRMATIONS_PER_DAY:
        # One more may go once this link leaves the window: fewer than CONFIRMATIONS_PER_DAY are left in it.
        frees_at = sent[len(sent) - CONFIRMATIONS_PER_DAY] + CONFIRMATION_WINDOW
        raise TooManyRequestsError(
            TOO_MANY_CONFIRMATIONS,
            f"At most {CONFIRMATIONS_PER_DAY} confirmation mails a day: use the link of one already sent.",
            retry_after=max(1, math.ceil((frees_at - now).total_seconds())),
        )
    if row is None:
        row = EmailAddress.objects.create(user=user, address=address)
    else:
        if row.address != address:
            _cancel_pending(user)
        row.address = address
        row.confirmed_at = None
        row.save(update_fields=["address", "confirmed_at", "updated"])
    mail_make(
        user=user,
        to=address,
        kind=MailKind.CONFIRM,
        subject="Confirm your email address for Palace",
        context={"address": address, "confirm_url": confirm_url(user_id=user.pk, address=address)},
    )
    return row


@transaction.atomic
def email_remove(*, user: AbstractBaseUser) -> None:
    """Forget the account's address and preferences; pending mails are cancelled.
    Raises ``NotFoundError("no_email")`` if none was set."""
    deleted, _ = EmailAddress.objects.filter(user=user).delete()
    if not deleted:
        raise NotFoundError(NO_EMAIL, "You have no email address set.")
    _cancel_pending(user)


@transaction.atomic
def email_confirm(*, token: str) -> EmailAddress:
    """Confirm the address a confirmation link names, if it is still the account's address. Confirming twice is
    fine. Raises ``ApplicationError`` ``invalid_token`` or ``expired_token`` (400), and
    ``ConflictError("address_changed")`` (409) when the account has set another address since."""
    user_id, address = read_confirm_token(token)
    row = EmailAddress.objects.select_for_update().filter(user_id=user_id).first()
    if row is None or row.address != address:
        raise ConflictError(ADDRESS_CHANGED, "This address is no longer the one set on the account.")
    if row.confirmed_at is None:
        row.confirmed_at = timezone.now()
        row.save(update_fields=["confirmed_at", "updated"])
    return row


@transaction.atomic
def preferences_update(
    *, user: AbstractBaseUser, turn: bool | None = None, finished: bool | None = None
) -> EmailAddress:
    """Turn ``turn`` mails (whose move it is, and digests) or ``finished`` mails on or off; ``None`` leaves one
    as it is. Raises ``NotFoundError("no_email")`` before an address is set."""
    row = EmailAddress.objects.select_for_update().filter(user=user).first()
    if row is None:
        raise NotFoundError(NO_EMAIL, "Set an email address first.")
    if turn is not None:
        row.turn = turn
    if finished is not None:
        row.finished = finished
    row.save(update_fields=["turn", "finished", "updated"])
    if not row.turn or not row.finished:
        _cancel_pending(user, kinds=_kinds_off(row))
    return row


@transaction.atomic
def unsubscribe(*, token: str) -> str:
    """The one-click unsubscribe of a mail's link: turns off what the token names (``turn``, ``finished``, or
    ``all`` for both) and cancels such mails still pending. Returns the scope. Idempotent: an account that has
    since removed its address is fine. Raises ``ApplicationError("invalid_token")``."""
    user_id, scope = read_unsubscribe_token(token)
    row = EmailAddress.objects.select_for_update().filter(user_id=user_id).first()
    if row is not None:
        if scope in ("turn", "all"):
            row.turn = False
        if scope in ("finished", "all"):
            row.finished = False
        row.save(update_fields=["turn", "finished", "updated"])
        _cancel_pending(row.user, kinds=_kinds_off(row))
    return scope


def _kinds_off(row: EmailAddress) -> list[MailKind]:
    kinds = []
    if not row.turn:
        kinds += [MailKind.TURN, MailKind.DIGEST]
    if not row.finished:
        kinds.append(MailKind.FINISHED)
    return kinds


def _cancel_pending(user: AbstractBaseUser, *, kinds: list[MailKind] | None = None) -> None:
    rows = Mail.objects.filter(user=user, status=DeliveryStatus.PENDING)
    if kinds is not None:
        rows = rows.filter(kind__in=kinds)
    rows.update(status=DeliveryStatus.CANCELLED, error="cancelled before sending")
