"""The outbox's writers, alike for every channel: queue, claim, attempt, record, retry, disable, sweep.

A delivery is made in the transaction of the change it tells about, with a task sent after the commit
(``deliveries_queue``); the task (``delivery_attempt``) first claims it by a compare-and-set on
``locked_until``, so a task delivered twice, or a countdown task and the sweeper at once, make one attempt. The
attempt runs outside any transaction; its outcome is recorded afterwards in a short one: an attempt row, the
delivery sent, retried after the channel's next delay, or failed, and the destination's failing streak. The
periodic sweeper (``deliveries_sweep``) sends a task for every delivery due and without one: a retry too far
away for a countdown, or a task lost with the broker or a worker.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from outbox.broker import ATTEMPT_TIME_LIMIT, countdown_fits, send_after_commit
from outbox.channels import Channel, Outcome
from outbox.models import Delivery, DeliveryStatus, Destination
from outbox.selectors import due_deliveries

LEASE = timedelta(seconds=ATTEMPT_TIME_LIMIT)
"""How long a claim holds a delivery: as long as its task may run."""
EARLY = timedelta(seconds=1)
"""A countdown task may run this much before its delivery's due time (clocks of two processes)."""
REQUEUE_AFTER = timedelta(seconds=300)
"""A task sent for a delivery and not run this long after it was due is taken as lost: the sweeper sends another
(a broker error at the send clears the wait at once). A task waiting behind a flood of deliveries is not lost."""
SWEEP_BATCH = 1000
MAX_ERROR = 300

_random = secrets.SystemRandom()


def retry_delay(channel: Channel, attempts: int) -> float | None:
    """Seconds before the retry after ``attempts`` failed attempts (``None``: none is left), from the channel's
    delays setting, stretched or shrunk at random by up to its jitter setting (a fraction)."""
    delays = getattr(settings, channel.delays_setting)
    if attempts > len(delays):
        return None
    jitter = getattr(settings, channel.jitter_setting) if channel.jitter_setting else 0.0
    return max(0.0, delays[attempts - 1] * _random.uniform(1 - jitter, 1 + jitter))


def queued_now(now: datetime | None = None) -> dict[str, datetime]:
    """The fields of a new delivery due at once whose task ``deliveries_queue`` sends after the commit."""
    now = now or timezone.now()
    return {"next_attempt_at": now, "queued_until": now + REQUEUE_AFTER}


def deliveries_queue(channel: Channel, ids: Sequence[int], *, countdown: float | None = None) -> None:
    """Send the channel's task for each of ``ids`` after the commit, ``countdown`` seconds later (``None``: now).
    Those a broker error kept from being sent lose their ``queued_until``, so the next sweep sends them."""
    model = channel.model

    def lost(entries: Sequence[list[Any]]) -> None:
        model.objects.filter(pk__in=[entry[0] for entry in entries]).update(queued_until=None)

    send_after_commit(channel.task, [[pk] for pk in ids], countdown=countdown, on_lost=lost)


def delivery_attempt(channel: Channel, *, delivery_id: int, now: datetime | None = None) -> bool:
    """Make the next attempt of ``delivery_id`` if it is pending, due and nobody else is making it.

    A delivery the channel refuses (``Channel.refusal``) ends without an attempt. A failed attempt is retried
    after ``retry_delay``, by a countdown task or, for delays too long for one, by the sweeper; after the last,
    or once its destination is disabled, the delivery has failed. Returns whether an attempt succeeded now.
    """
    now = now or timezone.now()
    delivery = _claim(channel, delivery_id, now)
    if delivery is None:
        return False
    refusal = channel.refusal(delivery)
    if refusal is not None:
        channel.model.objects.filter(pk=delivery.pk).update(
            status=refusal.status, error=refusal.reason[:MAX_ERROR], locked_until=None, queued_until=None
        )
        return False
    started = timezone.now()
    outcome = channel.send(delivery)
    _record(channel, delivery, outcome, at=started)
    return outcome.succeeded


