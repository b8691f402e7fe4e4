"""The search bot thinks for 250 ms a move: its moves and game reviews take the slow queue
(``SLOW_TASK_QUEUE``), so a basic bot's move or a turn timeout never waits behind a search (README, "Bot
levels"). Issue 23, "Bot levels for people"."""

from __future__ import annotations

import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Event, Game, GameStatus
from games.services import action_submit, game_create, seat_take
from games.services.scheduling import BOT_MOVE, SLOW_BOT_MOVE
from games.services.turns import stalled_bots_sweep
from palace_api.celery import route_task
from tests.broker import drop_queue
from tests.games.tasks.test_worker import logged, read
from tests.waiting import wait_for


def test_search_moves_and_reviews_take_the_slow_queue_and_nothing_else_does(settings):
    settings.SLOW_TASK_QUEUE = "slow"
    for name in ("games.tasks.slow_bot_move", "games.tasks.review_game"):
        assert route_task(name, [1, 2], {}, {}) == {"queue": "slow"}
    for name in ("games.tasks.bot_move", "games.tasks.apply_timeout", "games.tasks.sweep_stalled_bots"):
        assert route_task(name, [1, 2], {}, {}) is None
    settings.SLOW_TASK_QUEUE = ""
    assert route_task("games.tasks.slow_bot_move", [1, 2], {}, {}) is None


def _against(make_player, bot: str, name: str) -> tuple[object, Game]:
    """A heads-up Palace Poker match of ``name`` (seat 0, first to decide) against ``bot``, started."""
    person, _ = make_player(name)
    game = game_create(creator=person, kind="palace-poker", seats=2, options={"first_dealer": 1, "max_hands": 2})
    seat_take(game_id=game.pk, player=person, seat=0)
    seat_take(game_id=game.pk, player=person, bot=bot)
    return person, Game.objects.get(pk=game.pk)


def _sent_after_a_move(person, game: Game, capture) -> list[str]:
    with mock.patch("outbox.broker.current_app.send_task") as send, capture(execute=True):
        action_submit(user=person, game_id=game.pk, type="stay")
    return [call.args[0] for call in send.call_args_list]


@pytest.mark.django_db
def test_a_search_bots_move_is_sent_as_a_slow_task_and_a_basic_bots_as_a_bot_move(
    make_player, django_capture_on_commit_callbacks
):
    person, game = _against(make_player, "search", "alice")
    sent = _sent_after_a_move(person, game, django_capture_on_commit_callbacks)
    assert SLOW_BOT_MOVE in sent and BOT_MOVE not in sent
    person, game = _against(make_player, "basic", "bob")
    sent = _sent_after_a_move(person, game, django_capture_on_commit_callbacks)
    assert BOT_MOVE in sent and SLOW_BOT_MOVE not in sent


@pytest.mark.django_db
def test_the_sweeper_sends_a_stalled_search_move_to_the_slow_queue_instead_of_searching_itself(
    make_player, settings, django_capture_on_commit_callbacks
):
    """Given a search bot's decision stalled past BOT_STALL_SECONDS, when the sweeper (on the default queue)
    runs, then it sends the move to the slow queue and makes none itself."""
    settings.BOT_STALL_SECONDS = 10
    person, game = _against(make_player, "search", "carol")
    action_submit(user=person, game_id=game.pk, type="stay")
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(seconds=30))
    with (
        mock.patch("outbox.broker.current_app.send_task") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert stalled_bots_sweep() == 1
    assert [call.args[0] for call in send.call_args_list] == [SLOW_BOT_MOVE]
    assert send.call_args.kwargs["args"] == [game.pk, game.version]
    assert Game.objects.get(pk=game.pk).version == game.version, "no search ran in the sweeper"


@pytest.mark.django_db(transaction=True)
def test_a_basic_bot_moves_while_search_moves_wait_on_their_own_queue(worker, make_player, settings):
    """Given the slow queue backed up (here: no worker consumes it), when a person plays a basic bot, then the
    basic bot answers on the ordinary worker all the same, while the search bot's move waits in its queue."""
    slow = f"slow-test-{uuid.uuid4().hex[:12]}"
    settings.SLOW_TASK_QUEUE = slow
    try:
        alice, searched = _against(make_player, "search", "alice")
        action_submit(user=alice, game_id=searched.pk, type="stay")
        bob, basic = _against(make_player, "basic", "bob")
        version = basic.version
        action_submit(user=bob, game_id=basic.pk, type="stay")
        wait_for(lambda: logged(basic, actor=1, seq__gt=version + 1) != [])
        searched_now = read(lambda: Game.objects.get(pk=searched.pk))
        assert searched_now.status == GameStatus.ACTIVE
        assert read(lambda: Event.objects.filter(game=searched, actor=1, payload__has_key="action").exists()) is False
    finally:
        settings.SLOW_TASK_QUEUE = ""
        drop_queue(slow)
