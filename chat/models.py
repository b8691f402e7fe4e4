"""Table chat: messages said at a game, kept apart from its log (issue 26, "Table chat").

A ``Message`` never touches ``games.Event``, ``Game.version`` or a snapshot: a replay of the game is the same
with or without its chat. Each game has two rooms: the players' and the spectators' (``Room``); who may read and
write each is ``chat.selectors.room_rights``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Room(models.TextChoices):
    PLAYERS = "players", "players"
    SPECTATORS = "spectators", "spectators"


class Message(models.Model):
    """One message. ``text``: NFC-normalised, at most ``chat.services.MAX_LENGTH`` characters, stored as typed
    (escaped where shown, never here). ``hidden``: staff took it down (kept for the record, with who and when)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(max_length=16, choices=Room.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.TextField()
    created = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "room", "id"], name="chat_message_room")]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.room} #{self.pk}"


class Mute(models.Model):
    """``user`` no longer sees what ``muted`` says, in any game (his own choice; nobody else is told)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique")]
