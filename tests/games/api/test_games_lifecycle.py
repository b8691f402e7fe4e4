"""A game's lifecycle over HTTP, for both games (issue 11, section 3): resign a running match, leave a seat
before the start, cancel a game before the start, absent players after ``max_timeouts`` (resigned, or
handed to the basic bot), and ``me/games/``. Every refusal is a 4xx with its ``code`` and writes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Game
from games.services.turns import bot_move, timeout_apply
from tests.games.api.helpers import assert_error

pytestmark = pytest.mark.django_db

KINDS = ["palace-poker", "palace"]
SMALL_POKER = {"small_bet": 1, "big_bet": 2, "ante": 1, "starting_stack": 20, "max_hands": 3}


@pytest.fixture
def clients(make_player, auth_client, throttle_rates):
    throttle_rates(user=None)  # whole games are more requests a minute than the per-player throttle allows
    return [auth_client(make_player(name)[1]) for name in ("ann", "ben", "cat", "dan")]


def create(client, kind: str, seats: int, **options) -> str:
    engine = SMALL_POKER if kind == "palace-poker" else {}
    response = client.post("/api/v1/games/", {"kind": kind, "seats": seats, "options": {**engine, **options}}, "json")
    assert response.status_code == 201, response.content
    return f"/api/v1/games/{response.json()['id']}/"


def seat_all(url: str, players) -> None:
    for seat, client in enumerate(players):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201


def log(url: str, client) -> list[dict]:
    return client.get(url + "events/?limit=500").json()["results"]


def body_for(view: dict, rng: random.Random) -> dict:
    """A random legal decision from a view, at its version."""
    choice = rng.choice(view["legal_actions"])
    body = {"type": choice["type"], "expected_version": view["version"]}
    if choice["type"] == "choose_face_up":
        body["cards"] = rng.sample(choice["cards"], 3)
    elif choice.get("max_cards"):
        body["cards"] = choice["cards"][: rng.randint(choice["min_cards"], choice["max_cards"])]
    if "targets" in choice:
        body["target"] = rng.choice(choice["targets"])["seat"]
    return body


# Resign --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_resigning_players_leave_the_match_and_the_last_one_left_ends_it(clients, kind):
    """The README's decisions list, "Resigning" (palace-poker.txt "Fold"; the shedding game: out and ranked
    last). Given three players in a running match, when a seat not on turn resigns, then the log has its
    ``resign`` and the seat never has a decision again; when a second resigns, then one player is left and
    the match is over, the resigned seats last in the shedding game's ranking."""
    url = create(clients[0], kind, 3)
    seat_all(url, clients[:3])
    view = clients[0].get(url).json()
    # In the shedding game's simultaneous setup every seat is to act: seat 2 resigns during it.
    out_of_turn = next((seat for seat in range(3) if seat not in view["to_act"]), 2)
    answer = clients[out_of_turn].post(url + "resign/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["events"][0]["kind"] == "resign" and answer.json()["legal_actions"] == []
    assert clients[out_of_turn].get(url).json()["legal_actions"] == []
    again = clients[out_of_turn].post(url + "resign/")
    assert_error(again, 400, "not_in_match")
    second = next(seat for seat in range(3) if seat != out_of_turn)
    assert clients[second].post(url + "resign/").status_code == 200
    final = clients[0].get(url).json()
    assert final["status"] == "finished"
    last = 3 - out_of_turn - second
    if kind == "palace":
        assert final["state"]["result"]["order"] == [last, second, out_of_turn]
        assert final["state"]["seats"][out_of_turn]["resigned"] is True
    else:
        assert final["state"]["winners"] == [last]
        assert [row["resigned"] for row in final["state"]["seats"]] == [s != last for s in range(3)]
    resigns = [entry for entry in log(url, clients[0]) if entry["kind"] == "resign"]
    assert [entry["actor"] for entry in resigns] == [out_of_turn, second]


@pytest.mark.parametrize("kind", KINDS)
def test_resign_refusals_have_codes_and_write_nothing(clients, make_player, auth_client, kind):
    url = create(clients[0], kind, 2)
    assert_error(clients[0].post(url + "resign/"), 403, "not_seated")
    seat_all(url, clients[:1])
    assert_error(clients[0].post(url + "resign/"), 409, "game_not_started")
    seat_all_from = clients[1].post(url + "seats/", {"seat": 1}, format="json")
    assert seat_all_from.status_code == 201
    version = clients[0].get(url).json()["version"]
    assert_error(clients[2].post(url + "resign/"), 403, "not_seated")
    assert_error(clients[2].post("/api/v1/games/999999/resign/"), 404, "game_not_found")
    assert clients[0].get(url).json()["version"] == version
    assert clients[0].post(url + "resign/").status_code == 200
    assert_error(clients[1].post(url + "resign/"), 409, "game_finished")


# Leave and cancel ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_player_leaves_a_game_that_has_not_started_and_his_seat_is_free_again(clients, kind):
    url = create(clients[0], kind, 3)
    seat_all(url, clients[:2])
    left = clients[1].delete(url + "seats/mine/")
    assert left.status_code == 200, left.content
    game = clients[0].get(url).json()
    assert game["seats"][1]["player"] is None and game["version"] == left.json()["version"] == 3
    entry = log(url, clients[2])[-1]
    assert (entry["kind"], entry["actor"], entry["seat"], entry["player"]["name"]) == ("seat_left", 1, 1, "ben")
    assert_error(clients[1].delete(url + "seats/mine/"), 403, "not_seated")
    assert clients[2].post(url + "seats/", {"seat": 1}, format="json").status_code == 201
    assert clients[1].post(url + "seats/", {"seat": 2}, format="json").status_code == 201, "he may come back"
    assert clients[0].get(url).json()["status"] == "active"
    assert_error(clients[1].delete(url + "seats/mine/"), 409, "game_started")


@pytest.mark.parametrize("kind", KINDS)
def test_the_creator_cancels_a_game_that_has_not_started(clients, kind):
    url = create(clients[0], kind, 3)
    seat_all(url, clients[1:3])
    assert_error(clients[1].post(url + "cancel/"), 403, "creator_only")
    cancelled = clients[0].post(url + "cancel/")
    assert cancelled.status_code == 200, cancelled.content
    assert cancelled.json() == {"id": int(url.split("/")[-2]), "status": "cancelled", "version": 3}
    game = clients[1].get(url).json()
    assert game["status"] == "cancelled" and game["state"] is None and game["to_act"] == []
    entry = log(url, clients[1])[-1]
    assert (entry["kind"], entry["actor"]) == ("game_cancelled", None)
    assert Event.objects.get(kind="game_cancelled").payload["by"]["name"] == entry["by"]["name"] == "ann"
    assert_error(clients[3].post(url + "seats/", {}, format="json"), 409, "game_cancelled")
    assert_error(clients[0].post(url + "cancel/"), 409, "game_cancelled")
    assert_error(clients[1].delete(url + "seats/mine/"), 409, "game_cancelled")
    assert_error(clients[1].post(url + "resign/"), 409, "game_cancelled")
    assert_error(clients[1].post(url + "actions/", {"type": "stay"}, format="json"), 409, "game_cancelled")
    assert clients[1].get(url).json()["version"] == 3, "no refusal wrote anything"
    listed = clients[0].get("/api/v1/games/?status=cancelled").json()["results"]
    assert [game["status"] for game in listed] == ["cancelled"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_started_game_cannot_be_cancelled(clients, kind):
    url = create(clients[0], kind, 2)
    seat_all(url, clients[:2])
    assert_error(clients[0].post(url + "cancel/"), 409, "game_started")
    assert_error(clients[0].post("/api/v1/games/999999/cancel/"), 404, "game_not_found")


# Absent players ------------------------------------------------------------------------------------


def expire(url: str) -> bool:
    game_id = int(url.split("/")[-2])
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    return timeout_apply(game_id=game_id)


@pytest.mark.parametrize("kind", KINDS)
def test_max_timeouts_in_a_row_resign_the_absent_seat(clients, kind):
    """Option ``max_timeouts`` (``on_absent: "resign"``, the default): given ann absent and ben playing, when
    ann's decisions time out twice in a row with ``max_timeouts: 2``, then the first applies her default
    action and the second resigns her (a ``resign`` marked ``timeout``), which ends a two-player match."""
    rng = random.Random(3)
    url = create(clients[0], kind, 2, turn_timeout=60, max_timeouts=2)
    seat_all(url, clients[:2])
    if kind == "palace":  # ben chooses; ann's setup choice is her first timeout
        view = clients[1].get(url).json()
        assert clients[1].post(url + "actions/", body_for(view, rng), format="json").status_code == 201
    for _ in range(200):
        view = clients[1].get(url).json()
        if view["status"] == "finished":
            break
        if view["to_act"][:1] == [0]:
            assert expire(url)
        else:
            response = clients[1].post(url + "actions/", body_for(view, rng), format="json")
            assert response.status_code == 201, response.content
    ann = [entry for entry in log(url, clients[0]) if entry["actor"] == 0 and "action" in entry]
    assert [(entry["kind"], entry["action"].get("timeout")) for entry in ann[-2:]][1] == ("resign", True)
    assert ann[-2]["action"].get("timeout") is True and ann[-2]["kind"] != "resign"
    assert clients[0].get(url).json()["status"] == "finished"
    mine = clients[0].get("/api/v1/me/games/").json()["results"][0]
    assert mine["resigned"] is True and mine["my_turn"] is False


@pytest.mark.parametrize("kind", KINDS)
def test_max_timeouts_with_on_absent_bot_hand_the_seat_to_the_basic_bot(clients, kind):
    """Option ``on_absent: "bot"``: given ``max_timeouts: 1``, when ann's first decision times out, then a
    ``seat_to_bot`` entry hands her seat to the basic bot, which makes that decision and every later one of
    hers (``bot_move``); her own decisions are refused, and the match is played to its end."""
    rng = random.Random(4)
    url = create(clients[0], kind, 2, turn_timeout=60, max_timeouts=1, on_absent="bot")
    seat_all(url, clients[:2])
    assert clients[0].get(url).json()["max_timeouts"] == 1
    if kind == "palace":
        view = clients[1].get(url).json()
        assert clients[1].post(url + "actions/", body_for(view, rng), format="json").status_code == 201
    game_id = int(url.split("/")[-2])
    handed = False
    for _ in range(3000):
        view = clients[1].get(url).json()
        if view["status"] == "finished":
            break
        if view["to_act"][:1] == [0]:
            if not handed:
                assert expire(url)
                handed = True
                entries = log(url, clients[1])
                hand_over = next(entry for entry in entries if entry["kind"] == "seat_to_bot")
                assert hand_over["actor"] == 0
                stored = Event.objects.get(kind="seat_to_bot").payload
                assert (stored["seat"], stored["bot"], stored["timeouts"]) == (0, "basic", 1)
                assert (hand_over["seat"], hand_over["bot"], hand_over["timeouts"]) == (0, "basic", 1)
                assert entries[hand_over["seq"]]["actor"] == 0, "the bot made the decision that timed out"
                assert clients[0].get(url).json()["seats"][0]["bot"] == "basic"
                refused = clients[0].post(url + "actions/", {"type": "stay"}, format="json")
                assert_error(refused, 403, "seat_played_by_bot")
            else:
                assert bot_move(game_id=game_id, version=view["version"])
        else:
            response = clients[1].post(url + "actions/", body_for(view, rng), format="json")
            assert response.status_code == 201, response.content
    else:
        raise AssertionError("the match did not end")
    assert handed
    assert not any(entry["kind"] == "resign" for entry in log(url, clients[0]))
    mine = clients[0].get("/api/v1/me/games/").json()["results"][0]
    assert mine["played_by_bot"] == "basic" and mine["my_turn"] is False


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"max_timeouts": 0}, "invalid_option"),
        ({"max_timeouts": "3"}, "invalid_option"),
        ({"on_absent": "x"}, "invalid_option"),
    ],
)
def test_bad_absent_options_get_400(clients, options, code):
    response = clients[0].post("/api/v1/games/", {"kind": "palace", "seats": 2, "options": options}, format="json")
    assert_error(response, 400, code)


