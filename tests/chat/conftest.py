"""Fixtures of the table chat's tests: a two-seat Palace Poker table being played, its players and a spectator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from games.models import Game
from games.services import game_create, seat_take


@dataclass
class ChatTable:
    game: Game
    alice: Any
    bob: Any
    carol: Any  # a spectator
    tokens: dict[str, str]

    def refresh(self) -> Game:
        self.game.refresh_from_db()
        return self.game


@pytest.fixture
def table(make_player, isolated_cache) -> ChatTable:
    """An active two-seat game: alice and bob seated, carol watching."""
    (alice, a), (bob, b), (carol, c) = make_player("alice"), make_player("bob"), make_player("carol")
    game = game_create(creator=alice, kind="palace-poker", seats=2)
    seat_take(game_id=game.pk, player=alice)
    seat_take(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == "active"
    return ChatTable(game=game, alice=alice, bob=bob, carol=carol, tokens={"alice": a, "bob": b, "carol": c})


@pytest.fixture
def client_of(table, auth_client):
    def make(name: str) -> Any:
        return auth_client(table.tokens[name])

    return make
