"""Sending a mail: one attempt per task, through Django's configured backend (``EMAIL_URL``).

An attempt first claims the mail (a compare-and-set on ``locked_until``), so two tasks for one mail send it
once. The mail is then re-checked against the account (address still the same and confirmed, preference still
on) and, for a turn mail, against its games (one still waits for him), and cancelled otherwise: nothing reaches
an address changed or unsubscribed meanwhile, nor tells someone who has played since that it is his move. A
failure is recorded and retried after ``MAIL_RETRY_DELAYS`` by the sweeper; after the last one the mail is
``failed``. Nothing here touches a game: an SMTP server that is down only delays mail.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.utils import timezone

from notifications.models import EmailAddress, Mail, MailKind, MailStatus
from notifications.selectors import still_waiting

logger = logging.getLogger(__name__)

LOCK_SECONDS = 120
"""How long an attempt holds its mail: well above EMAIL_TIMEOUT's connect, send and quit."""


def _still_wanted(mail: Mail) -> str:
    """Why ``mail`` must not go out any more (``""``: it may)."""
    row = EmailAddress.objects.filter(user_id=mail.user_id).first()
    if row is None or row.address != mail.to:
        return "the address was changed or removed"
    if mail.kind == MailKind.CONFIRM:
        return ""
    if row.confirmed_at is None:
        return "the address is not confirmed"
    if mail.kind in (MailKind.TURN, MailKind.DIGEST) and not row.turn:
        return "turn mails were turned off"
    if mail.kind in (MailKind.TURN, MailKind.DIGEST) and not still_waiting(mail):
        return "no game of the mail waits for the person any more"
    if mail.kind == MailKind.FINISHED and not row.finished:
        return "finished mails were turned off"
    return ""


def message_of(mail: Mail) -> EmailMultiAlternatives:
    """The message ``mail`` sends: plain text with an HTML alternative, its headers, from DEFAULT_FROM_EMAIL."""
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.body_text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers=dict(mail.headers),
    )
    message.attach_alternative(mail.body_html, "text/html")
    return message


def mail_deliver(*, mail_id: int, now: datetime | None = None) -> bool:
    """One attempt of ``mail_id`` if it is pending, due and no other worker holds it. Returns whether it was
    sent now. Never raises for a mail server's error (it is recorded on the mail and retried)."""
    now = now or timezone.now()
    claimed = (
        Mail.objects.filter(pk=mail_id, status=MailStatus.PENDING, next_attempt_at__lte=now)
        .exclude(locked_until__gt=now)
        .update(locked_until=now + timedelta(seconds=LOCK_SECONDS))
    )
    if not claimed:
        return False
    mail = Mail.objects.get(pk=mail_id)
    reason = _still_wanted(mail)
    if reason:
        Mail.objects.filter(pk=mail_id).update(status=MailStatus.CANCELLED, error=reason, locked_until=None)
        return False
    attempts = mail.attempts + 1
    try:
        # A connection per attempt: the backend's EMAIL_TIMEOUT bounds each step, and a broken connection is
        # never reused by the next mail.
        get_connection(fail_silently=False).send_messages([message_of(mail)])
    except Exception as error:  # any backend's error (SMTP, socket, TLS): recorded, retried later
        delays = settings.MAIL_RETRY_DELAYS
        failed = attempts > len(delays)
        logger.warning("mail %s attempt %s failed: %s", mail_id, attempts, error)
        Mail.objects.filter(pk=mail_id).update(
            attempts=attempts,
            status=MailStatus.FAILED if failed else MailStatus.PENDING,
            next_attempt_at=None if failed else timezone.now() + timedelta(seconds=delays[attempts - 1]),
            queued_until=None,
            locked_until=None,
            error=f"{type(error).__name__}: {error}"[:300],
        )
        return False
    Mail.objects.filter(pk=mail_id).update(
        attempts=attempts, status=MailStatus.SENT, sent_at=timezone.now(), locked_until=None, error=""
    )
    return True
