"""Bots and turn timeouts on a real Celery worker (celery.contrib.testing), through the configured broker:
the embedded SQLite broker by default, Redis in .ci/run. Each test consumes a queue of its own."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

import pytest
from django.db import OperationalError, connection
from django.utils import timezone

from games.models import Event, Game, GameStatus
from games.services import action_submit, game_create, seat_take
from games.services.turns import bot_move, timeouts_sweep
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

T = TypeVar("T")


def heads_up_against_bot(make_player, *, turn_timeout: int | None = None, first_dealer: int = 1):
    alice, _ = make_player("alice")
    options = {"first_dealer": first_dealer, "max_hands": 3}
    if turn_timeout is not None:
        options["turn_timeout"] = turn_timeout
    game = game_create(creator=alice, kind="palace-poker", seats=2, options=options)
    seat_take(game_id=game.pk, player=alice, seat=0)
    return alice, game


def read(query: Callable[[], T]) -> T:
    """Run a read, again while SQLite says a table is locked: the test database is in memory with a
    shared cache, where a read meets the worker thread's open write at once instead of waiting."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return query()
        except OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def game_to_act(game: Game) -> list[int]:
    return read(lambda: sorted(game.seats.filter(to_act=True).values_list("number", flat=True)))


def logged(game: Game, **filters) -> list[Event]:
    return read(lambda: list(Event.objects.filter(game=game, **filters).order_by("seq")))


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


def test_a_bot_task_hit_by_a_transient_database_error_is_retried_and_moves_once(worker, make_player, monkeypatch):
    """games/tasks.py: an OperationalError (a dropped connection, a failover) makes the worker retry the
    task later instead of losing the bot's turn; the retry moves once."""
    from games import tasks

    calls: list[int] = []
    real = tasks.bot_move_service

    def flaky(*, game_id: int, version: int) -> bool:
        calls.append(version)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(game_id=game_id, version=version)

    monkeypatch.setattr(tasks, "bot_move_service", flaky)
    alice, game = heads_up_against_bot(make_player)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    version = Game.objects.get(pk=game.pk).version
    action_submit(user=alice, game_id=game.pk, type="stay")
    # The bot may owe two decisions in a row (a buy, then its discard); wait until the turn is alice's again.
    wait_for(lambda: logged(game, actor=1, seq__gt=version + 1) != [] and game_to_act(game) == [0])
    assert calls[0] == calls[1], "the failed run was retried for the same version"
    moves = logged(game, actor=1, seq__gt=version + 1)
    assert len(moves) == len(set(calls)), "one bot decision per version queued: the retry moved once"