def test_max_timeouts_null_never_resigns(clients):
    url = create(clients[0], "palace-poker", 2, turn_timeout=60, max_timeouts=None)
    seat_all(url, clients[:2])
    for _ in range(12):
        if clients[0].get(url).json()["status"] == "finished":
            break
        expire(url)
    assert not Event.objects.filter(kind__in=["resign", "seat_to_bot"]).exists()


# me/games ------------------------------------------------------------------------------------------


def test_my_games_lists_active_then_waiting_then_finished_with_my_seat_and_whose_decision(clients):
    ann = clients[0]
    finished = create(ann, "palace", 2)
    seat_all(finished, clients[:2])
    assert clients[1].post(finished + "resign/").status_code == 200
    waiting = create(ann, "palace-poker", 3)
    seat_all(waiting, clients[:1])
    active = create(clients[1], "palace-poker", 2)
    seat_all(active, [clients[1], ann])
    cancelled = create(ann, "palace", 2)
    assert ann.post(cancelled + "cancel/").status_code == 200
    create(clients[2], "palace", 2)  # not hers

    rows = ann.get("/api/v1/me/games/").json()["results"]
    ids = [f"/api/v1/games/{row['game']}/" for row in rows]
    assert ids == [active, waiting, finished, cancelled]
    by_id = dict(zip(ids, rows, strict=True))
    on_turn = clients[1].get(active).json()["to_act"] == [1]
    assert by_id[active]["seat"] == 1 and by_id[active]["my_turn"] == on_turn
    assert by_id[waiting]["seat"] == 0 and by_id[waiting]["my_turn"] is False
    assert by_id[finished]["status"] == "finished" and by_id[finished]["resigned"] is False
    assert by_id[cancelled]["seat"] is None and by_id[cancelled]["created_by_me"] is True
    only_active = ann.get("/api/v1/me/games/?status=active").json()["results"]
    assert [row["game"] for row in only_active] == [by_id[active]["game"]]
    assert_error(ann.get("/api/v1/me/games/?status=over"), 400, "invalid")
    for bad in ("offset=null", "limit=-3", "limit=500", "colour=red"):
        refused = ann.get(f"/api/v1/me/games/?{bad}")
        assert_error(refused, 400, "invalid")
        assert set(refused.json()["errors"]) == {bad.split("=")[0]}
