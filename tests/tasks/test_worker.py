"""Bots and turn timeouts on a real Celery worker (celery.contrib.testing), through the configured broker:
the embedded SQLite broker by default, Redis in .ci/run. Each test consumes a queue of its own."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection
from django.utils import timezone

from games.models import Event, Game, GameStatus
from games.services import action_submit, game_create, seat_take
from games.services.turns import bot_move, timeouts_sweep
from palace_api.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker(settings) -> Iterator[None]:
    """A Celery worker thread consuming a queue that only this test sends to."""
    queue = f"palace-test-{uuid.uuid4().hex[:12]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=30):
            yield
    finally:
        app.conf.task_default_queue = previous


def wait_for(condition: Callable[[], bool], *, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("the worker did not do it in time")


def heads_up_against_bot(make_player, *, turn_timeout: int | None = None, first_dealer: int = 1):
    alice, _ = make_player("alice")
    options = {"first_dealer": first_dealer, "max_hands": 3}
    if turn_timeout is not None:
        options["turn_timeout"] = turn_timeout
    game = game_create(creator=alice, kind="palace-poker", seats=2, options=options)
    seat_take(game_id=game.pk, player=alice, seat=0)
    return alice, game


def logged(game: Game, **filters) -> list[Event]:
    return list(Event.objects.filter(game=game, **filters).order_by("seq"))


def test_a_bot_answers_by_itself(worker, make_player):
    alice, game = heads_up_against_bot(make_player)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    version = game.version
    action_submit(user=alice, game_id=game.pk, type="stay")
    wait_for(lambda: logged(game, actor=1, seq__gt=version + 1) != [])
    bot_action = logged(game, actor=1, seq__gt=version + 1)[0]
    assert bot_action.kind in {"buy", "bet", "stay", "discard", "fold"}
    assert "timeout" not in bot_action.payload["action"]


def test_a_short_turn_timeout_applies_the_default_action(worker, make_player):
    alice, game = heads_up_against_bot(make_player, turn_timeout=10)
    Game.objects.filter(pk=game.pk).update(turn_timeout=1)  # the API's floor is 10 s; a test cannot wait that
    bob, _ = make_player("bob")
    seat_take(game_id=game.pk, player=bob, seat=1)
    game.refresh_from_db()
    assert game.deadline is not None
    wait_for(lambda: logged(game, kind="stay", actor=0) != [], seconds=15)
    (timed_out,) = logged(game, kind="stay", actor=0)
    assert timed_out.payload["action"]["timeout"] is True
    assert timed_out.payload["events"][0] == {"type": "timeout", "seat": 0, "action": "stay"}


def test_a_lost_timeout_is_applied_by_the_sweeper(make_player):
    alice, game = heads_up_against_bot(make_player, turn_timeout=3600)
    bob, _ = make_player("bob")
    seat_take(game_id=game.pk, player=bob, seat=1)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts_sweep() == 1
    assert [event.payload["action"].get("timeout") for event in logged(game, kind="stay")] == [True]
    assert timeouts_sweep() == 0, "the next decision has a deadline of its own, an hour away"


def test_a_task_queued_for_an_old_version_does_nothing(make_player):
    alice, game = heads_up_against_bot(make_player)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    game.refresh_from_db()
    version = game.version
    assert bot_move(game_id=game.pk, version=version - 1) is False
    assert Game.objects.get(pk=game.pk).version == version
    assert bot_move(game_id=game.pk, version=version) is False, "it is alice's decision, not the bot's"


def test_a_redelivered_bot_task_moves_once(make_player):
    """A task killed mid-move is delivered again (acks_late): the second run finds the version moved on."""
    alice, game = heads_up_against_bot(make_player)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    game.refresh_from_db()
    action_submit(user=alice, game_id=game.pk, type="stay")
    version = Game.objects.get(pk=game.pk).version
    assert bot_move(game_id=game.pk, version=version) is True
    assert bot_move(game_id=game.pk, version=version) is False
    assert len(logged(game, actor=1, seq__gt=version)) == 1


def test_two_sweepers_at_once_apply_each_timeout_once(make_player):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; .ci/run runs this test against PostgreSQL")
    alice, game = heads_up_against_bot(make_player, turn_timeout=3600)
    bob, _ = make_player("bob")
    seat_take(game_id=game.pk, player=bob, seat=1)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    barrier = threading.Barrier(2)
    results: list[int] = []

    def sweep() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(timeouts_sweep())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == [0, 1]
    assert len(logged(game, kind="stay")) == 1
