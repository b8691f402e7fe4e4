"""Palace Poker rules over HTTP where an audit of the engine against the texts found it wrong or
silent (issue 13): the no-limit re-raise, the battle and score without money, and the Hindi text's
last two who must battle. Staff prearranges the decks so that the hands are known; the banners
come first in deal order (seat 0 is dealt first: seat 1 deals), then the palace cards one at a time
round-robin, then the stock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Event, Game
from games.services.turns import timeout_apply
from tests.games.api.helpers import assert_error
from tests.games.api.table import Table, create_table, deck_starting_with

pytestmark = pytest.mark.django_db

BANNERS = "2c 2d"
STRONG_WEAK = "Ah 3h As 4s 7h 8s"  # seat 0: Ah As 7h (a pair of aces); seat 1: 3h 4s 8s (nothing)


@pytest.fixture
def heads_up(make_player, make_staff, auth_client):
    """``heads_up(**options)``: ann (seat 0) against bob (seat 1), seat 0 holding the better hand."""

    def make(**options: Any) -> Table:
        staff = auth_client(make_staff()[1])
        clients = [auth_client(make_player(name)[1]) for name in ("ann", "bob")]
        shuffles = [deck_starting_with(BANNERS), deck_starting_with(STRONG_WEAK, without=BANNERS)]
        options = {"first_dealer": 1, "max_hands": 1, **options}
        return create_table(staff, clients, options=options, prearranged_shuffles=shuffles)

    return make


def engine_events(response: Any) -> list[dict[str, Any]]:
    return [event for entry in response.json()["events"] for event in entry["events"]]


def legal_types(view: dict[str, Any]) -> set[str]:
    return {action["type"] for action in view["legal_actions"]}


def test_a_no_limit_reraise_of_one_chip_is_accepted_over_http(heads_up):
    """palace-poker.txt, "Raise", third bullet: after the defender's first raise, a no-limit
    re-raise can be any amount. Given bob's raise of 50, when ann re-raises 1 chip, then it is
    accepted and bob owes 1 chip to call."""
    table = heads_up(betting="no_limit", small_bet=5, big_bet=10, ante=2)
    table.act(0, "bet", target=1)
    table.view(1)
    table.act(1, "raise", amount=50)
    raise_ = {action["type"]: action for action in table.view(0)["legal_actions"]}["raise"]
    assert (raise_["min_amount"], raise_["cost"]) == (1, 51)
    assert_error(table.act(0, "raise", amount=0, expect=400), 400, "invalid_amount")
    table.act(0, "raise", amount=1)
    view = table.view(1)
    assert {action["type"]: action["cost"] for action in view["legal_actions"]}["call"] == 1
    assert view["state"]["battle"]["owed"] == 1 and view["state"]["battle"]["raises"] == 2


def test_without_money_a_bet_is_decided_at_once_and_scored_after_the_discard_over_http(heads_up):
    """palace-poker.txt, "Palace Poker without money": the defender looks at the attacker's cards
    and declares who is out, with no calling or raising; the winner scores 10 minus the soldiers
    that end up in his hand, and a battle winner can discard as many as he wants.

    Given ann's pair of aces against bob without money, when ann bets, then the battle is decided
    in that action (no answer is asked of bob), bob has seen ann's palace cards and ann has not
    seen bob's, and ann owes her discard step before any score; when she discards the captured
    banner, then she scores 10 and the match (one hand) is over."""
    table = heads_up(points=True)
    assert {action["type"]: action["cost"] for action in table.view(0)["legal_actions"]}["bet"] == 0
    answer = table.act(0, "bet", target=1)
    types = [event["type"] for event in engine_events(answer)]
    assert "battle_won" in types and "call" not in types and "points_scored" not in types
    shown = [event for event in engine_events(answer) if event["type"] == "palace_shown"]
    assert [(event["seat"], event["to"]) for event in shown] == [(0, 1)], "only the defender looked"
    assert answer.json()["to_act"] == [0] and legal_types(answer.json()) == {"discard"}
    bob = table.view(1)
    assert bob["state"]["battle"] is None and bob["legal_actions"] == []
    assert bob["state"]["seats"][0]["palace"] == ["Ah", "As", "7h"], "the defender sees first"
    assert_error(table.act(1, "call", expect=403), 403, "not_your_turn")
    answer = table.act(0, "discard", cards=["2d"])
    (scored,) = [event for event in engine_events(answer) if event["type"] == "points_scored"]
    assert (scored["seat"], scored["points"]) == (0, 10)
    end = table.view(0)
    assert end["status"] == "finished" and end["state"]["scores"] == [10, 0]


def test_the_last_two_must_battle_and_a_timeout_bets_over_http(heads_up):
    """palace-poker-hindi.txt, "जीतना", first paragraph, second sentence: two players left must
    battle to decide the winner (the ``two_left_must_battle`` option).

    Given ann and bob alone in the hand with the option, when ann is on turn, then she is offered
    no stay and a Stay is refused with 400 ``must_battle``; when her deadline passes, then the
    timeout bets the minimum against bob, and his call decides the hand in a battle."""
    table = heads_up(two_left_must_battle=True, turn_timeout=60)
    view = table.view(0)
    assert view["state"]["options"]["two_left_must_battle"] is True
    assert legal_types(view) == {"buy", "bet", "fold"}
    assert_error(table.act(0, "stay", expect=400), 400, "must_battle")
    Game.objects.filter(pk=table.game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=table.game_id) is True
    last = Event.objects.filter(game_id=table.game_id).order_by("-seq").first()
    assert (last.kind, last.actor, last.payload["action"].get("timeout")) == ("bet", 0, True)
    bob = table.view(1)
    assert bob["to_act"] == [1] and bob["state"]["battle"]["bet"] == 5
    answer = table.act(1, "call")
    (award,) = [event for event in engine_events(answer) if event["type"] == "pot_awarded"]
    assert award["reason"] == "last_player" and award["amounts"] == {"0": 4 + 5 + 5}
