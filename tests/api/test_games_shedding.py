"""Palace, the shedding game, over the same endpoints: options validated at creation, the simultaneous
setup, play to the end by legal actions only, and no face-down card in any answer before it is played."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Game
from games.services import game_create, seat_take
from games.services.turns import timeout_apply

pytestmark = pytest.mark.django_db


@pytest.fixture
def clients(make_player, auth_client):
    return [auth_client(make_player(name)[1]) for name in ("ann", "ben")]


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"two_effect": "explode"}, "invalid_option"),
        ({"colour": "red"}, "unknown_option"),
        ({"decks": 3}, "invalid_option"),
    ],
)
def test_bad_shedding_options_get_400(clients, options, code):
    response = clients[0].post("/api/v1/games/", {"kind": "palace", "seats": 2, "options": options}, format="json")
    assert response.status_code == 400 and response.json()["code"] == code


def random_body(view: dict, rng: random.Random) -> dict:
    """A random legal action from ``view``'s ``legal_actions``, as a request body at the view's version."""
    choice = rng.choice(view["legal_actions"])
    body = {"type": choice["type"], "expected_version": view["version"]}
    if choice.get("max_cards"):
        body["cards"] = choice["cards"][: rng.randint(choice["min_cards"], choice["max_cards"])]
    if choice["type"] == "choose_face_up":
        body["cards"] = rng.sample(choice["cards"], 3)
    return body


def test_a_shedding_game_is_played_to_the_end_over_http(clients, throttle_rates):
    throttle_rates(user=None)  # a whole game is more requests a minute than the per-player throttle allows
    rng = random.Random(5)  # noqa: S311 - the test's choice of moves
    game = clients[0].post("/api/v1/games/", {"kind": "palace", "seats": 2, "options": {}}, format="json").json()
    url = f"/api/v1/games/{game['id']}/"
    for seat, client in enumerate(clients):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201
    for _ in range(3000):
        views = [client.get(url).json() for client in clients]
        if views[0]["status"] == "finished":
            break
        for view in views:
            for other in view["state"]["seats"]:
                assert {spot["card"] for spot in other["face_down"]} <= {None}, "no face-down card is seen before play"
        seat = next(seat for seat in range(2) if views[seat]["legal_actions"])
        response = clients[seat].post(url + "actions/", random_body(views[seat], rng), format="json")
        assert response.status_code in (201, 409), response.content
    else:
        raise AssertionError("the game did not end")
    final = clients[1].get(url).json()
    assert final["state"]["result"]["order"], "the result lists the finishing order"


def test_a_setup_timeout_applies_to_every_human_still_choosing(make_player):
    ann, _ = make_player("ann")
    ben, _ = make_player("ben")
    game = game_create(creator=ann, kind="palace", seats=2, options={"turn_timeout": 60})
    seat_take(game_id=game.pk, player=ann)
    seat_take(game_id=game.pk, player=ben)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=game.pk) is True
    chosen = Event.objects.filter(game=game, kind="choose_face_up").order_by("seq")
    assert [(event.actor, event.payload["action"].get("timeout")) for event in chosen] == [(0, True), (1, True)]


def _play_comparing_answers_with_views(clients, staff, rng) -> int:
    """Play a three-seat game with ``out_of_turn_four`` to the end by random legal actions, checking every
    action's answer against the caller's GET; return how many answers left out a seat that staff see."""
    options = {"out_of_turn_four": True}
    game = clients[0].post("/api/v1/games/", {"kind": "palace", "seats": 3, "options": options}, format="json").json()
    url = f"/api/v1/games/{game['id']}/"
    for seat, client in enumerate(clients):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201
    hidden_windows = 0
    for _ in range(3000):
        views = [client.get(url).json() for client in clients]
        if views[0]["status"] == "finished":
            return hidden_windows
        seat = rng.choice([seat for seat in range(3) if views[seat]["legal_actions"]])
        response = clients[seat].post(url + "actions/", random_body(views[seat], rng), format="json")
        assert response.status_code == 201, response.content
        assert response.json()["to_act"] == clients[seat].get(url).json()["to_act"]
        hidden_windows += len(staff.get(url).json()["to_act"]) > len(response.json()["to_act"])
    raise AssertionError("the game did not end")


def test_an_action_answers_to_act_as_the_callers_view_shows_it(make_player, auth_client, make_staff, throttle_rates):
    """palace-shedding-b.txt "Other Misc. Rules": who could complete a four out of turn would tell what he
    holds, so the action's answer lists of the out-of-turn seats only the caller, as his GET does. The
    shuffles are random: games are played until one has given some seat such a window (or twenty have)."""
    throttle_rates(user=None)
    rng = random.Random(3)  # noqa: S311 - the test's choice of moves
    clients = [auth_client(make_player(name)[1]) for name in ("ann", "ben", "cat")]
    staff = auth_client(make_staff()[1])
    games = 0
    while games < 20:
        games += 1
        if _play_comparing_answers_with_views(clients, staff, rng):
            break
    else:
        raise AssertionError("no game gave a seat an out-of-turn play the caller may not know of")
