"""Reads of game reviews (issue 23, "Review of a finished game"): which of a seat's decisions a review covers,
the position each was made in, and a review as the API and the replay page show it.

A position is the engine's state just before the decision (``state_at(game, seq - 1)``); the review's search
reads only the seat's view of it (``games.services.review.position_review``), never the state itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from games.engine.protocol import Action
from games.models import Event, Game, GameStatus, Review, ReviewedDecision
from games.selectors.state import engine_of, state_at

WORST = 5
"""Decisions listed as the ones where the played move and the search's differ most."""
NOT_REVIEWED = ("resign", "shuffle")
"""Log entries of a seat that are no move to compare: leaving the match, and chance."""


def action_body(action: dict[str, Any]) -> dict[str, Any]:
    """The body a client would POST for a logged engine action (``Action.to_json``): ``type``, and ``cards``,
    ``target``, ``amount`` when set; no ``seat`` and no ``timeout`` mark."""
    parsed = Action.from_json(action)
    body: dict[str, Any] = {"type": parsed.type}
    if parsed.cards:
        body["cards"] = [str(card) for card in parsed.cards]
    if parsed.target is not None:
        body["target"] = parsed.target
    if parsed.amount is not None:
        body["amount"] = parsed.amount
    return body


def same_move(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two action bodies are the same move (the cards' order aside)."""

    def key(body: dict[str, Any]) -> tuple[Any, ...]:
        return (body["type"], sorted(body.get("cards") or []), body.get("target"), body.get("amount"))

    return key(one) == key(other)


def seat_decisions(game: Game, seat: int, *, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """``(seq, action body)`` of each move ``seat`` made itself in ``game``'s log after ``after``, in order: its
    engine actions, not resigning, and none after the seat was handed to the bot (``seat_to_bot``)."""
    handed = (
        Event.objects.filter(game=game, kind="seat_to_bot", actor=seat).order_by("seq").values_list("seq", flat=True)
    ).first()
    rows = Event.objects.filter(game=game, actor=seat, seq__gt=after, payload__has_key="action").order_by("seq")
    if handed is not None:
        rows = rows.filter(seq__lt=handed)
    return [
        (seq, action_body(payload["action"]))
        for seq, kind, payload in rows.values_list("seq", "kind", "payload")
        if kind not in NOT_REVIEWED
    ]


def decision_positions(game: Game, seat: int, *, after: int = 0) -> Iterator[tuple[int, Any, dict[str, Any]]]:
    """``(seq, state before it, move played)`` for each of ``seat_decisions`` where the seat was one to act."""
    engine = engine_of(game)
    for seq, body in seat_decisions(game, seat, after=after):
        state = state_at(game, seq - 1)
        if state is not None and seat in engine.to_act(state):
            yield seq, state, body


def review_get(game: Game, seat: int) -> Review | None:
    """The review of ``seat`` in ``game``, if one was asked for."""
    return Review.objects.filter(game=game, seat=seat).first()


def review_seat(game: Game, user: AbstractBaseUser | AnonymousUser, seat: int | None) -> int | None:
    """The seat whose review ``user`` may read or ask for: his own (``seat`` omitted or his), any for staff
    (``seat`` given); ``None`` if none (not seated, or another's seat for a player)."""
    own = None
    if user.pk is not None:
        own = next((row.number for row in game.seats.all() if row.player_id == user.pk), None)
    if seat is None or seat == own:
        return own
    return seat if getattr(user, "is_staff", False) else None


def _row_json(row: ReviewedDecision) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "played": row.played,
        "best": row.best,
        "played_score": round(row.played_score, 4),
        "best_score": round(row.best_score, 4),
        "loss": round(row.loss, 4),
        "rollouts": row.rollouts,
        "agrees": same_move(row.played, row.best),
    }


def review_json(review: Review) -> dict[str, Any]:
    """A review as the API answers it: ``game``, ``seat``, ``status`` (``pending`` / ``done``), ``decisions``
    (the seat's decisions to review), ``reviewed`` (how many so far, forced ones included), ``created``,
    ``finished``, ``rows`` (one per reviewed decision, in order: ``seq``, ``played``, ``best``, ``played_score``,
    ``best_score``, ``loss``, ``rollouts``, ``agrees``) and ``worst`` (the ``seq`` of up to ``WORST`` decisions
    with the largest loss, largest first, leaving out those where the move played was the search's)."""
    rows = [_row_json(row) for row in review.rows.all()]
    differ = sorted((row for row in rows if not row["agrees"] and row["loss"] > 0), key=lambda row: -row["loss"])
    return {
        "game": review.game_id,
        "seat": review.seat,
        "status": review.status,
        "decisions": review.decisions,
        "reviewed": review.reviewed,
        "created": review.created,
        "finished": review.finished,
        "rows": rows,
        "worst": [row["seq"] for row in differ[:WORST]],
    }


def move_words(body: dict[str, Any]) -> str:
    """An action body in a few words for a page, its cards left for the page to draw: ``play``, ``bet 10 at seat
    1``, ``pick up``."""
    words = [body["type"].replace("_", " ")]
    if body.get("amount") is not None:
        words.append(str(body["amount"]))
    if body.get("target") is not None:
        words.append(f"at seat {body['target']}")
    return " ".join(words)


def _row_words(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "played_words": move_words(row["played"]),
        "best_words": move_words(row["best"]),
        "played_percent": round(100 * row["played_score"]),
        "best_percent": round(100 * row["best_score"]),
        "loss_points": round(100 * row["loss"]),
    }


def review_panel(game: Game, user: AbstractBaseUser | AnonymousUser, *, step: int) -> dict[str, Any] | None:
    """What the replay page shows of the review of ``user``'s own seat, at ``step``: ``None`` for someone who did
    not play the game or a game not over; else ``{"seat", "review"}`` (``review_json`` or ``None`` before anyone
    asked), ``"worst"`` (its rows where the move played and the search's differ most, largest loss first) and
    ``"here"`` (the row of this step's move, if it was one of the reviewed), each row with its moves in words and
    its scores in percent."""
    if game.status != GameStatus.FINISHED:
        return None
    seat = review_seat(game, user, None)
    if seat is None:
        return None
    review = review_get(game, seat)
    if review is None:
        return {"seat": seat, "review": None, "worst": [], "here": None}
    found = review_json(review)
    by_seq = {row["seq"]: _row_words(row) for row in found["rows"]}
    return {
        "seat": seat,
        "review": found,
        "worst": [by_seq[seq] for seq in found["worst"]],
        "here": by_seq.get(step),
    }
