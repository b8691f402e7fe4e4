"""Palace, the shedding game, over the same endpoints: options validated at creation, the simultaneous
setup, play to the end by legal actions only, and no face-down card in any answer before it is played."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.cards import FULL_DECK
from games.models import Event, Game
from games.services import game_create, seat_take
from games.services.turns import timeout_apply

pytestmark = pytest.mark.django_db

FULL_DECK_CODES = [card.code for card in FULL_DECK]


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


def test_an_action_answers_to_act_as_the_callers_view_shows_it(make_player, auth_client, make_staff):
    """palace-shedding-b.txt "Other Misc. Rules": who could complete a four out of turn would tell what he
    holds, so the action's answer lists of the out-of-turn seats only the caller, as his GET does. A staff
    deck: ann (seat 0) opens with 7c 7d; ben (seat 1) is on turn next; cat (seat 2) holds 7h 7s."""
    ann, ben, cat = (auth_client(make_player(name)[1]) for name in ("ann", "ben", "cat"))
    staff = auth_client(make_staff()[1])
    face_down, face_up = ["2c 3c 4c", "2d 3d 4d", "2h 3h 4h"], ["Ac Kc Qc", "Ad Kd Qd", "Ah Kh Qh"]
    hands = ["7c 7d 5s", "6c 6d 5h", "7h 7s 9s"]
    dealt = [row[seat].split()[k] for row in (face_down, face_up, hands) for k in range(3) for seat in range(3)]
    deck = dealt + sorted(set(FULL_DECK_CODES) - set(dealt))
    options = {"out_of_turn_four": True, "first_dealer": 2, "first_player": "left_of_dealer"}
    body = {"kind": "palace", "seats": 3, "options": options, "prearranged_shuffles": [deck]}
    created = staff.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    url = f"/api/v1/games/{created.json()['id']}/"
    for seat, client in enumerate((ann, ben, cat)):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201
    for seat, client in enumerate((ann, ben, cat)):
        keep = {"type": "choose_face_up", "cards": face_up[seat].split()}
        assert client.post(url + "actions/", keep, format="json").status_code == 201

    answer = ann.post(url + "actions/", {"type": "play", "cards": ["7c", "7d"]}, format="json")
    assert answer.status_code == 201, answer.content
    assert staff.get(url).json()["to_act"] == [1, 2], "ben is on turn, cat may complete the four"
    assert answer.json()["to_act"] == ann.get(url).json()["to_act"] == [1]
    assert ben.get(url).json()["to_act"] == [1]
    assert cat.get(url).json()["to_act"] == [1, 2]
    version = cat.get(url).json()["version"]
    four = cat.post(url + "actions/", {"type": "play", "cards": ["7h", "7s"], "expected_version": version}, "json")
    assert four.status_code == 201, four.content
    late = ben.post(url + "actions/", {"type": "pick_up", "expected_version": version}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "version_conflict", "the first valid submission won"
