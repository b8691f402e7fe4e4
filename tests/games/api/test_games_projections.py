"""Seat.to_act, the projection GET /api/v1/me/turns/ reads, follows the log after every append, whether the
seats' rows were written or left as they were (games/services/log.py, ``_write``)."""

from __future__ import annotations

import random

import pytest

from games.models import Game, Seat
from games.selectors.state import engine_of, game_state
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db


def replayed_to_act(game_id: int) -> set[int]:
    game = Game.objects.get(pk=game_id)
    return set(engine_of(game).to_act(game_state(game, use_memory=False, use_snapshots=False)))


def projected_to_act(game_id: int) -> set[int]:
    return set(Seat.objects.filter(game_id=game_id, to_act=True).values_list("number", flat=True))


@pytest.mark.parametrize("seed", [1, 2])
def test_the_seats_to_act_match_a_replay_after_every_action(make_player, auth_client, seed):
    users_tokens = [make_player(name) for name in ("alice", "bob", "carol")]
    clients = [auth_client(token) for _, token in users_tokens]
    table = create_table(clients[0], clients, options={"first_dealer": 0, "max_hands": 4, "starting_stack": 60})
    rng = random.Random(seed)
    same_seat_again = 0
    for _ in range(300):
        assert projected_to_act(table.game_id) == replayed_to_act(table.game_id)
        view = table.view(0)
        if view["status"] == "finished":
            break
        (seat,) = view["to_act"]
        choice = rng.choice(table.view(seat)["legal_actions"])
        body = {}
        if "targets" in choice:
            body["target"] = choice["targets"][0]["seat"]
        if "cards" in choice:
            body["cards"] = choice["cards"][: choice.get("min_cards", 0)]
        answer = table.act(seat, choice["type"], **body).json()
        same_seat_again += answer["to_act"] == [seat]
        turns = {
            user.pk: [turn["game"] for turn in auth_client(token).get("/api/v1/me/turns/").json()]
            for user, token in users_tokens
        }
        for number, (user, _) in enumerate(users_tokens):
            assert (table.game_id in turns[user.pk]) == (number in answer["to_act"])
    assert same_seat_again, "some action left the decision with the same seat"