def _claim(channel: Channel, delivery_id: int, now: datetime) -> Any:
    claimed = (
        channel.model.objects.filter(pk=delivery_id, status=DeliveryStatus.PENDING, next_attempt_at__lte=now + EARLY)
        .exclude(locked_until__gt=now)
        .update(locked_until=now + LEASE)
    )
    if not claimed:
        return None
    return channel.model.objects.select_related(*channel.related).filter(pk=delivery_id).first()


@transaction.atomic
def _record(channel: Channel, delivery: Delivery, outcome: Outcome, *, at: datetime) -> None:
    number = delivery.attempts + 1
    channel.attempt_model.objects.create(
        **{channel.attempt_key: delivery},
        number=number,
        at=at,
        duration_ms=outcome.duration_ms,
        error=outcome.error[:MAX_ERROR],
        succeeded=outcome.succeeded,
        **dict(outcome.record),
    )
    now = timezone.now()
    update: dict[str, Any] = {"attempts": number, "locked_until": None, "queued_until": None}
    destination = channel.destination(delivery)
    if outcome.succeeded:
        update.update(status=DeliveryStatus.SENT, sent_at=now, error="")
        if destination is not None:
            destination_succeeded(destination, revive=channel.revives(delivery))
    else:
        disabled = destination is not None and destination_failed(
            destination, now=now, disable_after=getattr(settings, channel.disable_after_setting)
        )
        delay = retry_delay(channel, number) if channel.retries(delivery) and not disabled else None
        update["error"] = outcome.error[:MAX_ERROR]
        if delay is None:
            update.update(status=DeliveryStatus.FAILED, next_attempt_at=None)
        else:
            update["next_attempt_at"] = due = now + timedelta(seconds=delay)
            if countdown_fits(delay):
                update["queued_until"] = due + REQUEUE_AFTER
                deliveries_queue(channel, [delivery.pk], countdown=delay)
    channel.model.objects.filter(pk=delivery.pk).update(**update)


def destination_succeeded(destination: Destination, *, revive: bool) -> None:
    """A success ends the destination's failing streak; ``revive`` also enables it if it was disabled."""
    rows = type(destination).objects.filter(pk=destination.pk)
    if revive:
        rows.update(failing_since=None, disabled_at=None, disabled_reason="")
    else:
        # No row is written while deliveries keep succeeding.
        rows.filter(failing_since__isnull=False).update(failing_since=None)


def destination_failed(destination: Destination, *, now: datetime, disable_after: float) -> bool:
    """Count a failure: the destination is failing since now (if it was not); once it has failed for
    ``disable_after`` seconds it is disabled, with the reason. Returns whether it is disabled."""
    model = type(destination)
    model.objects.filter(pk=destination.pk, failing_since__isnull=True).update(failing_since=now)
    destination.refresh_from_db(fields=["failing_since", "disabled_at"])
    if destination.disabled_at is not None:
        return True
    since = destination.failing_since
    if since is not None and (now - since).total_seconds() >= disable_after:
        reason = f"every attempt failed since {since:%Y-%m-%d %H:%M:%S} UTC"
        model.objects.filter(pk=destination.pk).update(disabled_at=now, disabled_reason=reason)
        return True
    return False


def deliveries_sweep(channel: Channel, *, now: datetime | None = None) -> int:
    """Send a task for each of the channel's deliveries due and without one that may still run (at most
    ``SWEEP_BATCH``; the next sweep takes the rest). Returns how many were sent."""
    now = now or timezone.now()
    ids = due_deliveries(channel.model, now=now, limit=SWEEP_BATCH)
    if not ids:
        return 0
    with transaction.atomic():
        channel.model.objects.filter(pk__in=ids, status=DeliveryStatus.PENDING).update(queued_until=now + REQUEUE_AFTER)
        deliveries_queue(channel, ids)
    return len(ids)
