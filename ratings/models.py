"""Ratings: one per rated identity (a player, or a bot level) and ladder, each game that changed them, and how.

A ladder is a game kind, Palace Poker by points apart (``games.engine.registry.LADDERS``). ``Rating`` holds the
Weng-Lin (openskill Plackett-Luce) estimate ``mu`` with its uncertainty ``sigma``; ``RatedGame`` is the one row
per game whose end was rated (unique: a game is rated once); ``RatingChange`` one per seat of it, before and
after. Only ``ratings.services`` writes them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class Rating(models.Model):
    """The rating of ``player`` (a user) or of the bot level ``bot`` (no player) on ``ladder``.

    ``ordinal``: ``mu - 3 sigma``, the conservative estimate leaderboards sort by; ``provisional``: ``sigma`` is
    not yet below ``ratings.skill.PROVISIONAL_SIGMA``; ``games``: rated games played; ``last_rated``: the
    ``RatedGame.finished`` of its latest one (the next one rated after it is finished later, ``services.rate``).
    """

    ladder = models.CharField(max_length=32)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )
    bot = models.CharField(max_length=32, blank=True, default="")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    provisional = models.BooleanField(default=True)
    games = models.PositiveIntegerField(default=0)
    last_rated = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["ladder", "player"], condition=models.Q(player__isnull=False), name="rating_one_per_player"
            ),
            models.UniqueConstraint(
                fields=["ladder", "bot"], condition=models.Q(player__isnull=True), name="rating_one_per_bot"
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=True) ^ models.Q(bot=""), name="rating_player_or_bot"
            ),
        ]
        indexes = [models.Index(fields=["ladder", "provisional", "-ordinal"], name="rating_board")]

    def __str__(self) -> str:
        who = f"player {self.player_id}" if self.player_id else f"bot {self.bot}"
        return f"{who} on {self.ladder}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatedGame(models.Model):
    """A game whose end changed ratings: one row per game, so never twice. ``finished``: when it was rated, in
    the order ratings changed (later than every earlier game of any of its identities); recomputing from the logs
    replays the games in ``finished``, then game id, order."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated_game")
    ladder = models.CharField(max_length=32)
    finished = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"rated game {self.game_id} ({self.ladder})"


class RatingChange(models.Model):
    """What one seat's finishing ``place`` (1 first) did to its identity's rating in a rated game. A bot level
    seated twice has two rows sharing the rating."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["rated_game", "seat"]
        constraints = [models.UniqueConstraint(fields=["rated_game", "seat"], name="rating_change_unique_seat")]
