"""Rematch (issue 26; README "Rematch"), through the services: offer, accept by every human, decline by one,
lapse, leave, bots, seats rotated, one rematch per game, and a double accept race on PostgreSQL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, GameStatus, RematchOffer
from games.selectors.rematch import rematch_json
from games.services import game_create, seat_take
from games.services.lifecycle import game_resign
from games.services.rematch import rematch_answer, rematch_leave, rematch_offer
from palace_api.errors import ApplicationError


def _finished(creator, players, *, bots=(), options=None):
    """A finished Palace Poker game: ``players`` then ``bots`` seated in order, all but the first resigned."""
    game = game_create(creator=creator, kind="palace-poker", seats=len(players) + len(bots), options=options)
    for player in players:
        seat_take(game_id=game.pk, player=player)
    for bot in bots:
        seat_take(game_id=game.pk, player=creator, bot=bot)
    for player in players[1:]:
        game_resign(user=player, game_id=game.pk)
    if bots:
        game_resign(user=players[0], game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def _code(call, **kwargs) -> str:
    with pytest.raises(ApplicationError) as refused:
        call(**kwargs)
    return refused.value.code


@pytest.fixture
def people(make_player):
    return [make_player(name)[0] for name in ("alice", "bob", "carol")]


def test_every_human_accepts_and_a_linked_game_starts_with_the_seats_rotated(people):
    alice, bob, carol = people
    game = _finished(alice, [alice, bob, carol], options={"first_dealer": 0})
    offer = rematch_offer(user=bob, game_id=game.pk)
    assert offer.accepted == [1] and rematch_json(game)["waiting_for"] == [0, 2]
    rematch_answer(user=alice, game_id=game.pk, accept=True)
    assert not Game.objects.filter(rematch_of=game).exists()  # carol has not answered
    rematch_answer(user=carol, game_id=game.pk, accept=True)
    new = Game.objects.get(rematch_of=game)
    assert new.status == GameStatus.ACTIVE and new.kind == game.kind and new.options == game.options
    assert [seat.player for seat in new.seats.order_by("number")] == [bob, carol, alice]
    # The first dealer is seat 0 in both: alice dealt first, now bob does.
    assert rematch_json(game)["status"] == "accepted" and rematch_json(game)["game"] == new.pk
    assert game.rematch == new


def test_one_decline_ends_the_offer_and_no_game_is_made(people):
    alice, bob, carol = people
    game = _finished(alice, [alice, bob, carol])
    rematch_offer(user=alice, game_id=game.pk)
    rematch_answer(user=bob, game_id=game.pk, accept=False)
    assert rematch_json(game)["status"] == "declined" and rematch_json(game)["answered_by"] == 1
    assert _code(rematch_answer, user=carol, game_id=game.pk, accept=True) == "rematch_closed"
    assert _code(rematch_offer, user=carol, game_id=game.pk) == "rematch_taken"  # one offer per game
    assert not Game.objects.filter(rematch_of=game).exists()


def test_an_offer_lapses_after_its_time(people, settings):
    alice, bob, _ = people
    game = _finished(alice, [alice, bob])
    rematch_offer(user=alice, game_id=game.pk)
    RematchOffer.objects.filter(game=game).update(expires=timezone.now() - timedelta(seconds=1))
    assert rematch_json(game)["status"] == "lapsed"
    assert _code(rematch_answer, user=bob, game_id=game.pk, accept=True) == "rematch_closed"
    assert rematch_json(game)["status"] == "lapsed"
    assert not Game.objects.filter(rematch_of=game).exists()


def test_an_offer_lapses_when_a_player_leaves(people):
    alice, bob, carol = people
    game = _finished(alice, [alice, bob, carol])
    rematch_offer(user=alice, game_id=game.pk)
    rematch_answer(user=bob, game_id=game.pk, accept=True)
    rematch_leave(user=carol, game_id=game.pk)
    assert rematch_json(game)["status"] == "lapsed" and rematch_json(game)["answered_by"] == 2
    assert _code(rematch_answer, user=alice, game_id=game.pk, accept=True) == "rematch_closed"


def test_bots_accept_at_once_so_a_lone_human_gets_his_rematch_on_offering(people):
    alice = people[0]
    game = _finished(alice, [alice], bots=["basic"])
    rematch_offer(user=alice, game_id=game.pk)
    new = Game.objects.get(rematch_of=game)
    assert [(seat.player_id, seat.bot) for seat in new.seats.order_by("number")] == [(None, "basic"), (alice.pk, "")]


def test_only_a_seated_human_of_a_finished_game_offers(people, make_player):
    alice, bob, carol = people
    game = _finished(alice, [alice, bob])
    assert _code(rematch_offer, user=carol, game_id=game.pk) == "not_seated"
    assert _code(rematch_answer, user=bob, game_id=game.pk, accept=True) == "rematch_not_found"
    playing = game_create(creator=alice, kind="palace-poker", seats=2)
    seat_take(game_id=playing.pk, player=alice)
    seat_take(game_id=playing.pk, player=bob)
    assert _code(rematch_offer, user=alice, game_id=playing.pk) == "game_in_progress"
    assert _code(rematch_offer, user=alice, game_id=999999) == "game_not_found"


@pytest.mark.django_db(transaction=True)
def test_a_double_accept_race_makes_exactly_one_new_game(make_player):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; .ci/run runs this test against PostgreSQL")
    alice, bob, carol = (make_player(name)[0] for name in ("alice", "bob", "carol"))
    game = _finished(alice, [alice, bob, carol])
    rematch_offer(user=alice, game_id=game.pk)
    racers = [bob, carol, bob, carol, bob, carol]
    barrier = threading.Barrier(len(racers))

    def accept(user) -> str:
        try:
            barrier.wait(timeout=30)
            rematch_answer(user=user, game_id=game.pk, accept=True)
            return "ok"
        except ApplicationError as error:
            return error.code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(racers)) as pool:
        outcomes = list(pool.map(accept, racers))
    assert Game.objects.filter(rematch_of=game).count() == 1
    assert set(outcomes) <= {"ok", "rematch_closed"} and "ok" in outcomes
    assert Game.objects.count() == 2
