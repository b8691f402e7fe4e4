"""Game storage: the append-only event log and what is derived from it.

Truth is the ``Event`` rows of a game, in ``seq`` order: seat joins, then every engine action
(decisions and shuffles) with the engine events it produced. The game's state is those actions
replayed through ``games.engine``. ``Snapshot`` rows are a disposable cache of replayed states;
``Game.version``, ``Game.status``, ``Game.deadline``, ``Seat.to_act`` and ``Seat.due_since`` are projections
kept in the same transaction as the events they follow from, so reads never replay to answer "whose turn"
(``games.selectors.due``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GameStatus(models.TextChoices):
    WAITING = "waiting", "waiting for players"
    ACTIVE = "active", "active"
    FINISHED = "finished", "finished"
    CANCELLED = "cancelled", "cancelled before it started"


class OnAbsent(models.TextChoices):
    """What ``max_timeouts`` consecutive timeouts of a seat do (``games.services.turns.timeout_apply``)."""

    RESIGN = "resign", "the seat resigns"
    BOT = "bot", "the basic bot plays the seat for the rest of the match"


class Game(models.Model):
    """One match of a Palace game. ``options``: the engine's options; ``turn_timeout``: seconds a
    human has for a decision (``None``: no limit); ``max_timeouts``: consecutive timeouts of a seat
    after which ``on_absent`` applies (``None``: never); ``version``: the number of events in the log;
    ``rated``: its end changes its players' ratings (the ``ratings`` app; every seat a player or a bot);
    ``seed_master``, ``seed_master_salt``: hex, drawn at creation, every seed the server brings to the match
    (``games.engine.master_seed``; empty for games stored before it), secret until the whole log is revealed."""

    kind = models.CharField(max_length=32)
    seat_count = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    turn_timeout = models.PositiveIntegerField(null=True, blank=True)
    max_timeouts = models.PositiveSmallIntegerField(null=True, blank=True, default=3)
    on_absent = models.CharField(max_length=16, choices=OnAbsent.choices, default=OnAbsent.RESIGN)
    prearranged_shuffles = models.JSONField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    seed_master = models.CharField(max_length=64, blank=True, default="")
    seed_master_salt = models.CharField(max_length=32, blank=True, default="")
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING)
    version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    updated = models.DateTimeField(auto_now=True)
    # The game this one is the rematch of (issue 26): one-to-one, so a game has one rematch at most, whatever
    # the races (``games.services.rematch``).
    rematch_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch")

    class Meta:
        ordering = ["-created", "-id"]
        # Plain indexes: a CharField's db_index adds a second, varchar_pattern_ops one for LIKE, which no query
        # here makes and every write of the row pays for.
        indexes = [models.Index(fields=["kind"], name="game_kind"), models.Index(fields=["status"], name="game_status")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status}, v{self.version})"


class Seat(models.Model):
    """A seat of a game: ``number`` 0..n-1 clockwise, taken by a player (``bot`` names a policy
    for bot seats, and for a player's seat the bot plays after his timeouts). Projections of the log:
    ``to_act``, the seat may decide now (the engine's ``to_act``: a chance to play out of turn included, which
    a bot takes); ``due_since``, the game waits for its decision, due since that version (the engine's
    ``due_to_act``; ``None``: none due; see ``games.selectors.due``). ``seed``: the player's own shuffle seed,
    lower-case hex (``""``: the server draws one each deal; ``games.engine.fairness``), read by nobody but the
    log's shuffles."""

    # No index of its own: seat_unique_number (game, number) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    bot = models.CharField(max_length=32, blank=True, default="")
    seed = models.CharField(max_length=64, blank=True, default="")
    to_act = models.BooleanField(default=False)
    due_since = models.PositiveIntegerField(null=True, blank=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["game", "player"], condition=models.Q(player__isnull=False), name="seat_one_per_player"
            ),
        ]
        indexes = [models.Index(fields=["player", "due_since"], name="seat_player_due")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.number}"


