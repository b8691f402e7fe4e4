"""Webhook storage: a player's endpoints, the messages due to them, and every delivery attempt.

A ``Message`` is one event for one endpoint, with its ``webhook-id`` (``msg_id``) and its body, both fixed when
it is made, so every retry sends the same id and the same bytes: the outbox's ``Delivery`` (``outbox.models``),
as an ``Attempt`` is its attempt record and an ``Endpoint`` its destination. ``GameCursor`` remembers up to which
version a game's log has been turned into messages.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game
from outbox.models import Delivery, DeliveryAttempt, Destination


class Endpoint(Destination):
    """A URL a player registered for ``events`` (a list of event type names).

    ``sealed_secret``: the Standard Webhooks signing secret (``whsec_<base64>``) encrypted with the first of
    ``WEBHOOK_SECRET_KEYS`` (``webhooks.services.secret_box``): signing needs it in clear, the database never
    holds it so; the API shows it once. As a ``Destination`` it is disabled once every attempt has failed for
    ``WEBHOOK_DISABLE_AFTER`` seconds.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.CharField(max_length=2000)
    events = models.JSONField(default=list)
    sealed_secret = models.TextField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["user", "id"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of user {self.user_id}: {self.url}"


class Message(Delivery):
    """One event for one endpoint. ``msg_id`` is its ``webhook-id`` on every attempt; ``body`` the JSON sent
    (``{"type", "timestamp", "data"}``). Its delivery state is the outbox's (``outbox.models.Delivery``)."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="messages")
    msg_id = models.CharField(max_length=40, unique=True)
    event_type = models.CharField(max_length=40)
    body = models.JSONField()

    class Meta(Delivery.Meta):
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.msg_id} {self.event_type} ({self.status})"


class Attempt(DeliveryAttempt):
    """One HTTP try of a message (``outbox.models.DeliveryAttempt``), with the status code it got (``None``: no
    answer) and its endpoint, by which the API lists an endpoint's last attempts."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="attempt_rows")
    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="attempts")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta(DeliveryAttempt.Meta):
        indexes = [models.Index(fields=["endpoint", "-at"], name="webhook_attempt_recent")]

    def __str__(self) -> str:
        return f"{self.message_id} #{self.number}: {self.status_code or self.error}"


class GameCursor(models.Model):
    """The last version of ``game`` whose log entries were turned into messages."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"game {self.game_id} announced to v{self.version}"
