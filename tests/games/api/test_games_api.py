"""The games API contract: creation, seats, actions, versions, idempotency, ETags, logs, turns, lists."""

from __future__ import annotations

import pytest

from games.models import Event, Game, IdempotencyKey, Snapshot
from games.selectors.state import forget_states
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db

HEADS_UP = {"betting": "limit", "small_bet": 5, "big_bet": 10, "first_dealer": 1}


@pytest.fixture
def clients(make_player, auth_client):
    """Three players' clients: alice, bob, carol."""
    return [auth_client(make_player(name)[1]) for name in ("alice", "bob", "carol")]


@pytest.fixture
def table(clients):
    """alice (seat 0) and bob (seat 1, dealer) heads-up; alice acts first."""
    return create_table(clients[0], clients[:2], options=HEADS_UP)


def code_of(response) -> str:
    return response.json()["code"]


# --- creating games ---


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"kind": "hearts", "seats": 2}, 400, "invalid"),
        ({"kind": "palace-poker", "seats": 11}, 400, "invalid_seats"),
        ({"kind": "palace-poker", "seats": "two"}, 400, "invalid"),
        ({"kind": "palace-poker", "seats": 2, "options": {"betting": "pot"}}, 400, "invalid_option"),
        ({"kind": "palace-poker", "seats": 2, "options": {"colour": 1}}, 400, "unknown_option"),
        ({"kind": "palace-poker", "seats": 2, "options": {"turn_timeout": 5}}, 400, "invalid_option"),
        ({"kind": "palace-poker", "seats": 2, "options": {"small_bet": 10, "big_bet": 5}}, 400, "inconsistent_options"),
        ({"kind": "palace-poker", "seats": 2, "colour": "red"}, 400, "invalid"),
        ({"kind": "palace-poker", "seats": 2, "prearranged_shuffles": [["As"]]}, 403, "staff_only"),
    ],
)
def test_bad_game_creation_gets_a_clear_4xx(clients, body, status, code):
    response = clients[0].post("/api/v1/games/", body, format="json")
    assert response.status_code == status, response.content
    assert code_of(response) == code
    assert Game.objects.count() == 0


def test_created_game_waits_and_the_creator_is_not_seated(clients):
    response = clients[0].post(
        "/api/v1/games/", {"kind": "palace-poker", "seats": 3, "options": {"turn_timeout": 3600}}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "waiting" and body["version"] == 0 and body["state"] is None
    assert body["turn_timeout"] == 3600
    assert body["options"]["ante"] == 2, "options come back with every default filled in"
    assert [seat["player"] for seat in body["seats"]] == [None, None, None]


def test_staff_prearranged_shuffle_with_bad_cards_is_refused(make_staff, auth_client):
    _, token = make_staff()
    response = auth_client(token).post(
        "/api/v1/games/", {"kind": "palace-poker", "seats": 2, "prearranged_shuffles": [["As", "As"]]}, format="json"
    )
    assert response.status_code == 400 and code_of(response) == "invalid_prearranged_shuffles"


# --- seats ---


def test_seats_start_the_match_when_full(clients):
    game = clients[0].post("/api/v1/games/", {"kind": "palace-poker", "seats": 2}, format="json").json()
    url = f"/api/v1/games/{game['id']}/seats/"
    assert clients[0].post(url, {"seat": 1}, format="json").status_code == 201
    assert code_of(clients[0].post(url, {}, format="json")) == "already_seated"
    assert code_of(clients[1].post(url, {"seat": 1}, format="json")) == "seat_taken"
    assert code_of(clients[1].post(url, {"seat": 7}, format="json")) == "invalid_seat"
    assert clients[1].post(url, {}, format="json").json()["seat"] == 0
    view = clients[0].get(f"/api/v1/games/{game['id']}/").json()
    assert view["status"] == "active" and view["state"]["phase"] in {"play", "choose_dealer"}
    assert view["version"] >= 2 + 2, "two seats, then the shuffles of the draw for the deal and the deals"
    late = clients[2].post(url, {}, format="json")
    assert late.status_code == 409 and code_of(late) == "game_started"
    assert clients[2].post("/api/v1/games/999999/seats/", {}, format="json").status_code == 404


# --- actions ---


def test_action_paths(table, clients):
    url = table.url("actions/")
    assert code_of(clients[2].post(url, {"type": "stay"}, format="json")) == "not_seated"
    assert code_of(clients[1].post(url, {"type": "stay"}, format="json")) == "not_your_turn"
    bad = clients[0].post(url, {"type": "bet", "target": 0, "expected_version": table.version}, format="json")
    assert bad.status_code == 400 and code_of(bad) == "invalid_target"
    stale = clients[0].post(url, {"type": "stay", "expected_version": table.version - 1}, format="json")
    assert stale.status_code == 409 and code_of(stale) == "version_conflict"
    assert stale.json()["current_version"] == table.version
    assert clients[0].post("/api/v1/games/424242/actions/", {"type": "stay"}, format="json").status_code == 404
    before = table.version
    ok = table.act(0, "stay")
    assert ok.json()["version"] == before + 1
    assert ok.json()["events"][0]["action"] == {"type": "stay", "seat": 0}
    assert ok.json()["to_act"] == [1] and ok.json()["legal_actions"] == [], "bob decides next, not alice"
    buy = table.act(1, "buy").json()
    assert buy["to_act"] == [1] and [action["type"] for action in buy["legal_actions"]] == ["discard"]
    assert Event.objects.filter(game_id=table.game_id).count() == table.version


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"type": "bet", "amount": "lots"}, "invalid"),
        ({"type": "bet", "target": [1]}, "invalid"),
        ({"type": "discard", "cards": "As"}, "invalid"),
        ({"type": "discard", "cards": ["Zz"]}, "invalid_card"),
        ({"type": "stay", "colour": "red"}, "invalid"),
        ({}, "invalid"),
        ({"type": "dance"}, "unknown_action"),
        ({"type": "stay", "expected_version": -1}, "invalid"),
    ],
)
def test_wrong_types_and_fields_get_400_and_append_nothing(table, clients, body, code):
    response = clients[0].post(table.url("actions/"), body, format="json")
    assert response.status_code == 400, response.content
    assert code_of(response) == code
    assert Game.objects.get(pk=table.game_id).version == table.version


