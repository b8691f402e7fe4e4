"""The last finished hand as a viewer may see it (games/selectors/hand_end.py): read back from the game's version
through the game's own history reader, found however far back the hand started, "fresh" until the viewer decides
again; the match's end from its last entry."""

from __future__ import annotations

import pytest

from games.selectors import hand_end
from games.selectors.read_models import game_detail, game_get
from games.services import game_create, seat_take
from games.services.lifecycle import game_resign
from games.services.turns import bot_move
from players.services import player_register

pytestmark = pytest.mark.django_db
MAX_MOVES = 400


def _bots_game(creator, *, hands: int = 3):
    game = game_create(creator=creator, kind="palace-poker", seats=2, options={"max_hands": hands})
    seat_take(game_id=game.pk, player=creator, bot="basic")
    seat_take(game_id=game.pk, player=creator, bot="basic")
    return game.pk


def _until_hand(game_id: int, creator, number: int) -> None:
    for _ in range(MAX_MOVES):
        if game_detail(game_get(game_id), creator)["state"]["hand"] == number:
            return
        bot_move(game_id=game_id, version=game_get(game_id).version)
    raise AssertionError(f"hand {number} never started")


def test_no_hand_is_over_before_the_first_ends_then_the_last_one_is_read_back_past_the_window(monkeypatch):
    """Given a window of 2 entries (a hand is longer), when hand 1 is over, then the window doubles until hand 1's
    start is read, and the hand is there, whole, fresh for a spectator until the next decision."""
    alice = player_register(name="alice")[0]
    game_id = _bots_game(alice)
    assert hand_end.last_finished_hand(game_get(game_id), alice) is None
    monkeypatch.setattr(hand_end, "WINDOW", 2)
    _until_hand(game_id, alice, 2)
    found = hand_end.last_finished_hand(game_get(game_id), alice)
    assert found is not None and found.fresh
    assert found.hand.number == 1 and found.hand.finished and found.hand.winners
    bot_move(game_id=game_id, version=game_get(game_id).version)
    later = hand_end.last_finished_hand(game_get(game_id), alice)
    assert later is not None and (not later.fresh or later.hand.number == 2)


def test_a_hand_longer_than_the_most_read_back_is_not_shown(monkeypatch):
    alice = player_register(name="alice")[0]
    game_id = _bots_game(alice)
    monkeypatch.setattr(hand_end, "WINDOW", 1)
    monkeypatch.setattr(hand_end, "WINDOW_MAX", 2)
    _until_hand(game_id, alice, 2)
    assert hand_end.last_finished_hand(game_get(game_id), alice) is None


def test_the_match_end_is_read_from_the_last_entry_of_finished_games_only():
    alice, bob = player_register(name="alice")[0], player_register(name="bob")[0]
    game = game_create(creator=alice, kind="palace", seats=2, options={})
    seat_take(game_id=game.pk, player=alice)
    seat_take(game_id=game.pk, player=bob)
    running = _bots_game(alice)
    assert hand_end.match_ends([game_get(game.pk), game_get(running)]) == {}
    game_resign(user=bob, game_id=game.pk)
    ends = hand_end.match_ends([game_get(game.pk), game_get(running)])
    assert list(ends) == [game.pk] and ends[game.pk]["order"] == [0, 1]
