"""A finished game for the review tests: two people play it to the end through the services, each decision the
``basic`` bot's choice for that seat, from its view."""

from __future__ import annotations

import random
from typing import Any

from games.engine.bots import get_bot
from games.models import Game, GameStatus
from games.selectors.state import engine_of, game_state
from games.services import action_submit, game_create, seat_take

SHORT = {"palace-poker": {"max_hands": 1, "first_dealer": 1}, "palace": {"max_turns": 60}}
"""Options that keep a game short: one hand of Palace Poker; Palace ends by its stalemate rule at the latest."""


def play_to_the_end(game: Game, users: list[Any], *, seed: int = 7, limit: int = 2_000) -> Game:
    """Play ``game`` (started, every seat a person of ``users``) to its end; returns it, finished."""
    rng = random.Random(seed)
    basic = get_bot(game.kind, "basic")
    for _ in range(limit):
        game = Game.objects.get(pk=game.pk)
        if game.status == GameStatus.FINISHED:
            return game
        engine, state = engine_of(game), game_state(game)
        seat = engine.to_act(state)[0]
        body = basic.choose(engine.view(state, seat), rng)
        action_submit(user=users[seat], game_id=game.pk, **body)
    raise AssertionError(f"the game did not end in {limit} decisions")


def started_game(make_player, kind: str = "palace-poker", names: tuple[str, str] = ("alice", "bob")):
    """A heads-up game of ``kind`` with short options, both seats taken by people: ``(game, [user0, user1],
    [token0, token1])``."""
    players = [make_player(name) for name in names]
    users = [user for user, _ in players]
    game = game_create(creator=users[0], kind=kind, seats=2, options=SHORT[kind])
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)
    return Game.objects.get(pk=game.pk), users, [token for _, token in players]


def finished_game(make_player, kind: str = "palace-poker", names: tuple[str, str] = ("alice", "bob")):
    """``started_game`` played to its end: ``(game, users, tokens)``."""
    game, users, tokens = started_game(make_player, kind, names)
    return play_to_the_end(game, users), users, tokens
