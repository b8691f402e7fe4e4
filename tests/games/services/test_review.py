"""Reviews of finished games (games/services/review.py; issue 23, "Review of a finished game"): the search bot
rates each of a seat's decisions from that seat's view at that moment, so cards it could not see then change
nothing; the review is made once per seat, in batches, and never for a game being played."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from games.engine.bots import get_bot
from games.engine.registry import get_game
from games.models import Review, ReviewedDecision, ReviewStatus
from games.selectors.review import decision_positions, review_json, same_move, seat_decisions
from games.selectors.state import engine_of
from games.services.review import REVIEW_GAME, position_review, review_advance, review_request
from palace_api.errors import ConflictError, ErrorCode
from tests.games.engine.bots.test_search import _decisions, _hidden_swapped
from tests.games.review_helpers import finished_game, started_game

ROLLOUTS = 24
"""Rollouts per reviewed position here: a count, never time, so a review is a function of the view and seed."""


@pytest.mark.parametrize("kind", ["palace", "palace-poker"])
def test_a_positions_review_reads_the_seats_view_only(kind):
    """Given two states that differ only in cards hidden from the seat to act (the other palaces or face-down
    cards and the stock dealt again), when each position is reviewed with the same seed, then the reviews are
    the same; and they are real reviews (several candidates, rollouts run)."""
    compared = 0
    for state, seat, view in _decisions(kind, 400, seed=23):
        engine = get_game(kind)
        swapped = _hidden_swapped(kind, state, seat, random.Random(compared))
        if swapped == state or engine.view(swapped, seat) != view:
            continue
        played = get_bot(kind, "basic").choose(view, random.Random(1))
        one = position_review(kind, state, seat, played, rng=random.Random(5), seconds=None, iterations=ROLLOUTS)
        if one is None:
            continue  # a forced decision
        other = position_review(kind, swapped, seat, played, rng=random.Random(5), seconds=None, iterations=ROLLOUTS)
        assert one == other
        assert 1 <= one.rollouts <= ROLLOUTS and one.best_score >= one.played_score
        compared += 1
        if compared == 6:
            return
    raise AssertionError(f"only {compared} positions with hidden cards and a choice were found")


@pytest.mark.django_db
def test_a_review_covers_each_choice_the_seat_made_once_then_is_done(make_player, settings):
    settings.REVIEW_SECONDS = 0.01
    settings.REVIEW_BATCH_SECONDS = 0.0  # one decision a batch: the batches chain through their task
    game, users, _ = finished_game(make_player)
    with mock.patch("games.services.review.send_after_commit") as send:
        review, created = review_request(user=users[0], game_id=game.pk)
    assert created and review.status == ReviewStatus.PENDING
    send.assert_called_once_with(REVIEW_GAME, [[review.pk]])
    batches = 0
    with mock.patch("games.services.review.send_after_commit") as send:
        while Review.objects.get(pk=review.pk).status == ReviewStatus.PENDING:
            review_advance(review_id=review.pk)
            batches += 1
            assert batches < 200
    review.refresh_from_db()
    assert review.reviewed == review.decisions == len(seat_decisions(game, 0)) == batches
    assert send.call_count == batches - 1, "each batch but the last queues the next"
    positions = {seq: body for seq, _, body in decision_positions(game, 0)}
    rows = list(ReviewedDecision.objects.filter(review=review))
    assert rows and {row.seq for row in rows} <= set(positions)
    for row in rows:
        assert same_move(row.played, positions[row.seq])
        assert row.loss == pytest.approx(max(0.0, row.best_score - row.played_score))
        assert row.rollouts >= 1
    assert review_advance(review_id=review.pk) is False, "a done review is left alone"
    again, created = review_request(user=users[0], game_id=game.pk)
    assert (again.pk, created) == (review.pk, False)
    assert review_json(again)["reviewed"] == review.decisions


@pytest.mark.django_db
def test_the_review_task_searches_the_view_before_each_decision(make_player, settings):
    """Each position handed to the search is the state just before the seat's decision, and the search is given
    the seat whose review it is: ``position_review`` then reads that seat's view alone (test above)."""
    settings.REVIEW_SECONDS = 0.01
    game, users, _ = finished_game(make_player)
    review, _ = review_request(user=users[1], game_id=game.pk)
    seen = []

    def spy(kind, state, seat, played, **kwargs):
        seen.append((seat, engine_of(game).view(state, seat), played))
        return None

    with mock.patch("games.services.review.position_review", side_effect=spy):
        review_advance(review_id=review.pk)
    expected = [(1, engine_of(game).view(state, 1), body) for _, state, body in decision_positions(game, 1)]
    assert seen == expected and seen


@pytest.mark.django_db
def test_a_game_being_played_is_never_reviewed(make_player):
    game, users, _ = started_game(make_player)
    with pytest.raises(ConflictError) as refused:
        review_request(user=users[0], game_id=game.pk)
    assert refused.value.code == ErrorCode.GAME_IN_PROGRESS
    assert not Review.objects.exists()
