"""Palace Poker variations over HTTP: each option validated at creation, shown in the view, and a
short match played by a client against the ``basic`` bot (palace-poker.txt, "Variations";
palace-poker-hindi.txt where it reads differently). Bot moves are driven by calling
``bot_move`` directly: on-commit tasks do not run under the ``db`` fixture."""

from __future__ import annotations

import pytest

from games.services.turns import bot_move
from tests.api.helpers import assert_error

VARIATIONS = [
    {"no_pot_sharing": True},
    {"open_market": True},
    {"points": True, "ante": 0, "target_points": 10},
    {"kings_in_the_house": True},
    {"showdown_tie": "split"},
    {"betting": "no_limit", "no_limit_first_raise": "big_bet"},
]


def _choose(view: dict, turn: int, sent: list[str]) -> dict:
    """A simple client: buys (keeping only the newest soldier), buys a discard back once from the
    open market, calls a bet, and bets now and then; otherwise stays."""
    legal = {action["type"]: action for action in view["state"]["legal_actions"]}
    if "call" in legal:
        return {"type": "call"}
    if "stay" not in legal:  # the discard step after a buy or a won battle
        discard = legal["discard"]
        return {"type": "discard", "cards": discard["cards"][: max(discard["min_cards"], len(discard["cards"]) - 1)]}
    if "buy_discard" in legal and "buy_discard" not in sent:
        return {"type": "buy_discard"}
    if "buy" in legal and sent.count("buy") < 3:
        return {"type": "buy"}
    if "bet" in legal and turn % 5 == 4:
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
    if "open_market" in variation:
        assert "buy_discard" in sent, " ".join(sent)


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
