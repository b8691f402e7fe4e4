"""Leaving is losing (README "Ratings"): a seat that resigns, or that its timeouts hand to the bot, is rated below
every seat that stayed, whatever the bot then did for it; the others keep the rules' order."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Game
from games.selectors.read_models import game_detail, game_get
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.lifecycle import game_resign
from games.services.turns import timeout_apply
from players.services import player_register
from ratings.models import RatingChange
from tests.games.selectors.test_redaction import random_body
from tests.ratings.play import play_out


def three_at_a_rated_table(kind: str, **options) -> tuple[Game, list]:
    users = [player_register(name=f"{kind[:5]}{n}")[0] for n in range(3)]
    game = game_create(creator=users[0], kind=kind, seats=3, options=options, rated=True)
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)
    return Game.objects.get(pk=game.pk), users


def places(game: Game) -> dict[int, int]:
    return dict(RatingChange.objects.filter(rated_game__game=game).values_list("seat", "place"))


@pytest.mark.django_db
def test_a_seat_that_resigns_first_is_rated_last() -> None:
    game, users = three_at_a_rated_table("palace-poker", max_hands=2)
    game_resign(user=users[1], game_id=game.pk)
    play_out(random.Random("resign"), game, resign_rate=0)
    assert places(game)[1] == 3
    assert sorted(places(game).values())[0] == 1


@pytest.mark.django_db
def test_a_seat_its_timeouts_hand_to_the_bot_is_rated_last_whatever_the_bot_did() -> None:
    rng = random.Random("absent")
    game, users = three_at_a_rated_table("palace", max_timeouts=1, on_absent="bot", max_turns=60)
    for seat in (1, 2):  # the setup's choice is simultaneous: seats 1 and 2 choose, seat 0 does not
        game = Game.objects.get(pk=game.pk)
        legal = game_detail(game_get(game.pk), users[seat])["legal_actions"]
        action_submit(user=users[seat], game_id=game.pk, expected_version=game.version, **random_body(legal[0], rng))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=game.pk)
    assert Event.objects.filter(game=game, kind="seat_to_bot").values_list("payload__seat", flat=True).get() == 0
    play_out(rng, Game.objects.get(pk=game.pk), resign_rate=0)
    assert places(game)[0] == 3
    assert sorted(places(game).values()) == [1, 2, 3]
