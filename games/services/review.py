"""Reviews of finished games (issue 23, "Review of a finished game"; what Lichess calls analysis): the search bot
goes over each decision one seat made, from that seat's view at that moment, and rates the move played against
its own choice.

- ``review_request``: a player of the finished game (or staff, for any seat) asks; the review is made once per
  game and seat, whoever asks and however often (asking again answers the same review).
- ``review_advance``: the task's work (``games.tasks.review_game``, on the slow queue): reviews the next decisions
  for ``REVIEW_BATCH_SECONDS``, stores them, and queues itself again for the rest, so search moves waiting on
  the same queue get their turn between batches. Each decision gets ``REVIEW_SECONDS`` of search.
- ``position_review``: one decision, from the seat's redacted view alone (``engine.view``); the state itself
  is never searched, so what the seat could not see at that moment cannot change the review.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.engine.bots import ActionJSON, RandomSource, get_bot
from games.engine.bots.search import SearchBot
from games.engine.errors import EngineError
from games.engine.registry import get_game
from games.models import Game, GameStatus, Review, ReviewedDecision, ReviewStatus
from games.selectors.review import review_seat, same_move, seat_decisions
from games.selectors.state import engine_of, state_at
from outbox.broker import send_after_commit
from palace_api.errors import ApplicationError, ConflictError, ErrorCode, ForbiddenError, NotFoundError

REVIEW_GAME = "games.tasks.review_game"
logger = logging.getLogger(__name__)
_RNG = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class PositionReview:
    """The search's verdict on one decision: its ``best`` move (an action body), the estimated outcome of the move
    played and of its best on the search's [0, 1] scale (``Searchable.reward``: Palace, the finishing place, 1
    first out; Palace Poker, 0.5 plus the hand's chips won in the bot's units, or, heads-up where the match's end
    is in sight (``points``, the last of ``max_hands``), the hand's worth to the chance of winning the match;
    ``games.engine.bots.poker_match``), and the ``rollouts`` run."""

    best: ActionJSON
    played_score: float
    best_score: float
    rollouts: int


def position_review(
    kind: str,
    state: Any,
    seat: int,
    played: ActionJSON,
    *,
    rng: RandomSource,
    seconds: float | None,
    iterations: int = 100_000,
) -> PositionReview | None:
    """The search bot of ``kind`` rates ``played`` (the move ``seat`` made in ``state``) against its own best,
    reading only ``seat``'s view of ``state``; ``None`` for a forced decision (a single candidate).

    The candidates are the search's own (``Searchable.candidates``) with the move played first (added if the
    search would not have considered it): it is then measured in every sweep the budget allows, at least one.
    ``None`` too where the search itself has a single candidate (it answers those without searching), and where
    the move played cannot be played out from the search's deals (logged).
    Budget: ``seconds`` of wall time per decision (``None``: no clock), at most ``iterations`` rollouts; with
    ``seconds=None`` the result is a function of the view and ``rng`` alone. Raises ``EngineError`` only for a
    state where ``seat`` has no decision.
    """
    view = get_game(kind).view(state, seat)  # the seat's view: cards it could not see are not in it
    rules = getattr(get_bot(kind, "search"), "rules")  # noqa: B009 - the search bot's game rules (Searchable)
    own = rules.candidates(view, rng)
    if len(own) < 2:
        return None  # the search answers this decision without searching (Palace's face-up choice): no rating
    candidates = [played, *(body for body in own if not same_move(body, played))]
    try:
        totals, counts = SearchBot(rules, seconds=seconds, iterations=iterations).search(view, candidates, rng)
    except EngineError:
        # A move the search cannot play out from its own deals: the decision is left unrated, the review goes on.
        logger.warning("review: %s seat %s, no rating for %s", kind, seat, played, exc_info=True)
        return None
    means = [total / count if count else -1.0 for total, count in zip(totals, counts, strict=True)]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))  # a tie goes to the move played
    return PositionReview(best=candidates[best], played_score=means[0], best_score=means[best], rollouts=sum(counts))


@transaction.atomic
def review_request(*, user: AbstractBaseUser, game_id: int, seat: int | None = None) -> tuple[Review, bool]:
    """Ask for the review of a finished game: ``user``'s own seat, or ``seat`` (staff only, or his own).
    Returns the review and whether this request created it (then its task is queued on commit). Asking again
    returns the same review; one pending with no progress for ``REVIEW_STALL_SECONDS`` (its message lost) has
    its task sent again.

    Raises ``NotFoundError("game_not_found")``, ``ApplicationError("invalid_seat")`` (a seat the game does not
    have, or staff naming none), ``ForbiddenError("not_seated")`` (not a player of the game, or another's seat),
    ``ConflictError`` ``game_in_progress`` (waiting or being played: never reviewed then) or ``game_cancelled``.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    if seat is not None and not 0 <= seat < game.seat_count:
        raise ApplicationError(ErrorCode.INVALID_SEAT, f"seats are numbered 0 to {game.seat_count - 1}")
    target = review_seat(game, user, seat)
    if target is None:
        if seat is None and getattr(user, "is_staff", False):
            raise ApplicationError(ErrorCode.INVALID_SEAT, "name the seat to review")
        raise ForbiddenError(ErrorCode.NOT_SEATED, "only a player of the game reviews it, his own seat")
    if game.status == GameStatus.CANCELLED:
        raise ConflictError(ErrorCode.GAME_CANCELLED, "this game was cancelled")
    if game.status != GameStatus.FINISHED:
        raise ConflictError(ErrorCode.GAME_IN_PROGRESS, "a game is reviewed once it is over")
    review, created = Review.objects.get_or_create(
        game=game,
        seat=target,
        defaults={"requested_by": user, "decisions": len(seat_decisions(game, target))},
    )
    stalled = timezone.now() - timedelta(seconds=settings.REVIEW_STALL_SECONDS)
    if created or (review.status == ReviewStatus.PENDING and review.updated < stalled):
        if not created:
            review.save(update_fields=["updated"])
        send_after_commit(REVIEW_GAME, [[review.pk]])
    return review, created


def review_advance(*, review_id: int) -> bool:
    """Review the next decisions of review ``review_id`` for about ``REVIEW_BATCH_SECONDS`` (one at least), store
    them, and queue the task again if some are left, else mark the review done. Returns whether it stored
    anything. Safe to run twice at once: what another run stored first is kept, and the rest dropped."""
    review = Review.objects.select_related("game").filter(pk=review_id).first()
    if review is None or review.status == ReviewStatus.DONE:
        return False
    game, seat = review.game, review.seat
    engine = engine_of(game)
    deadline = time.monotonic() + settings.REVIEW_BATCH_SECONDS
    rows: list[ReviewedDecision] = []
    done: list[int] = []
    left = False
    for seq, played in seat_decisions(game, seat, after=review.reviewed_to):
        if done and time.monotonic() >= deadline:
            left = True
            break
        state = state_at(game, seq - 1)
        if state is not None and seat in engine.to_act(state):
            found = position_review(game.kind, state, seat, played, rng=_RNG, seconds=settings.REVIEW_SECONDS)
            if found is not None:
                rows.append(_row(review, seq, played, found))
        done.append(seq)
    return _record(review_id, rows, done, left=left)


def _row(review: Review, seq: int, played: ActionJSON, found: PositionReview) -> ReviewedDecision:
    return ReviewedDecision(
        review=review,
        seq=seq,
        played=played,
        best=found.best,
        played_score=found.played_score,
        best_score=found.best_score,
        loss=max(0.0, found.best_score - found.played_score),
        rollouts=found.rollouts,
    )


@transaction.atomic
def _record(review_id: int, rows: list[ReviewedDecision], done: list[int], *, left: bool) -> bool:
    """Store a batch under the review's row lock: only the decisions past what is stored already."""
    review = Review.objects.select_for_update().get(pk=review_id)
    if review.status == ReviewStatus.DONE:
        return False
    fresh = [seq for seq in done if seq > review.reviewed_to]
    ReviewedDecision.objects.bulk_create([row for row in rows if row.seq > review.reviewed_to], ignore_conflicts=True)
    if fresh:
        review.reviewed_to, review.reviewed = fresh[-1], review.reviewed + len(fresh)
    if left:
        send_after_commit(REVIEW_GAME, [[review.pk]])
    else:
        review.status, review.finished = ReviewStatus.DONE, timezone.now()
    review.save()
    return bool(fresh)
