"""Palace Poker variations over HTTP: each option validated at creation, shown in the view, and a
short match played by a client against the ``basic`` bot (palace-poker.txt, "Variations";
palace-poker-hindi.txt where it reads differently). Bot moves are driven by calling
``bot_move`` directly: on-commit tasks do not run under the ``db`` fixture."""

from __future__ import annotations

import pytest

from games.services.turns import bot_move
from tests.games.api.helpers import assert_error

VARIATIONS = [
    {"no_pot_sharing": True},
    {"open_market": True},
    {"points": True, "ante": 0, "target_points": 10},
    {"kings_in_the_house": True},
    {"showdown_tie": "split"},
    {"betting": "no_limit", "no_limit_first_raise": "big_bet"},
    {"two_left_must_battle": True},
]


def _choose(view: dict, turn: int, sent: list[str]) -> dict:
    """A simple client: buys (keeping only the newest soldier), buys a discard back once from the
    open market, calls a bet, and bets now and then; otherwise stays, or bets when it may not
    (``two_left_must_battle``)."""
    legal = {action["type"]: action for action in view["state"]["legal_actions"]}
    if "call" in legal:
        return {"type": "call"}
    if set(legal) == {"discard"}:  # the discard step after a buy or a won battle
        discard = legal["discard"]
        return {"type": "discard", "cards": discard["cards"][: max(discard["min_cards"], len(discard["cards"]) - 1)]}
    if "buy_discard" in legal and "buy_discard" not in sent:
        return {"type": "buy_discard"}
    if "buy" in legal and sent.count("buy") < 3:
        return {"type": "buy"}
    if "bet" in legal and (turn % 5 == 4 or "stay" not in legal):
        return {"type": "bet", "target": legal["bet"]["targets"][0]["seat"]}
    return {"type": "stay"}


@pytest.mark.parametrize("variation", VARIATIONS, ids=lambda v: "-".join(sorted(v)))
def test_a_variation_game_against_a_bot_over_http(variation, make_player, auth_client, throttle_rates):
    throttle_rates(user=None, anon=None)
    _, token = make_player("alice")
    client = auth_client(token)
    options = {"first_dealer": 1, "max_hands": 3, **variation}
    created = client.post("/api/v1/games/", {"kind": "palace-poker", "seats": 2, "options": options}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert client.post(f"/api/v1/games/{game_id}/seats/", {"seat": 0}, format="json").status_code == 201
    bot = client.post(f"/api/v1/games/{game_id}/seats/", {"seat": 1, "bot": "basic"}, format="json")
    assert bot.status_code == 201, bot.content
    sent: list[str] = []
    for turn in range(2000):
        view = client.get(f"/api/v1/games/{game_id}/").json()
        state = view["state"]
        for key, value in variation.items():
            assert state["options"][key] == value
        if view["status"] == "finished":
            break
        if "points" in variation:
            assert state["scores"] is not None and all(seat["stack"] == 1000 for seat in state["seats"])
        if 0 in state["to_act"]:
            body = {**_choose(view, turn, sent), "expected_version": view["version"]}
            sent.append(body["type"])
            response = client.post(f"/api/v1/games/{game_id}/actions/", body, format="json")
            assert response.status_code == 201, response.content
        else:
            assert bot_move(game_id=game_id, version=view["version"]), state
    else:
        raise AssertionError("the match did not end")
    assert state["winners"]


def test_open_market_buys_the_top_of_the_discard_pile_over_http(make_player, auth_client):
    """palace-poker.txt, Variations, "Open Market Rule": on his turn a player may take the top card of
    the discard pile for one big bet; the card becomes a soldier, shown to all, and a discard step
    follows as after a buy. (The match against the bot above cannot count on a discard pile being
    there on the client's turn: a battle often ends the hand first.)"""
    (_, ann_token), (_, bob_token) = make_player("ann"), make_player("bob")
    ann, bob = auth_client(ann_token), auth_client(bob_token)
    options = {"first_dealer": 1, "max_hands": 1, "open_market": True, "small_bet": 5, "big_bet": 10, "ante": 2}
    game = ann.post("/api/v1/games/", {"kind": "palace-poker", "seats": 2, "options": options}, format="json").json()
    url = f"/api/v1/games/{game['id']}/"
    for seat, client in enumerate((ann, bob)):
        assert client.post(url + "seats/", {"seat": seat}, format="json").status_code == 201

    def act(client, body: dict) -> dict:
        response = client.post(url + "actions/", body, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    assert "buy_discard" not in {action["type"] for action in ann.get(url).json()["legal_actions"]}, "no pile yet"
    act(ann, {"type": "buy"})
    soldier = ann.get(url).json()["legal_actions"][0]["cards"][0]
    act(ann, {"type": "discard", "cards": [soldier]})
    act(bob, {"type": "stay"})
    view = ann.get(url).json()
    market = {action["type"]: action for action in view["legal_actions"]}["buy_discard"]
    assert market["cost"] == 10
    stack = view["state"]["seats"][0]["stack"]
    answer = act(ann, {"type": "buy_discard", "expected_version": view["version"]})
    (bought,) = [event for entry in answer["events"] for event in entry["events"] if event["type"] == "buy_discard"]
    assert bought["cards"]["card"] == [soldier], "the discarded soldier was the pile's top card"
    assert answer["to_act"] == [0] and [action["type"] for action in answer["legal_actions"]] == ["discard"]
    after = ann.get(url).json()["state"]["seats"][0]
    assert after["stack"] == stack - 10 and after["soldiers"] == [soldier]
    spectator = auth_client(make_player("cat")[1]).get(url).json()["state"]["seats"][0]
    assert spectator["soldiers"] == [soldier], "a soldier is face up"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"points": True, "ante": 3}, "inconsistent_options"),
        ({"target_points": 50}, "inconsistent_options"),
        ({"no_limit_first_raise": "big_bet"}, "inconsistent_options"),
        ({"open_market": "yes"}, "invalid_option"),
        ({"royal_palace": True}, "unknown_option"),
    ],
)
def test_inconsistent_or_unknown_variations_are_refused_with_400(options, code, make_player, auth_client):
    _, token = make_player("alice")
    response = auth_client(token).post(
        "/api/v1/games/", {"kind": "palace-poker", "seats": 2, "options": options}, format="json"
    )
    assert_error(response, 400, code)
