"""Palace, the shedding game, over the same endpoints: options validated at creation, the simultaneous
setup, play to the end by legal actions only, and no face-down card in any answer before it is played."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.cards import FULL_DECK
from games.models import Event, Game
from games.services import game_create, seat_take
from games.services.turns import timeout_apply
from tests.games.api.helpers import assert_error

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
    rng = random.Random(5)
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


# Two decks: staff's prearranged packs ------------------------------------------------------------

TWO_DECKS = sorted(FULL_DECK_CODES * 2)


def arranged_pack(head: list[str], pack: list[str]) -> list[str]:
    """An order of ``pack`` (codes, a multiset) whose first cards are ``head``, the rest sorted."""
    rest = Counter(pack)
    rest.subtract(Counter(head))
    assert all(count >= 0 for count in rest.values()), "the head names a card the pack does not hold"
    return head + sorted(rest.elements())


def dealt_pack(dealer: int, face_down: list[str], face_up: list[str], hands: list[str], pack: list[str]) -> list[str]:
    """The pack that deals these rows (a seat's three codes each), one card at a time from the dealer's left
    (palace-shedding-a.txt ¶8.3-6): three rounds face down, three face up, three to the hand."""
    seats = len(hands)
    order = [(dealer + 1 + k) % seats for k in range(seats)]
    rows = [[cards.split() for cards in row] for row in (face_down, face_up, hands)]
    return arranged_pack([row[seat][k] for row in rows for k in range(3) for seat in order], pack)


@pytest.mark.parametrize(
    ("seats", "decks", "change", "card", "count", "expected"),
    [
        pytest.param(5, 2, lambda pack: ["9s", *pack[:-1]], "9s", 3, 2, id="a_third_9s_for_the_last_card"),
        pytest.param(5, 2, lambda pack: pack[1:], "2c", 1, 2, id="one_2c_left_out"),
        pytest.param(6, 2, lambda pack: [*pack, "Ah"], "Ah", 3, 2, id="a_third_Ah_added"),
        pytest.param(3, 1, lambda pack: ["As", *pack], "As", 2, 1, id="one_deck_As_twice"),
    ],
)
def test_a_staff_pack_must_hold_each_card_as_often_as_the_decks_do(
    make_staff, auth_client, seats, decks, change, card, count, expected
):
    """Palace with ``decks`` (palace-shedding-b.txt header "Players": more decks for more players): a
    prearranged pack holds each card ``decks`` times. Given a staff pack with one card another number of
    times, when staff create the game, then a 400 names the shuffle, the card and how often it is there."""
    staff = auth_client(make_staff()[1])
    pack = sorted(FULL_DECK_CODES * decks)
    body = {"kind": "palace", "seats": seats, "options": {"decks": decks}, "prearranged_shuffles": [change(pack)]}
    response = staff.post("/api/v1/games/", body, format="json")
    error = assert_error(response, 400, "invalid_prearranged_shuffles")
    assert (error["shuffle"], error["card"], error["count"], error["expected"]) == (0, card, count, expected)
    assert f"shuffle 0 holds {card} " in error["detail"]
    assert Game.objects.count() == 0


def test_a_five_player_two_deck_game_set_up_by_staff_is_played_to_its_end(
    make_player, make_staff, auth_client, throttle_rates
):
    """palace-shedding-b.txt header "Players" (more decks for five and more) with the draw for the first
    deal (a¶6.1-2) and the deal (a¶8.3-6). Given staff's two 104-card packs, each card twice: in the draw
    both copies of Kc tie seats 0 and 1, who draw again (9d beats 3s: seat 0 deals); the deal gives seat 1
    both copies of 9s and seat 3 both aces of hearts face up. When five players sit, then the match is
    dealt exactly so, and played to its end over HTTP by legal actions alone every card is still there
    twice."""
    throttle_rates(user=None)  # a whole game is more requests a minute than the per-player throttle allows
    staff = auth_client(make_staff()[1])
    clients = [auth_client(make_player(name)[1]) for name in ("ann", "ben", "cat", "dan", "eve")]
    draw = arranged_pack(["Kc", "Kc", "5d", "5h", "5s", "9d", "3s"], TWO_DECKS)
    face_down = ["3c 4c 5c", "3d 4d 6d", "3h 4h 5h", "6s 7s 8s", "6c 7c 8c"]
    face_up = ["Ac Kd Qc", "Ad Kd Qd", "Ks Qh Jh", "Ah Ah Kh", "As Jc Qs"]
    hands = ["7d 8d Td", "9s 9s 4s", "2h 2d 6h", "Jd Jd 2s", "7h 8h 9h"]
    deal = dealt_pack(0, face_down, face_up, hands, TWO_DECKS)
    options = {"decks": 2, "first_player": "left_of_dealer"}
    body = {"kind": "palace", "seats": 5, "options": options, "prearranged_shuffles": [draw, deal]}
    created = staff.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    url = f"/api/v1/games/{created.json()['id']}/"
    for seat, client in enumerate(clients):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201

    state = staff.get(url).json()["state"]
    assert state["dealer"] == 0 and state["phase"] == "setup"
    assert [sorted(row["hand"]) for row in state["seats"]] == [sorted(hand.split()) for hand in hands]
    assert [sorted(row["face_up"]) for row in state["seats"]] == [sorted(cards.split()) for cards in face_up]
    log = staff.get(url + "events/?limit=100").json()["results"]
    assert [entry["action"]["cards"] for entry in log if entry["kind"] == "shuffle"] == [draw, deal]

    rng = random.Random(16)
    for seat, client in enumerate(clients):
        keep = {"type": "choose_face_up", "cards": face_up[seat].split()}
        assert client.post(url + "actions/", keep, format="json").status_code == 201
    for _ in range(1000):
        watched = staff.get(url).json()
        if watched["status"] == "finished":
            break
        seat = rng.choice(watched["to_act"])
        view = clients[seat].get(url).json()
        entry = view["legal_actions"][0]
        action = {"type": entry["type"], "expected_version": view["version"]}
        if entry["type"] == "play":
            action["cards"] = entry["cards"]
        response = clients[seat].post(url + "actions/", action, format="json")
        assert response.status_code == 201, response.content
    else:
        raise AssertionError("the game did not end")

    final = staff.get(url).json()["state"]
    assert final["result"]["reason"] == "last_player" and sorted(final["result"]["order"]) == list(range(5))
    cards = Counter([*final["pile"], *final["burned"]])
    for row in final["seats"]:
        cards.update([*row["hand"], *row["face_up"], *(spot["card"] for spot in row["face_down"])])
    assert final["stock_size"] == 0 and cards == Counter(TWO_DECKS), "every card is there twice"


# The draw that ends a turn cut short ---------------------------------------------------------------


def test_a_turn_cut_short_by_an_out_of_turn_four_ends_with_the_draw_to_three(make_player, make_staff, auth_client):
    """palace-shedding-b.txt "Gameplay" (every turn ends drawing to three), "Card Value" (a two lets its
    player play again: ``two_effect: play_again``) and "Other Misc. Rules", third bullet
    (``out_of_turn_four``). Given a staff deck: ann (seat 0) opens with 2s and must play again, holding
    6s 7s; cat (seat 2) holds 2c 2d 2h. When cat completes the four twos out of turn, then the pile
    burns, cat plays again, and ann's turn has ended: she has drawn Js, the top of the stock, and holds
    three cards; the answer tells cat that ann drew one card, not which."""
    ann, ben, cat = (auth_client(make_player(name)[1]) for name in ("ann", "ben", "cat"))
    staff = auth_client(make_staff()[1])
    face_down = ["3c 4c 5c", "3d 4d 5d", "3h 4h 5h"]
    face_up = ["Ac Kc Qc", "Ad Kd Qd", "As Ks Qs"]
    hands = ["2s 6s 7s", "Kh Qh Jh", "2c 2d 2h"]
    dealt = dealt_pack(2, face_down, face_up, hands, sorted(FULL_DECK_CODES))
    deck = arranged_pack([*dealt[:27], "Js", "9c", "8d"], dealt)
    options = {
        "two_effect": "play_again",
        "out_of_turn_four": True,
        "first_dealer": 2,
        "first_player": "left_of_dealer",
    }
    body = {"kind": "palace", "seats": 3, "options": options, "prearranged_shuffles": [deck]}
    created = staff.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    url = f"/api/v1/games/{created.json()['id']}/"
    for seat, client in enumerate((ann, ben, cat)):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201
    for seat, client in enumerate((ann, ben, cat)):
        keep = {"type": "choose_face_up", "cards": face_up[seat].split()}
        assert client.post(url + "actions/", keep, format="json").status_code == 201
    assert ann.post(url + "actions/", {"type": "play", "cards": ["2s"]}, format="json").status_code == 201
    assert staff.get(url).json()["to_act"] == [0, 2], "ann plays again; cat may complete the four"
    assert sorted(ann.get(url).json()["state"]["seats"][0]["hand"]) == ["6s", "7s"]

    four = cat.post(url + "actions/", {"type": "play", "cards": ["2c", "2d", "2h"]}, format="json")

    assert four.status_code == 201, four.content
    happened = [event for entry in four.json()["events"] for event in entry["events"]]
    assert [event["type"] for event in happened[:3]] == ["play", "burn", "draw"]
    assert happened[2]["seat"] == 0 and happened[2]["cards"]["cards"] == [None]
    state = ann.get(url).json()["state"]
    assert state["turn"] == 2 and state["replay"] is True
    assert sorted(state["seats"][0]["hand"]) == ["6s", "7s", "Js"], "ann drew back up to three"
    assert cat.get(url).json()["state"]["seats"][0]["hand_size"] == 3
