"""Reads of the outbox: which deliveries the sweeper must send a task for."""

from __future__ import annotations

from datetime import datetime

from outbox.models import Delivery, DeliveryStatus


def due_deliveries(model: type[Delivery], *, now: datetime, limit: int) -> list[int]:
    """Ids of ``model``'s pending deliveries, at most ``limit``, oldest due first: due by ``now``, with no task
    sent for them that may still run (``queued_until`` past or unset) and no worker holding them."""
    rows = (
        model.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
        .exclude(queued_until__gt=now)
        .exclude(locked_until__gt=now)
        .order_by("next_attempt_at")
    )
    return list(rows.values_list("id", flat=True)[:limit])
