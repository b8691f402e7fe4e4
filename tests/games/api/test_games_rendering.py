"""The shared output serializers render what a fresh serializer renders, key order included."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import AnonymousUser

from games.api.serializers import ActionResultOutput, EventPageOutput, GameDetailOutput, render
from games.models import Game
from games.selectors.read_models import game_detail, game_events, game_get
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db


def same(serializer_class, instance) -> None:
    fresh = json.dumps(serializer_class(instance).data, default=str)
    assert json.dumps(render(serializer_class, instance), default=str) == fresh
    assert json.dumps(render(serializer_class, instance), default=str) == fresh, "a second use renders alike"


def test_views_logs_and_action_results_render_as_a_fresh_serializer_does(make_player, make_staff, auth_client):
    users, clients = [], []
    for name in ("alice", "bob", "carol"):
        user, token = make_player(name)
        users.append(user)
        clients.append(auth_client(token))
    staff, _ = make_staff()
    waiting = clients[0].post("/api/v1/games/", {"kind": "palace-poker", "seats": 2}, format="json").json()
    same(GameDetailOutput, game_detail(game_get(waiting["id"]), users[0]))
    table = create_table(clients[0], clients[:2], options={"first_dealer": 1, "max_hands": 3, "turn_timeout": 600})
    rng = random.Random(7)
    for _ in range(60):
        game = game_get(table.game_id)
        for viewer in (*users, staff, AnonymousUser()):
            detail = game_detail(game, viewer)
            same(GameDetailOutput, detail)
            page = game_events(game, viewer, after=max(0, game.version - 3), limit=100)
            same(EventPageOutput, page)
            result = {"version": game.version, "events": page["results"], "to_act": detail["to_act"]}
            same(ActionResultOutput, {**result, "legal_actions": detail["legal_actions"]})
        if game.status != "active":
            break
        seat = game_detail(game, users[0])["to_act"][0]
        legal = game_detail(game, users[seat])["legal_actions"]
        choice = rng.choice(legal)
        body = {"type": choice["type"]}
        if "targets" in choice:
            body["target"] = choice["targets"][0]["seat"]
        if "cards" in choice:
            body["cards"] = choice["cards"][: choice.get("min_cards", 0)]
        table.act(seat, body.pop("type"), **body)
    assert Game.objects.get(pk=table.game_id).version > 10
