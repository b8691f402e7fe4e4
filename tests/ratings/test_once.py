"""A game's end changes ratings exactly once, and a cancelled game changes none (README "Ratings").

The finish rates the game in its own transaction (``games.services.finish_hooks``); a bot's finishing move
delivered twice (a task retried after its worker was killed) finds the game moved on; rating the game again,
from a second call or from two processes at once, finds its one ``RatedGame`` row and changes nothing.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import tasks
from games.models import Game
from games.selectors.read_models import game_detail, game_get
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.lifecycle import game_cancel, seat_leave
from players.services import player_register
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services.rate import rating_apply, rating_game_finished
from tests.games.selectors.test_redaction import random_body
from tests.ratings.play import play_out, rated_game


def ratings_now() -> dict:
    return {(row.ladder, row.player_id, row.bot): (row.mu, row.sigma, row.games) for row in Rating.objects.all()}


@pytest.mark.django_db
def test_every_bot_move_delivered_twice_still_rates_the_finished_game_once() -> None:
    """Given a rated heads-up game against a bot, when each of the bot's moves (the task) runs twice, as after a
    worker killed before its acknowledgement, then the game is rated once: one row, one game per rating."""
    rng = random.Random("twice")
    alice = player_register(name="alice")[0]
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={"max_hands": 1}, rated=True)
    seat_take(game_id=game.pk, player=alice, seat=0)
    seat_take(game_id=game.pk, player=alice, seat=1, bot="random")
    for _ in range(500):
        game = Game.objects.get(pk=game.pk)
        if game.status == "finished":
            break
        if game.seats.get(number=1).to_act:
            first = tasks.bot_move.apply(args=[game.pk, game.version]).get()
            again = tasks.bot_move.apply(args=[game.pk, game.version]).get()
            assert (first, again) == (True, False)
            continue
        legal = game_detail(game_get(game.pk), alice)["legal_actions"]
        action_submit(user=alice, game_id=game.pk, expected_version=game.version, **random_body(rng.choice(legal), rng))
    assert game.status == "finished"
    assert RatedGame.objects.filter(game=game).count() == 1
    assert RatingChange.objects.filter(rated_game__game=game).count() == 2
    assert sorted(row.games for row in Rating.objects.all()) == [1, 1]


@pytest.mark.django_db
def test_rating_a_rated_game_again_changes_nothing() -> None:
    rng = random.Random("again")
    users = [player_register(name=f"again{n}")[0] for n in range(5)]
    game = play_out(rng, rated_game(rng, users))
    before = ratings_now()
    assert rating_apply(game_id=game.pk) == RatedGame.objects.get(game=game)
    rating_game_finished(Game.objects.get(pk=game.pk))
    assert ratings_now() == before
    assert RatedGame.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_processes_rating_one_finished_game_at_once_rate_it_once() -> None:
    """Given a finished rated game not rated yet (its finish's hook did not run), when eight threads rate it at
    once, then one row is written and each rating moves once: as far as one rating alone moves it."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; .ci/run runs this test against PostgreSQL")
    rng = random.Random("race")
    users = [player_register(name=f"race{n}")[0] for n in range(5)]
    game = rated_game(rng, users)
    Game.objects.filter(pk=game.pk).update(rated=False)
    play_out(rng, game)
    Game.objects.filter(pk=game.pk).update(rated=True)
    assert not RatedGame.objects.exists() and not Rating.objects.exists()
    barrier = threading.Barrier(8)

    def rate(_: int) -> int | None:
        try:
            barrier.wait(timeout=30)
            rated = rating_apply(game_id=game.pk)
            return None if rated is None else rated.pk
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = set(pool.map(rate, range(8)))
    assert answers == {RatedGame.objects.get(game=game).pk}
    assert all(row.games == 1 for row in Rating.objects.all())
    assert RatingChange.objects.count() == game.seat_count


@pytest.mark.django_db
def test_a_cancelled_game_and_a_casual_game_change_no_rating() -> None:
    rng = random.Random("none")
    users = [player_register(name=f"none{n}")[0] for n in range(5)]
    waiting = game_create(creator=users[0], kind="palace", seats=3, rated=True)
    seat_take(game_id=waiting.pk, player=users[0])
    seat_take(game_id=waiting.pk, player=users[1])
    seat_leave(user=users[1], game_id=waiting.pk)
    game_cancel(user=users[0], game_id=waiting.pk)
    assert rating_apply(game_id=waiting.pk) is None
    casual = rated_game(rng, users)
    Game.objects.filter(pk=casual.pk).update(rated=False)
    play_out(rng, casual)
    assert rating_apply(game_id=casual.pk) is None
    assert not Rating.objects.exists() and not RatedGame.objects.exists()