def test_malformed_json_gets_400(table, clients):
    response = clients[0].post(table.url("actions/"), data="{not json", content_type="application/json")
    assert response.status_code == 400 and code_of(response) == "malformed_json"


# --- idempotency ---


def test_idempotency_key_returns_the_stored_response_and_appends_nothing(table, clients):
    body = {"type": "buy", "expected_version": table.version}
    first = clients[0].post(table.url("actions/"), body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    version = Game.objects.get(pk=table.game_id).version
    again = clients[0].post(table.url("actions/"), body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Game.objects.get(pk=table.game_id).version == version
    other = clients[0].post(table.url("actions/"), {"type": "stay"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert other.status_code == 422 and code_of(other) == "idempotency_key_reused"


def test_idempotency_keys_are_scoped_to_their_caller(table, clients):
    clients[0].post(table.url("actions/"), {"type": "stay"}, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    response = clients[1].post(table.url("actions/"), {"type": "stay"}, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers
    assert response.json()["events"][0]["actor"] == 1, "bob's key answered bob's own action"


def test_a_key_left_in_flight_by_an_earlier_server_is_taken_over_by_its_retry(table, clients):
    """Given a key stored ``in_flight`` by a server before this one (its request died before it could release
    the key), when the same request is sent with it, then it is applied once (201, not a replay) and the key
    holds its answer: a dead request's key never blocks its retry, however young the row."""
    from django.contrib.auth import get_user_model

    from games.services.actions import _request_hash

    alice = get_user_model().objects.get(username="alice")
    body = {"type": "stay", "cards": [], "target": None, "amount": None, "expected_version": None}
    IdempotencyKey.objects.create(user=alice, key="busy", request_hash=_request_hash(table.game_id, body))
    version = Game.objects.get(pk=table.game_id).version
    response = clients[0].post(table.url("actions/"), {"type": "stay"}, format="json", HTTP_IDEMPOTENCY_KEY="busy")
    assert response.status_code == 201 and "Idempotent-Replayed" not in response.headers
    assert Event.objects.filter(game_id=table.game_id, seq__gt=version, kind="stay").count() == 1
    again = clients[0].post(table.url("actions/"), {"type": "stay"}, format="json", HTTP_IDEMPOTENCY_KEY="busy")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == response.json()


def test_a_failed_request_leaves_its_key_free_for_a_retry(table, clients):
    stale = {"type": "stay", "expected_version": table.version + 5}
    assert clients[0].post(table.url("actions/"), stale, format="json", HTTP_IDEMPOTENCY_KEY="r").status_code == 409
    fixed = {"type": "stay", "expected_version": table.version + 5}
    assert IdempotencyKey.objects.filter(key="r").count() == 0
    assert clients[0].post(table.url("actions/"), fixed, format="json", HTTP_IDEMPOTENCY_KEY="r").status_code == 409


# --- views, ETags, logs ---


def test_etag_and_if_none_match(table, clients):
    first = clients[0].get(table.url())
    etag = first.headers["ETag"]
    assert clients[0].get(table.url(), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert clients[1].get(table.url()).headers["ETag"] != etag, "each viewer has its own representation"
    table.act(0, "stay")
    assert clients[0].get(table.url(), HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_spectators_see_public_information_only(table, clients):
    spectator = clients[2].get(table.url()).json()
    assert spectator["viewer"] == "spectator" and spectator["legal_actions"] == []
    for seat in spectator["state"]["seats"]:
        assert seat["palace"] == [None, None, None]
    alice = clients[0].get(table.url()).json()
    assert None not in alice["state"]["seats"][0]["palace"]
    assert alice["state"]["seats"][1]["palace"] == [None, None, None]


def test_events_paginate_and_hide_shuffles(table, clients):
    page = clients[2].get(table.url("events/") + "?after=0&limit=2").json()
    assert [entry["seq"] for entry in page["results"]] == [1, 2]
    assert page["next_after"] == 2 and page["version"] == table.version
    rest = clients[2].get(table.url("events/") + "?after=2&limit=500").json()
    assert rest["next_after"] is None
    shuffles = [entry for entry in rest["results"] if entry["kind"] == "shuffle"]
    for entry in shuffles:
        assert set(entry["action"]) == {"type", "size"}, "a shuffle's size, not a null per card"
        shuffle = next(event for event in entry["events"] if event["type"] == "shuffle")
        assert shuffle["unseen"] == {"order": entry["action"]["size"]}
        assert "cards" not in shuffle
    assert shuffles
    for params, bad in (("?after=-1", "after"), ("?limit=x", "limit"), ("?limit=1&colour=red", "colour")):
        response = clients[2].get(table.url("events/") + params)
        assert response.status_code == 400 and response.json()["code"] == "invalid", params
        assert list(response.json()["errors"]) == [bad], "the answer names the bad parameter"


def test_staff_see_every_card(table, make_staff, auth_client):
    _, token = make_staff()
    staff = auth_client(token)
    view = staff.get(table.url()).json()
    assert view["viewer"] == "staff"
    assert all(None not in seat["palace"] for seat in view["state"]["seats"])
    log = staff.get(table.url("events/") + "?limit=500").json()["results"]
    assert any(entry["kind"] == "shuffle" and None not in entry["action"]["cards"] for entry in log)


def test_deleting_snapshots_changes_no_response(table, clients):
    for _ in range(60):
        seat = table.view(0)["to_act"][0]
        if table.view(seat)["status"] != "active":
            break
        legal = {action["type"] for action in table.view(seat)["legal_actions"]}
        if "buy" in legal:
            table.act(seat, "buy")
            (discard,) = table.view(seat)["legal_actions"]
            table.act(seat, "discard", cards=discard["cards"][: discard["min_cards"]])
        else:
            table.act(seat, "stay")
    assert Snapshot.objects.filter(game_id=table.game_id).exists(), "more than 100 events were written"
    before = [client.get(table.url()).json() for client in clients]
    Snapshot.objects.all().delete()
    forget_states()
    assert [client.get(table.url()).json() for client in clients] == before


# --- turns and lists ---


def test_my_turns_lists_games_where_the_decision_is_mine(clients):
    slow = create_table(clients[0], clients[:2], options=HEADS_UP)
    timed = create_table(clients[0], clients[:2], options={**HEADS_UP, "turn_timeout": 600})
    turns = clients[0].get("/api/v1/me/turns/").json()
    assert [turn["game"] for turn in turns] == [timed.game_id, slow.game_id], "a deadline first, then none"
    assert turns[0]["seat"] == 0 and turns[0]["version"] == timed.version
    assert 590 <= turns[0]["seconds_left"] <= 600 and turns[1]["seconds_left"] is None
    assert clients[1].get("/api/v1/me/turns/").json() == []
    timed.act(0, "stay")
    assert [turn["game"] for turn in clients[1].get("/api/v1/me/turns/").json()] == [timed.game_id]


def test_my_turns_answers_304_until_a_turn_comes_or_goes(clients):
    table = create_table(clients[0], clients[:2], options={**HEADS_UP, "turn_timeout": 600})
    first = clients[1].get("/api/v1/me/turns/")
    assert first.status_code == 200 and first.json() == [] and "Authorization" in first.headers["Vary"]
    etag = first.headers["ETag"]
    assert clients[1].get("/api/v1/me/turns/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    table.act(0, "stay")  # now the decision is Bob's
    moved = clients[1].get("/api/v1/me/turns/", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and [turn["game"] for turn in moved.json()] == [table.game_id]
    assert moved.headers["ETag"] != etag
    again = clients[1].get("/api/v1/me/turns/", HTTP_IF_NONE_MATCH=moved.headers["ETag"])
    assert again.status_code == 304 and again.headers["ETag"] == moved.headers["ETag"]
    # Alice's turns are another answer with another tag.
    assert clients[0].get("/api/v1/me/turns/").headers["ETag"] != moved.headers["ETag"]


def test_game_list_filters(clients):
    waiting = clients[0].post("/api/v1/games/", {"kind": "palace-poker", "seats": 3}, format="json").json()
    started = create_table(clients[1], clients[1:3], options=HEADS_UP)

    def ids(query: str, client=clients[0]) -> list[int]:
        response = client.get("/api/v1/games/" + query)
        assert response.status_code == 200, response.content
        return [game["id"] for game in response.json()["results"]]

    assert ids("") == [started.game_id, waiting["id"]]
    assert ids("?status=waiting") == [waiting["id"]]
    assert ids("?open_seats=true") == [waiting["id"]]
    assert ids("?open_seats=false") == [started.game_id]
    assert ids("?mine=true") == [waiting["id"]]
    assert ids("?mine=true", clients[2]) == [started.game_id]
    assert ids("?kind=palace-poker&status=active") == [started.game_id]
    assert clients[0].get("/api/v1/games/?status=nope").status_code == 400


def test_unauthenticated_requests_get_401(api_client, table):
    response = api_client.get(table.url())
    assert response.status_code == 401 and code_of(response) == "not_authenticated"
