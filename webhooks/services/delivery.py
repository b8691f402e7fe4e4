"""Delivering a message: one attempt at a time, recorded, retried with backoff, the endpoint disabled after a day
of failures.

An attempt is taken by a compare-and-set on the message (``locked_until``), so a task delivered twice, or a
countdown task and the sweeper at once, make one HTTP call. The call runs outside any transaction; its outcome
is written afterwards in a short one.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from webhooks.models import Attempt, Endpoint, Message, MessageState
from webhooks.selectors.endpoints import due_messages
from webhooks.selectors.notices import PING
from webhooks.services.messages import body_text
from webhooks.services.scheduling import countdown_fits, deliver_after_commit
from webhooks.services.transport import Outcome, post_signed

LEASE = timedelta(seconds=60)
"""How long a worker holds a message it attempts: well over the timeouts of one attempt."""
EARLY = timedelta(seconds=1)
"""A countdown task may run this much before the message's due time (clocks of two processes)."""
SWEEP_GRACE = timedelta(seconds=60)
"""A queued message still due this long after its time lost its task (a worker died): the sweeper sends it again."""
SWEEP_BATCH = 1000

_random = secrets.SystemRandom()


def retry_delay(attempts: int) -> float | None:
    """Seconds before the retry after ``attempts`` failed attempts, with jitter; ``None`` when none is left."""
    delays = settings.WEBHOOK_RETRY_DELAYS
    if attempts > len(delays):
        return None
    jitter = settings.WEBHOOK_RETRY_JITTER
    return max(0.0, delays[attempts - 1] * _random.uniform(1 - jitter, 1 + jitter))


def _claim(message_id: int) -> Message | None:
    now = timezone.now()
    claimed = (
        Message.objects.filter(pk=message_id, state=MessageState.PENDING, next_attempt_at__lte=now + EARLY)
        .filter(Q(locked_until__isnull=True) | Q(locked_until__lt=now))
        .update(locked_until=now + LEASE)
    )
    if not claimed:
        return None
    return Message.objects.select_related("endpoint").filter(pk=message_id).first()


def message_deliver(*, message_id: int) -> bool:
    """Make the next attempt of message ``message_id`` if it is due and nobody else is making it.

    A message to a disabled endpoint fails without an attempt (a ping is still sent). A failed attempt is
    retried after ``retry_delay``, by a countdown task or, for delays too long for one, by the sweeper. Returns
    whether an attempt succeeded.
    """
    message = _claim(message_id)
    if message is None:
        return False
    endpoint = message.endpoint
    if endpoint.disabled_at is not None and message.event_type != PING:
        Message.objects.filter(pk=message.pk).update(state=MessageState.FAILED, locked_until=None)
        return False
    started = timezone.now()
    outcome = post_signed(url=endpoint.url, secret=endpoint.secret, msg_id=message.msg_id, body=body_text(message.body))
    _record(message, endpoint, outcome, at=started)
    return outcome.succeeded


@transaction.atomic
def _record(message: Message, endpoint: Endpoint, outcome: Outcome, *, at: datetime) -> None:
    number = message.attempts + 1
    Attempt.objects.create(
        message=message,
        endpoint=endpoint,
        number=number,
        at=at,
        status_code=outcome.status_code,
        duration_ms=outcome.duration_ms,
        error=outcome.error,
        succeeded=outcome.succeeded,
    )
    now = timezone.now()
    update: dict[str, object] = {"attempts": number, "locked_until": None}
    if outcome.succeeded:
        update["state"] = MessageState.SUCCEEDED
        endpoint_update: dict[str, object] = {"failing_since": None}
        if message.event_type == PING:
            endpoint_update.update(disabled_at=None, disabled_reason="")
        Endpoint.objects.filter(pk=endpoint.pk).update(**endpoint_update)
        Message.objects.filter(pk=message.pk).update(**update)
        return
    disabled = _note_failure(endpoint, now=now)
    # A ping is a test of the endpoint now: one attempt, never retried.
    delay = None if disabled or message.event_type == PING else retry_delay(number)
    if delay is None:
        update["state"] = MessageState.FAILED
    else:
        update["next_attempt_at"] = now + timedelta(seconds=delay)
        update["queued"] = countdown_fits(delay)
        if update["queued"]:
            deliver_after_commit([message.pk], countdown=delay)
    Message.objects.filter(pk=message.pk).update(**update)


def _note_failure(endpoint: Endpoint, *, now: datetime) -> bool:
    """Mark the endpoint failing since now (if it was not); disable it once it has failed for
    ``WEBHOOK_DISABLE_AFTER`` seconds. Returns whether it is disabled."""
    Endpoint.objects.filter(pk=endpoint.pk, failing_since__isnull=True).update(failing_since=now)
    endpoint.refresh_from_db(fields=["failing_since", "disabled_at"])
    if endpoint.disabled_at is not None:
        return True
    since = endpoint.failing_since
    if since is not None and (now - since).total_seconds() >= settings.WEBHOOK_DISABLE_AFTER:
        reason = f"every attempt failed since {since:%Y-%m-%d %H:%M:%S} UTC"
        Endpoint.objects.filter(pk=endpoint.pk).update(disabled_at=now, disabled_reason=reason)
        return True
    return False


def deliveries_sweep() -> int:
    """Send a task for each message due and not queued (a retry too far away for a countdown), and for each
    queued one overdue by ``SWEEP_GRACE`` (its task was lost). Returns how many were sent."""
    now = timezone.now()
    ids = due_messages(before=now, limit=SWEEP_BATCH, overdue_before=now - SWEEP_GRACE)
    if not ids:
        return 0
    with transaction.atomic():
        Message.objects.filter(pk__in=ids).update(queued=True, next_attempt_at=now)
        deliver_after_commit(ids)
    return len(ids)
