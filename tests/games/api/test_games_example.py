"""The palace-poker.txt example game ("Raise" example and "Example Game Continued") played entirely
over HTTP: staff prearranges the deck, six clients play, every bet costs what the text says, and
Dave wins a pot of 142. The deck is the one of tests/games/engine/poker/test_example_game.py."""

from __future__ import annotations

import pytest

from tests.games.api.table import create_table, deck_starting_with
from tests.games.engine.poker.test_example_game import BANNER_DECK, PALACE_DECK

AARON, BRAD, CHRISTINE, DAVE, ELENA, FRANK = range(6)
BANNERS = "8c 3h Ts Jd 4d Qs"

STEPS = [
    # (seat, action, fields, chips it costs)
    (AARON, "buy", {}, 5),
    (AARON, "discard", {}, 0),
    (BRAD, "bet", {"target": FRANK}, 5),
    (FRANK, "raise", {}, 10),
    (BRAD, "raise", {}, 15),
    (FRANK, "raise", {}, 20),
    (BRAD, "call", {}, 10),
    (FRANK, "discard", {"cards": ["3h"]}, 0),
    (CHRISTINE, "buy", {}, 5),
    (CHRISTINE, "discard", {}, 0),
    (DAVE, "buy", {}, 5),
    (DAVE, "discard", {}, 0),
    (ELENA, "buy", {}, 5),
    (ELENA, "discard", {}, 0),
    (FRANK, "bet", {"target": AARON}, 5),
    (AARON, "fold", {}, 0),
    (FRANK, "discard", {"cards": ["5c"]}, 0),
    (CHRISTINE, "buy", {}, 5),
    (CHRISTINE, "discard", {}, 0),
    (DAVE, "bet", {"target": CHRISTINE}, 10),
    (CHRISTINE, "fold", {}, 0),
    (DAVE, "discard", {"cards": ["Ts", "7h", "9h"]}, 0),
    (ELENA, "stay", {}, 0),
    (FRANK, "bet", {"target": ELENA}, 10),
    (ELENA, "fold", {}, 0),
    (FRANK, "discard", {"cards": ["4d", "2h"]}, 0),
    (DAVE, "bet", {"target": FRANK}, 10),
]


@pytest.fixture
def example_table(make_player, make_staff, auth_client):
    _, staff_token = make_staff()
    clients = [auth_client(make_player(name)[1]) for name in ("aaron", "brad", "christine", "dave", "elena", "frank")]
    options = {"betting": "limit", "small_bet": 5, "big_bet": 10, "ante": 2, "first_dealer": FRANK, "max_hands": 1}
    shuffles = [deck_starting_with(BANNER_DECK), deck_starting_with(PALACE_DECK, without=BANNERS)]
    return create_table(auth_client(staff_token), clients, options=options, prearranged_shuffles=shuffles)


def test_example_game_over_http_dave_wins_142(example_table):
    table = example_table
    first = table.view(AARON)
    assert [seat["banner"] for seat in first["state"]["seats"]] == BANNERS.split()
    assert first["state"]["pot"] == 12
    assert first["to_act"] == [AARON]
    for seat, type_, fields, cost in STEPS:
        view = table.view(seat)
        assert view["to_act"] == [seat], (seat, type_)
        offered = {action["type"]: action["cost"] for action in view["legal_actions"]}
        assert offered[type_] == cost, (seat, type_)
        before = view["seats"][seat]["stack"]
        table.act(seat, type_, **fields)
        assert table.view(seat)["seats"][seat]["stack"] == before - cost, (seat, type_)
    assert table.view(DAVE)["state"]["pot"] == 132
    final = table.act(FRANK, "call").json()
    engine_events = [event for entry in final["events"] for event in entry["events"]]
    (award,) = [event for event in engine_events if event["type"] == "pot_awarded"]
    assert award["pot"] == 142 and award["amounts"] == {str(DAVE): 142}
    end = table.view(DAVE)
    assert end["status"] == "finished"
    assert end["seats"][DAVE]["stack"] == 1000 - 2 - 5 - 10 - 10 + 142


def test_example_game_palace_cards_seen_only_by_the_caller(example_table):
    """palace-poker.txt, "Raise" example: Brad called, so Brad sees Frank's palace and Frank never sees Brad's."""
    table = example_table
    for seat, type_, fields, _ in STEPS[:7]:
        table.view(seat)
        table.act(seat, type_, **fields)
    brad_sees = table.view(BRAD)["state"]["seats"][FRANK]["palace"]
    assert brad_sees == ["Qd", "Qc", "8s"]
    for other in (AARON, CHRISTINE, DAVE, ELENA):
        assert table.view(other)["state"]["seats"][FRANK]["palace"] == [None, None, None]
    response = table.clients[FRANK].get(table.url("events/") + "?limit=500")
    shown = [e for entry in response.json()["results"] for e in entry.get("events", []) if e["type"] == "palace_shown"]
    assert [(event["seat"], event["to"]) for event in shown] == [(FRANK, BRAD)]
    assert not any(f'"{code}"' in response.content.decode() for code in ("Ah", "Ad", "9c")), "Brad's palace stays his"
