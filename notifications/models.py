"""Notification storage: a person's email address and preferences, and every mail made for him.

A ``Mail`` is rendered once, when it is made (subject, both parts, headers), so each retry sends the same bytes
and support sees in the admin exactly what went out. It is the outbox's ``Delivery`` (``outbox.models``), and a
``MailAttempt`` its attempt record. ``MailGame`` rows tie a mail to the games it is about: they
are also the record "this person was told about this game at this version", which keeps a second turn mail for
the same game away until he acts in it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game
from outbox.models import Delivery, DeliveryAttempt


class EmailAddress(models.Model):
    """A person's address and what he wants mailed. ``confirmed_at``: when the current ``address`` was confirmed
    through its signed link (``None``: not yet; nothing but the confirmation mail goes to it). ``turn``: turn and
    digest mails; ``finished``: a mail when a game of his finishes."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_address")
    address = models.EmailField(max_length=254)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    turn = models.BooleanField(default=True)
    finished = models.BooleanField(default=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "email address"
        verbose_name_plural = "email addresses"

    def __str__(self) -> str:
        state = "confirmed" if self.confirmed_at else "unconfirmed"
        return f"{self.address} ({state})"


class MailKind(models.TextChoices):
    CONFIRM = "confirm", "address confirmation"
    TURN = "turn", "your turn (one game)"
    DIGEST = "digest", "your turn (several games)"
    FINISHED = "finished", "game finished"


class Mail(Delivery):
    """One mail to one address. ``headers``: extra headers (``List-Unsubscribe``...). Its delivery state is the
    outbox's (``outbox.models.Delivery``); ``error`` also says why a mail was cancelled (address changed,
    unsubscribed, nothing waits any more)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mails")
    to = models.EmailField(max_length=254)
    kind = models.CharField(max_length=16, choices=MailKind.choices)
    subject = models.CharField(max_length=200)
    body_text = models.TextField()
    body_html = models.TextField()
    headers = models.JSONField(default=dict)
    games = models.ManyToManyField(Game, through="MailGame", related_name="+")

    class Meta(Delivery.Meta):
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} mail {self.pk} to {self.to} ({self.status})"


class MailAttempt(DeliveryAttempt):
    """One try of a mail through the mail server (``outbox.models.DeliveryAttempt``)."""

    mail = models.ForeignKey(Mail, on_delete=models.CASCADE, related_name="attempt_rows")

    def __str__(self) -> str:
        return f"mail {self.mail_id} #{self.number}: {self.error or 'sent'}"


class MailGame(models.Model):
    """A game a mail is about: the recipient's ``seat`` and the game's ``version`` when the mail was made."""

    mail = models.ForeignKey(Mail, on_delete=models.CASCADE, related_name="game_rows")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["mail", "game"]
        indexes = [models.Index(fields=["game", "mail"], name="notifications_mailgame_game")]

    def __str__(self) -> str:
        return f"mail {self.mail_id}: game {self.game_id} v{self.version}"
