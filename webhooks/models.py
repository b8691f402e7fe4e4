"""Webhook storage: a player's endpoints, the messages due to them, and every delivery attempt.

A ``Message`` is one event for one endpoint, with its ``webhook-id`` (``msg_id``) and its body, both fixed when
it is made, so every retry sends the same id and the same bytes. ``Attempt`` rows record each HTTP try.
``GameCursor`` remembers up to which version a game's log has been turned into messages.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class Endpoint(models.Model):
    """A URL a player registered for ``events`` (a list of event type names).

    ``secret``: the Standard Webhooks signing secret (``whsec_<base64>``), kept in clear because signing needs it;
    the API shows it once. ``failing_since``: the first failed attempt since the last success (``None`` while
    deliveries succeed). ``disabled_at``/``disabled_reason``: set when it failed for ``WEBHOOK_DISABLE_AFTER``.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.CharField(max_length=2000)
    events = models.JSONField(default=list)
    secret = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    failing_since = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["user", "id"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of user {self.user_id}: {self.url}"


class MessageState(models.TextChoices):
    PENDING = "pending", "pending"
    SUCCEEDED = "succeeded", "succeeded"
    FAILED = "failed", "failed"


class Message(models.Model):
    """One event for one endpoint. ``msg_id`` is its ``webhook-id`` on every attempt; ``body`` the JSON sent
    (``{"type", "timestamp", "data"}``). ``next_attempt_at``: when it is due (while ``pending``); ``queued``: a
    delivery task was sent for that time (else the sweeper sends one); ``locked_until``: a worker is attempting it
    until then, so a second task for it does nothing."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="messages")
    msg_id = models.CharField(max_length=40, unique=True)
    event_type = models.CharField(max_length=40)
    body = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=16, choices=MessageState.choices, default=MessageState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    queued = models.BooleanField(default=False)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["state", "next_attempt_at"], name="webhook_message_due")]

    def __str__(self) -> str:
        return f"{self.msg_id} {self.event_type} ({self.state})"


class Attempt(models.Model):
    """One HTTP try of a message: when, the status code (``None``: no answer), milliseconds, error text."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="attempt_rows")
    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True, default="")
    succeeded = models.BooleanField(default=False)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["endpoint", "-at"], name="webhook_attempt_recent")]

    def __str__(self) -> str:
        return f"{self.message_id} #{self.number}: {self.status_code or self.error}"


class GameCursor(models.Model):
    """The last version of ``game`` whose log entries were turned into messages."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"game {self.game_id} announced to v{self.version}"
