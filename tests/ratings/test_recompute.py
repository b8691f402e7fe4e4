"""Ratings follow from the logs alone (README "Ratings").

Given 200 rated games (both kinds, 2-5 seats, players drawn from a pool of eight and bots of two levels, one level
now and then seated twice; resignations, timeouts, absent seats resigned or handed to the bot) played to their end
through the services, when every rating is recomputed from the games' logs in the order they were rated, then
every rating and every game's change come out as the same floats, and nothing is rewritten.
"""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Game
from players.services import player_register
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services.recompute import ratings_recompute
from tests.ratings.play import play_out, rated_game

GAMES = 200


def snapshot() -> tuple[dict, dict]:
    ratings = {(row.ladder, row.player_id, row.bot): (row.mu, row.sigma, row.games) for row in Rating.objects.all()}
    changes = {
        (row.rated_game.game_id, row.seat): (row.place, row.mu_before, row.sigma_before, row.mu_after, row.sigma_after)
        for row in RatingChange.objects.select_related("rated_game")
    }
    return ratings, changes


@pytest.mark.django_db(transaction=True)
def test_recomputing_200_random_rated_games_from_their_logs_gives_the_same_ratings() -> None:
    rng = random.Random("ratings-200")
    users = [player_register(name=f"rater{n}")[0] for n in range(8)]
    for number in range(GAMES):
        play_out(rng, rated_game(rng, users, kind=("palace-poker", "palace")[number % 2]))
    finished = Game.objects.filter(status="finished").count()
    assert finished == GAMES
    assert RatedGame.objects.count() == GAMES
    ladders = set(RatedGame.objects.values_list("ladder", flat=True))
    assert ladders == {"palace-poker", "palace-poker-points", "palace"}
    assert Rating.objects.filter(player__isnull=True).exists(), "bots are rated"
    assert Rating.objects.filter(provisional=False).exists()
    before = snapshot()

    report = ratings_recompute(write=False)
    assert report.games == GAMES
    assert report.differences == []

    call_command("ratings_recompute")
    assert snapshot() == before


@pytest.mark.django_db
def test_recompute_finds_and_repairs_a_rating_that_differs_from_the_logs() -> None:
    rng = random.Random("ratings-repair")
    users = [player_register(name=f"fixer{n}")[0] for n in range(5)]
    for _ in range(6):
        play_out(rng, rated_game(rng, users, kind="palace"))
    before = snapshot()
    row = Rating.objects.filter(player__isnull=False).first()
    Rating.objects.filter(pk=row.pk).update(mu=row.mu + 1)

    report = ratings_recompute(write=False)
    assert len(report.differences) == 1
    assert report.differences[0].startswith("palace ")

    assert ratings_recompute().differences == report.differences
    assert snapshot() == before
    assert ratings_recompute().differences == []
