"""The outbox's abstract models: a delivery, its attempts, and the destination a run of failures disables.

Each channel (webhooks, mails) makes concrete tables from them in its own app, so the columns the outbox reads
and writes (``status``, ``attempts``, ``next_attempt_at``, ``queued_until``, ``locked_until``...) are declared
once, here. The package is no Django app: abstract models need none, and it has no table of its own.
"""

from __future__ import annotations

from django.db import models


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "pending"
    SENT = "sent", "sent"
    FAILED = "failed", "failed: every attempt, or its destination was disabled"
    CANCELLED = "cancelled", "cancelled: no longer wanted when its attempt came"


class Delivery(models.Model):
    """One message to send, whatever the channel; its content is the channel's and is fixed when it is made.

    ``next_attempt_at``: when an attempt is due (while ``pending``). ``queued_until``: a task was sent for that
    attempt, so the sweeper sends none before then (``None``: none was, or it is known lost). ``locked_until``:
    a worker is attempting it until then (the claim). ``error``: the last failure, or why it was cancelled.
    """

    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    queued_until = models.DateTimeField(null=True, blank=True)
    locked_until = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        abstract = True
        # The sweeper's query: pending deliveries by due time.
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="%(app_label)s_%(class)s_due")]


class DeliveryAttempt(models.Model):
    """One try of a delivery: its ``number`` (1 for the first), when it started, how long it took in
    milliseconds, and the error (``""`` when it succeeded). The concrete model adds the key to its delivery."""

    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True, default="")
    succeeded = models.BooleanField(default=False)

    class Meta:
        abstract = True
        ordering = ["-at", "-id"]


class Destination(models.Model):
    """Where deliveries go, when its failures are its own (a webhook's URL; not a mail address, whose mail
    server's failures are the site's): ``failing_since`` the first failed attempt since the last success,
    ``disabled_at``/``disabled_reason`` set once it has failed for the channel's ``disable_after`` seconds."""

    failing_since = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        abstract = True
