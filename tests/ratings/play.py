"""Random rated games played to their end through the services, for the ratings tests."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games.engine.errors import EngineError
from games.models import Game
from games.selectors.read_models import game_detail, game_get
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.lifecycle import game_resign
from games.services.turns import bot_move, timeout_apply
from tests.games.selectors.test_redaction import poker_options, random_body, shedding_options

MAX_DECISIONS = 3000
KINDS = ("palace-poker", "palace")


def rated_game(rng: random.Random, users: list, *, kind: str | None = None) -> Game:
    """A rated game of 2 to 5 seats, every seat taken (a player drawn from ``users``, or now and then a bot,
    the same level twice at times); options at random, a quick end."""
    kind = kind or rng.choice(KINDS)
    seats = rng.randint(2, 5)
    options = poker_options(rng) if kind == "palace-poker" else shedding_options(rng, seats)
    # Short matches (the suite plays 200 of them): one hand of Palace Poker; a stalemate after 24 turns ends a
    # Palace game with the seats still in ranked all the same.
    if kind == "palace-poker":
        options["max_hands"] = 1
    else:
        options["max_turns"] = 24
    absent = {"max_timeouts": rng.choice([1, 2, None]), "on_absent": rng.choice(["resign", "bot"])}
    people = rng.sample(users, seats)
    game = game_create(creator=people[0], kind=kind, seats=seats, options={**options, **absent}, rated=True)
    for seat in range(seats):
        if seat and rng.random() < 0.3:
            seat_take(game_id=game.pk, player=people[0], seat=seat, bot=rng.choice(["random", "random", "basic"]))
        else:
            seat_take(game_id=game.pk, player=people[seat], seat=seat)
    return Game.objects.get(pk=game.pk)


def play_out(rng: random.Random, game: Game, *, resign_rate: float = 0.01) -> Game:
    """Play ``game`` to its end: random legal decisions, bots' moves, now and then a timeout or a resignation."""
    users = {seat.number: seat.player for seat in game.seats.all() if seat.player_id}
    for _ in range(MAX_DECISIONS):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            return game
        humans = list(game.seats.filter(to_act=True, bot="").values_list("number", flat=True))
        if humans and rng.random() < resign_rate:
            try:
                game_resign(user=users[rng.choice(sorted(users))], game_id=game.pk)
            except EngineError as error:
                assert error.code == "not_in_match"
            continue
        if not humans:
            assert bot_move(game_id=game.pk, version=game.version), "a bot owed a decision and did not act"
            continue
        if rng.random() < 0.03:
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            if timeout_apply(game_id=game.pk):
                continue
        seat = rng.choice(humans)
        legal = game_detail(game_get(game.pk), users[seat])["legal_actions"]
        action_submit(
            user=users[seat], game_id=game.pk, expected_version=game.version, **random_body(rng.choice(legal), rng)
        )
    raise AssertionError(f"game {game.pk} did not end within {MAX_DECISIONS} decisions")