class Event(models.Model):
    """One entry of a game's log. ``seq`` counts from 1 without gaps (unique with ``game``).

    ``kind``: ``seat_taken``, ``seat_left``, ``game_cancelled``, ``seat_to_bot``, an engine action type
    (``bet``, ``buy``, ``resign``...) or ``shuffle``; ``actor``: the seat that acted, ``None`` for chance
    and a cancellation; ``payload``: ``{"action": <engine action JSON>, "events": [<engine events, staff
    JSON with per-card visibility>]}`` for an engine action, else the entry's own fields (``{"seat",
    "player"}`` or ``{"seat", "bot"}`` for a seat taken or left, ``{"by"}`` for a cancellation, ``{"seat",
    "bot", "timeouts"}`` for a seat handed to a bot). Replay applies only the entries with an ``action``.
    """

    # No index of its own: event_unique_seq (game, seq) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    actor = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.seq} {self.kind}"


class Snapshot(models.Model):
    """A cached engine state after ``version`` events. Deleting every snapshot changes no response."""

    # No index of its own: snapshot_unique_version (game, version) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False)
    version = models.PositiveIntegerField()
    state = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="snapshot_unique_version")]


class IdempotencyStatus(models.TextChoices):
    IN_FLIGHT = "in_flight", "in flight"
    DONE = "done", "done"


class IdempotencyKey(models.Model):
    """A client's ``Idempotency-Key`` for one action request, scoped to that client.

    ``request_hash``: SHA-256 of the game and the canonical request body; the stored response is
    returned again for the same key and body. The row is written in its action's transaction (``in_flight``,
    then ``done`` with the response before the commit), so no other session sees it before it is done; one
    seen ``in_flight`` was left by an earlier version of the server and its retry takes it over.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_keys")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=IdempotencyStatus.choices, default=IdempotencyStatus.IN_FLIGHT)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")]


class ReviewStatus(models.TextChoices):
    PENDING = "pending", "being reviewed"
    DONE = "done", "reviewed"


class Review(models.Model):
    """The search bot's review of one seat's decisions in a finished game (issue 23, "Review of a finished game";
    ``games.services.review``). One per game and seat: asking again returns it. ``decisions``: the seat's
    decisions to review in all; ``reviewed``: how many are done, up to the log entry ``reviewed_to`` (a forced
    one, a single candidate, counts as done without a row)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=16, choices=ReviewStatus.choices, default=ReviewStatus.PENDING)
    decisions = models.PositiveIntegerField(default=0)
    reviewed = models.PositiveIntegerField(default=0)
    reviewed_to = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="review_unique_seat")]

    def __str__(self) -> str:
        return f"review of game {self.game_id} seat {self.seat} ({self.status})"


class ReviewedDecision(models.Model):
    """One decision of a review: the log entry ``seq`` the seat's move was, the move ``played`` and the search bot's
    ``best`` (action bodies, as a client POSTs them), each with its estimated outcome for the seat on the search's
    [0, 1] scale (Palace: finishing place, 1 first out; heads-up, the chance to win. Palace Poker: 0.5 plus the
    chips won over the hand in units of the bot's scale), ``loss`` = best - played, and the ``rollouts`` run."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="rows")
    seq = models.PositiveIntegerField()
    played = models.JSONField()
    best = models.JSONField()
    played_score = models.FloatField()
    best_score = models.FloatField()
    loss = models.FloatField()
    rollouts = models.PositiveIntegerField()

    class Meta:
        ordering = ["review", "seq"]
        constraints = [models.UniqueConstraint(fields=["review", "seq"], name="reviewed_decision_unique_seq")]


class RematchStatus(models.TextChoices):
    OPEN = "open", "waiting for answers"
    ACCEPTED = "accepted", "accepted by every player: the rematch was created"
    DECLINED = "declined", "declined by a player"
    LAPSED = "lapsed", "lapsed (unanswered in time, or a player left)"


class RematchOffer(models.Model):
    """A finished game's offer of a rematch (issue 26; ``games.services.rematch``): one per game. ``accepted``:
    the seat numbers that accepted (the offerer's and every bot's at once); ``expires``: when an open offer
    lapses (``settings.REMATCH_OFFER_SECONDS`` after it was made); ``answered_by``: the seat that declined or
    left, if any."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch_offer")
    offered_by = models.PositiveSmallIntegerField()
    accepted = models.JSONField(default=list)
    status = models.CharField(max_length=16, choices=RematchStatus.choices, default=RematchStatus.OPEN)
    answered_by = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()

    def __str__(self) -> str:
        return f"rematch offer of game {self.game_id} ({self.status})"
