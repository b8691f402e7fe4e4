"""``games/{id}/review/`` (issue 23, "Review of a finished game"): a player of a finished game asks (202), reads
it (200 once done); asking twice starts one review; a game being played is refused with 409 ``game_in_progress``,
anyone else's asking with 403, an unknown game or review with 404; staff name the seat."""

from __future__ import annotations

from unittest import mock

import pytest

from games.models import Review, ReviewStatus
from games.services.review import REVIEW_GAME, review_advance
from palace_api.errors import ErrorCode
from tests.games.api.helpers import assert_error
from tests.games.review_helpers import finished_game, started_game

pytestmark = pytest.mark.django_db


def url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/review/"


def _finish(review_id: int) -> None:
    with mock.patch("games.services.review.send_after_commit"):
        while Review.objects.get(pk=review_id).status == ReviewStatus.PENDING:
            review_advance(review_id=review_id)


def test_a_player_asks_twice_gets_one_review_and_reads_it_when_done(
    make_player, auth_client, settings, django_capture_on_commit_callbacks
):
    settings.REVIEW_SECONDS = 0.01
    game, _, tokens = finished_game(make_player, names=("ann", "ben"))
    ann = auth_client(tokens[0])
    assert_error(ann.get(url(game.pk)), 404, ErrorCode.REVIEW_NOT_FOUND)
    with mock.patch("outbox.broker.current_app.send_task") as send, django_capture_on_commit_callbacks(execute=True):
        first = ann.post(url(game.pk), {}, format="json")
        second = ann.post(url(game.pk))
    assert first.status_code == second.status_code == 202, first.content
    assert first.json()["status"] == "pending" and first.json()["seat"] == 0
    assert [call.args[0] for call in send.call_args_list] == [REVIEW_GAME], "asked twice, run once"
    assert Review.objects.filter(game=game).count() == 1
    _finish(Review.objects.get(game=game).pk)
    done = ann.get(url(game.pk))
    assert done.status_code == 200
    body = done.json()
    assert body["status"] == "done" and body["reviewed"] == body["decisions"] > 0
    assert body["rows"] and set(body["worst"]) <= {row["seq"] for row in body["rows"]}
    assert all(row["loss"] >= 0 and row["best_score"] >= row["played_score"] for row in body["rows"])
    assert ann.post(url(game.pk)).status_code == 200, "done: asking again answers it"


def test_a_game_being_played_is_refused_with_game_in_progress(make_player, auth_client):
    game, _, tokens = started_game(make_player, names=("cat", "dan"))
    response = auth_client(tokens[0]).post(url(game.pk))
    assert_error(response, 409, ErrorCode.GAME_IN_PROGRESS)
    assert not Review.objects.exists()


def test_someone_who_did_not_play_is_refused_and_an_unknown_game_is_not_found(make_player, auth_client):
    game, _, tokens = finished_game(make_player, names=("eve", "fay"))
    _, stranger = make_player("stranger")
    client = auth_client(stranger)
    assert_error(client.post(url(game.pk)), 403, ErrorCode.NOT_SEATED)
    assert_error(client.get(url(game.pk)), 403, ErrorCode.NOT_SEATED)
    assert_error(client.post(url(game.pk), {"seat": 1}, format="json"), 403, ErrorCode.NOT_SEATED)
    assert_error(client.post(url(10**12)), 404, ErrorCode.GAME_NOT_FOUND)
    player = auth_client(tokens[0])
    assert_error(player.post(url(game.pk), {"seat": 1}, format="json"), 403, ErrorCode.NOT_SEATED)
    assert not Review.objects.exists()


def test_staff_name_the_seat_they_review(make_player, make_staff, auth_client):
    game, _, _ = finished_game(make_player, names=("gus", "hal"))
    staff = auth_client(make_staff()[1])
    assert_error(staff.post(url(game.pk)), 400, ErrorCode.INVALID_SEAT)
    assert_error(staff.post(url(game.pk), {"seat": 5}, format="json"), 400, ErrorCode.INVALID_SEAT)
    assert staff.post(url(game.pk), {"seat": 1}, format="json").status_code == 202
    assert staff.get(url(game.pk), {"seat": 1}).json()["seat"] == 1
