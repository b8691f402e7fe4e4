"""What is due lives in the database, not in the broker: the stalled-bot sweeper, publishing that never fails a
request, and a database error answered 503. (tests/system/faults/ checks the same end to end on real servers.)"""

from __future__ import annotations

import logging
from datetime import timedelta
from unittest import mock

import pytest
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games.models import Event, Game, Seat
from games.selectors.state import engine_of, game_state
from games.services.games import game_create, seat_take
from games.services.scheduling import BOT_MOVE
from games.services.turns import bot_move, stalled_bots_sweep
from outbox.broker import publish
from players.services import player_register


def bot_match(name: str) -> Game:
    """A Palace Poker match between two bots, started: a bot owes the first decision."""
    creator, _ = player_register(name=name)
    game = game_create(creator=creator, kind="palace-poker", seats=2, options={"max_hands": 1})
    for seat in range(2):
        seat_take(game_id=game.pk, player=creator, seat=seat, bot="random")
    game = Game.objects.get(pk=game.pk)
    assert Seat.objects.filter(game=game, to_act=True).exclude(bot="").exists()
    return game


def age(game: Game, seconds: float) -> None:
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_the_sweeper_makes_a_bot_decision_due_longer_than_the_stall_delay(settings) -> None:
    """Given a bot decision due for longer than BOT_STALL_SECONDS (its message lost), when the sweeper runs, then
    the bot moves once; a decision due for less is left to its message; a second sweep finds nothing stalled."""
    settings.BOT_STALL_SECONDS = 10
    stalled, fresh = bot_match("stalled"), bot_match("fresh")
    age(stalled, 11)
    age(fresh, 5)
    assert stalled_bots_sweep() == 1
    assert Game.objects.get(pk=stalled.pk).version > stalled.version
    assert Game.objects.get(pk=fresh.pk).version == fresh.version
    assert stalled_bots_sweep() == 0, "the moved game was touched just now: nothing is stalled"


@pytest.mark.django_db
def test_the_sweeper_leaves_finished_games_and_human_decisions(settings) -> None:
    settings.BOT_STALL_SECONDS = 10
    finished = bot_match("finished")
    Game.objects.filter(pk=finished.pk).update(status="finished")
    age(finished, 60)
    human, _ = player_register(name="human")
    game = game_create(creator=human, kind="palace-poker", seats=2, options={"max_hands": 1, "first_dealer": 1})
    seat_take(game_id=game.pk, player=human, seat=0)
    seat_take(game_id=game.pk, player=human, seat=1, bot="random")
    Seat.objects.filter(game=game).update(to_act=False)
    Seat.objects.filter(game=game, number=0).update(to_act=True)
    age(game, 60)
    assert stalled_bots_sweep() == 0


def test_publish_logs_a_broker_error_and_returns_false(caplog) -> None:
    """A broker error after a commit must not reach the request that committed (the sweeper recovers)."""
    with mock.patch("outbox.broker.current_app.send_task", side_effect=BrokerError("down")):
        with caplog.at_level(logging.WARNING, logger="outbox.broker"):
            assert publish(BOT_MOVE, args=[1, 2]) is False
    assert "sweeper will recover" in caplog.text


@pytest.mark.django_db
def test_a_commit_whose_bot_turn_cannot_be_published_still_succeeds(django_capture_on_commit_callbacks) -> None:
    """Given a broker that refuses every message, when the last seat is taken and a bot owes the first decision,
    then the seat is taken, the match has started, and the failed publish was attempted and swallowed."""
    creator, _ = player_register(name="alone")
    game = game_create(creator=creator, kind="palace-poker", seats=2, options={"max_hands": 1})
    seat_take(game_id=game.pk, player=creator, seat=0, bot="random")
    with mock.patch("outbox.broker.current_app.send_task", side_effect=BrokerError("down")) as send:
        with django_capture_on_commit_callbacks(execute=True):
            seat = seat_take(game_id=game.pk, player=creator, seat=1, bot="random")
    assert seat.number == 1
    assert Game.objects.get(pk=game.pk).status == "active"
    assert BOT_MOVE in [call.args[0] for call in send.call_args_list]


@pytest.mark.django_db
def test_a_database_error_answers_503_with_retry_after(api_client, make_player) -> None:
    _, token = make_player()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    with mock.patch("games.api.views.selectors.my_turns", side_effect=OperationalError("server closed")):
        answer = api_client.get("/api/v1/me/turns/")
    assert answer.status_code == 503
    assert answer.json()["code"] == "service_unavailable"
    assert answer["Retry-After"] == str(answer.json()["retry_after"])


@pytest.mark.django_db
def test_a_bot_that_fails_to_decide_plays_the_default_action_and_the_table_goes_on(caplog) -> None:
    """Given a bot whose choice raises, when its move is due, then its seat plays the rules' default action (the
    log grows by that action, nothing else) and the fault is logged without the seat's cards."""
    game = bot_match("faulty")
    seat = Seat.objects.get(game=game, to_act=True).number
    expected = engine_of(game).default_action(game_state(game), seat).to_json()

    class Broken:
        def choose(self, view, rng):
            raise ValueError("a bot's bug")

    with mock.patch("games.services.turns.get_bot", return_value=Broken()), caplog.at_level(logging.ERROR):
        assert bot_move(game_id=game.pk, version=game.version)
    moved = Game.objects.get(pk=game.pk)
    assert moved.version > game.version
    logged = Event.objects.filter(game=moved, payload__has_key="action").latest("seq").payload["action"]
    assert logged == expected
    assert "failed to decide" in caplog.text
    assert "a bot's bug" in caplog.text
