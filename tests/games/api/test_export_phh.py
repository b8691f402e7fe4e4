"""``GET games/{id}/export/phh/``: a Palace Poker game as PHH text over HTTP (README, "Palace Poker as PHH").

Given Palace Poker games played through the services (a human at seat 0, random bots elsewhere), when staff and the
player ask for the PHH text, then it is TOML, one table a hand, whose standard fields add up
(tests/games/engine/poker/test_phh.py checks each hand) and agree with the JSON export's result; mid-match, the
player's text shows his own palace as the JSON export gives it to him and no other, a spectator's none, staff's
every one. A shedding game is refused with ``phh_unavailable``; the schema documents the operation.
"""

from __future__ import annotations

import tomllib

import pytest

from games.selectors.export import game_export
from players.services import token_create
from tests.games.api.helpers import assert_error
from tests.games.engine.poker.test_phh import check_hand
from tests.games.selectors.test_export import play

GAMES = [
    ({"max_hands": 3, "starting_stack": 60, "small_bet": 2}, 3),
    ({"max_hands": 2, "points": True}, 2),
    ({"max_hands": 2, "betting": "no_limit", "open_market": True}, 4),
]


def phh(client, game_id: int) -> tuple[str, dict]:
    answer = client.get(f"/api/v1/games/{game_id}/export/phh/")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    assert answer["Content-Disposition"] == f'inline; filename="palace-poker-{game_id}.phhs"'
    text = answer.content.decode()
    return text, tomllib.loads(text)


@pytest.mark.django_db
@pytest.mark.parametrize(("options", "seats"), GAMES)
def test_a_finished_game_as_phh_for_staff_and_its_player(auth_client, make_staff, options, seats):
    game, human = play("palace-poker", options, seats, f"phh{seats}{len(options)}")
    assert game.status == "finished"
    result = game_export(game, human)["result"]
    for client in (auth_client(make_staff()[1]), auth_client(token_create(user=human)[1])):
        text, hands = phh(client, game.pk)
        assert list(hands) == [str(number) for number in range(1, result["hands"] + 1)]
        # The match is over and every seed revealed: the player's text is whole, as his JSON export is.
        assert "??" not in text
        for hand in hands.values():
            check_hand(hand, game_export(game, human)["options"], f"game {game.pk}")
            assert hand["table"] == game.pk and hand["seat_count"] == seats
        last = hands[str(result["hands"])]
        assert last["finishing_stacks"] == [result["stacks"][seat - 1] for seat in last["seats"]]
        assert any(action.startswith("# match_ended") for action in last["actions"])


@pytest.mark.django_db
def test_mid_match_each_caller_sees_only_the_palaces_he_may(auth_client, make_staff, make_player):
    game, human = play("palace-poker", {"max_hands": 5}, 4, "phhmid", stop_at=15)
    assert game.status == "active"
    mine = game_export(game, human)
    own = [
        "".join(event["cards"]["palace"])
        for entry in mine["log"]
        for event in entry.get("events", ())
        if event["type"] == "palace_dealt" and event["seat"] == 0
    ]
    assert own
    texts = {
        "player": phh(auth_client(token_create(user=human)[1]), game.pk),
        "spectator": phh(auth_client(make_player("onlooker")[1]), game.pk),
        "staff": phh(auth_client(make_staff()[1]), game.pk),
    }
    for who, (text, hands) in texts.items():
        for hand in hands.values():
            deals = [action for action in hand["actions"] if action.endswith("palace_dealt")]
            assert len(deals) == len(hand["players"])
            for action in deals:
                seat = hand["seats"][int(action.split()[2][1:]) - 1] - 1
                hidden = action.split()[3] == "??????"
                assert hidden == (who == "spectator" or (who == "player" and seat != 0)), (who, action)
                if who == "player" and seat == 0:
                    assert action.split()[3] == own[hand["hand"] - 1]
        assert ("??" in text) == (who != "staff")


@pytest.mark.django_db
def test_a_shedding_game_has_no_phh_and_bad_requests_are_refused(auth_client, make_player, throttle_rates):
    game, human = play("palace", {"max_turns": 60}, 2, "phhshed")
    client = auth_client(token_create(user=human)[1])
    assert_error(client.get(f"/api/v1/games/{game.pk}/export/phh/"), 422, "phh_unavailable")
    assert_error(client.get("/api/v1/games/999999/export/phh/"), 404, "game_not_found")
    assert_error(client.get(f"/api/v1/games/{game.pk}/export/phh/?colour=red"), 400, "invalid")
    throttle_rates(export="1/min")
    other = auth_client(make_player("counted")[1])
    other.get(f"/api/v1/games/{game.pk}/export/phh/")
    assert_error(other.get(f"/api/v1/games/{game.pk}/export/phh/"), 429, "throttled")


def test_the_schema_documents_the_phh_text_and_its_refusal(openapi):
    operation = openapi["paths"]["/api/v1/games/{game_id}/export/phh/"]["get"]
    assert operation["operationId"] == "games_export_phh"
    assert operation["responses"]["200"]["content"] == {"text/plain": {"schema": {"type": "string"}}}
    assert operation["responses"]["422"]["x-error-codes"] == ["phh_unavailable"]
    assert "406" not in operation["responses"]
