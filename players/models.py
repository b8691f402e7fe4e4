"""Players: the profile of a Django user who plays (a person or, later, a bot).

Games refer to players by their user (``settings.AUTH_USER_MODEL``); a player's public name is the user's
``username``. Staff accounts made with ``createsuperuser`` have no Player.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

NAME_MAX_LENGTH = 32


class Player(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        BOT = "bot", "Bot"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    # The user's username, repeated here so the database itself keeps names unique regardless of case
    # (auth.User's own unique index is case-sensitive). Set once, by players.services.player_register.
    name = models.CharField(max_length=NAME_MAX_LENGTH, editable=False)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    # The policy a bot plays by (the bots issue fills it); null for a human.
    bot = models.CharField(max_length=64, null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Whether the player has a webhook endpoint (enabled or not), kept by ``players.services.news_wanted_set``:
    # a change of a game where no seated player wants news publishes no task for the webhooks app
    # (``games.services.scheduling.after_commit``). A user without a Player counts as wanting it.
    news_wanted = models.BooleanField(default=False, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("name"), name="players_player_name_unique_ci"),
            models.CheckConstraint(
                condition=models.Q(kind="human", bot__isnull=True) | models.Q(kind="bot", bot__isnull=False),
                name="players_player_bot_policy_iff_bot",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class StreamGrant(models.Model):
    """The session behind a stream token that a logged-in session asked for (the table pages, or the API used
    with a session): the token opens streams only while that session is still logged in as ``user``
    (``players.auth``), so logging out ends it. A token asked for with an API token is tied to that token
    instead and needs no row. Rows older than a token's life are deleted as new ones are made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # Django's session key (django.contrib.sessions: 32 characters, at most 40); the sessions table holds it too.
    session_key = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"stream grant {self.pk} of user {self.user_id}"
