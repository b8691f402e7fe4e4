"""The review on the replay page (issue 23): a player of a finished game asks for it there, and once done the page
lists where his move and the search bot's differ most, and at a reviewed step what each would play."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.test import Client

from games.models import Review, ReviewStatus
from games.selectors.review import same_move
from games.services.review import review_advance
from tests.games.review_helpers import finished_game, started_game
from tests.web.conftest import csrf

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_a_player_asks_for_the_review_on_the_replay_page_and_sees_it_there(make_player, settings, isolated_cache):
    settings.REVIEW_SECONDS = 0.01
    game, users, _ = finished_game(make_player, names=("ann", "ben"))
    ann = _client(users[0])
    page = ann.get(f"/games/{game.pk}/replay/{game.version}/").content.decode()
    assert 'id="ask-review"' in page
    asked = ann.post(f"/games/{game.pk}/review/", {"csrfmiddlewaretoken": csrf(ann)})
    assert asked.status_code == 302 and asked["Location"] == f"/games/{game.pk}/replay/{game.version}/"
    review = Review.objects.get(game=game, seat=0)
    assert 'id="review-pending"' in ann.get(asked["Location"]).content.decode()
    with mock.patch("games.services.review.send_after_commit"):
        while Review.objects.get(pk=review.pk).status == ReviewStatus.PENDING:
            review_advance(review_id=review.pk)
    page = ann.get(asked["Location"]).content.decode()
    assert 'data-status="done"' in page
    rows = list(review.rows.order_by("-loss"))
    # A decision where the move played was the search's own is no mistake, whatever its noisy loss; and two
    # decisions may lose alike, so the first listed is one of the largest, not a given one.
    loss = {row.seq: round(row.loss, 4) for row in rows if row.loss > 0 and not same_move(row.played, row.best)}
    if loss:
        steps = re.findall(rf'href="/games/{game.pk}/replay/(\d+)/">Step', page)
        assert loss[int(steps[0])] == max(loss.values()), "the largest loss first"
    else:
        assert 'id="review-agrees"' in page
    at = ann.get(f"/games/{game.pk}/replay/{rows[0].seq}/").content.decode()
    assert 'id="review-here"' in at and "search bot" in at


def test_no_review_for_someone_who_did_not_play_or_a_game_not_over(make_player, isolated_cache):
    game, _, _ = finished_game(make_player, names=("cat", "dan"))
    stranger = _client(make_player("stranger")[0])
    assert 'id="review"' not in stranger.get(f"/games/{game.pk}/replay/1/").content.decode()
    stranger.post(f"/games/{game.pk}/review/", {"csrfmiddlewaretoken": csrf(stranger)})
    assert not Review.objects.exists()
    active, users, _ = started_game(make_player, names=("eve", "fay"))
    eve = _client(users[0])
    assert 'id="review"' not in eve.get(f"/games/{active.pk}/replay/1/").content.decode()
    refused = eve.post(f"/games/{active.pk}/review/", {"csrfmiddlewaretoken": csrf(eve)})
    assert "once it is over" in eve.get(refused["Location"]).content.decode()
    assert not Review.objects.exists()
