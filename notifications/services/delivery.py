"""Sending a mail: mails as a channel of the outbox (``outbox.services``), which claims, records each attempt and
retries after ``MAIL_RETRY_DELAYS``; after the last, the mail has failed. A mail server that fails is the site's
trouble, not the address's: no address is disabled for it. Nothing here touches a game: a mail server that is
down only delays mail.

What is mails' own is here: one attempt through Django's configured backend (``EMAIL_URL``), and, before it,
the mail checked again against the account (address still the same and confirmed, preference still on) and, for
a turn mail, against its games (one still waits for him); it is cancelled otherwise, so nothing reaches an
address changed or unsubscribed meanwhile, nor tells someone who has played since that it is his move.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection

from notifications.models import EmailAddress, Mail, MailAttempt, MailKind
from notifications.selectors import still_waiting
from outbox.channels import Channel, Outcome, Refusal, elapsed_ms
from outbox.models import DeliveryStatus
from outbox.services import delivery_attempt

logger = logging.getLogger(__name__)


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


class MailChannel(Channel):
    model = Mail
    attempt_model = MailAttempt
    attempt_key = "mail"
    task = "notifications.tasks.deliver"
    delays_setting = "MAIL_RETRY_DELAYS"

    def refusal(self, delivery: Mail) -> Refusal | None:
        reason = _still_wanted(delivery)
        return Refusal(DeliveryStatus.CANCELLED, reason) if reason else None

    def send(self, delivery: Mail) -> Outcome:
        started = time.monotonic()
        try:
            # A connection per attempt: the backend's EMAIL_TIMEOUT bounds each step, and a broken connection is
            # never reused by the next mail.
            get_connection(fail_silently=False).send_messages([message_of(delivery)])
        except Exception as error:  # any backend's error (SMTP, socket, TLS): recorded, retried later
            logger.warning("mail %s attempt %s failed: %s", delivery.pk, delivery.attempts + 1, error)
            return Outcome(False, elapsed_ms(started), f"{type(error).__name__}: {error}")
        return Outcome(True, elapsed_ms(started))


MAILS = MailChannel()


def mail_deliver(*, mail_id: int, now: datetime | None = None) -> bool:
    """One attempt of ``mail_id`` if it is pending, due and no other worker holds it
    (``outbox.services.delivery_attempt``). Returns whether it was sent now. Never raises for a mail server's
    error (it is recorded on the mail and retried)."""
    return delivery_attempt(MAILS, delivery_id=mail_id, now=now)
