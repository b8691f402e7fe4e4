"""The typed state: every state ``GET games/{id}/`` gives, for every seat, a spectator and staff, fits the served
schema's ``GameState``, whose every object the schema itself closes (``additionalProperties: false``,
``palace_api.schema.answers_closed``): a field the engine sends that the schema lacks fails here.

Given the random and prearranged games of tests/games/api/test_event_schema.py (``random_scenario``, ``RARE``, played on
the engine by ``playout``), when the state after every action is viewed as ``game_detail`` views it (the engine's
``view`` for that viewer), then it validates against ``GameState`` as served, without the test closing anything.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator, oas30_format_checker

from games.engine.protocol import SPECTATOR, STAFF
from games.engine.registry import GAMES
from tests.games.api.test_event_schema import (
    CATALOGUES,
    RARE,
    Contract,
    Scenario,
    check,
    playout,
    random_scenario,
    remembering,
)

GAMES_PER_KIND = 12
"""Random games per kind, beside ``RARE``: each state of each is viewed by every seat, a spectator and staff."""
pytestmark = pytest.mark.xdist_group("event_schema")


def nullable_refs(node: Any) -> Any:
    """A copy in which drf-spectacular's nullable reference, ``{"allOf": [{"$ref"}], "nullable": true}``, reads as
    generated clients read it (the object or null): OpenAPI 3.0 validators apply ``nullable`` to the ``allOf``'s
    own ``type`` alone, which it has none of, so they refuse a null. Nothing else changes; nothing is closed."""
    if isinstance(node, list):
        return [nullable_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: nullable_refs(value) for key, value in node.items()}
    if node.get("nullable") is True and "allOf" in node and "type" not in node:
        out["anyOf"] = [*out.pop("allOf"), {"type": "object", "nullable": True, "enum": [None]}]
        del out["nullable"]
    return out


def served_validator(schema: dict[str, Any], name: str = "GameState") -> Any:
    """A validator of the component ``name`` of ``schema`` as served (``nullable_refs`` aside)."""
    root = {"$ref": f"#/components/schemas/{name}", "components": nullable_refs(schema["components"])}
    return remembering(OAS30Validator)(root, format_checker=oas30_format_checker)


@pytest.fixture(scope="module")
def contract(openapi_text) -> Contract:
    """The schema as ``/api/schema/?format=json`` serves it (tests/conftest.py ``openapi_text``)."""
    return Contract(json.loads(openapi_text))


def views_checked(scenarios: list[Scenario], validator: Any) -> int:
    """Check the state after every action of each scenario, for every viewer; returns how many views."""
    views = 0
    for scenario in scenarios:
        game = GAMES[scenario.kind]
        state = game.new_game(scenario.options, scenario.seats)
        actions = [action for action, _ in playout(scenario)]
        for step, action in enumerate([None, *actions]):
            if action is not None:
                state, _ = game.apply(state, action)
            for viewer in [*range(scenario.seats), SPECTATOR, STAFF]:
                check(validator, game.view(state, viewer), f"{scenario}, after step {step}, for {viewer!r}")
                views += 1
    return views


def test_every_state_of_random_games_fits_the_closed_schema_for_every_viewer(contract: Contract) -> None:
    scenarios = [random_scenario(kind, seed) for kind in CATALOGUES for seed in range(GAMES_PER_KIND)]
    views = views_checked(RARE + scenarios, served_validator(contract.schema))
    assert views > GAMES_PER_KIND * 2 * 50, "the games were too short to say anything"


@pytest.mark.parametrize("component", ["PokerState", "ShedState", "PokerSeatState", "ShedSeatState", "PokerBattle"])
def test_the_served_state_components_are_closed(contract: Contract, component: str) -> None:
    assert contract.schema["components"]["schemas"][component]["additionalProperties"] is False


@pytest.mark.parametrize(("kind", "component"), [("palace-poker", "PokerSeatState"), ("palace", "ShedSeatState")])
def test_a_field_the_schema_lacks_fails(contract: Contract, kind: str, component: str) -> None:
    """Without ``resigned`` in a seat's component, the first state of a game no longer validates."""
    schema = copy.deepcopy(contract.schema)
    del schema["components"]["schemas"][component]["properties"]["resigned"]
    schema["components"]["schemas"][component]["required"].remove("resigned")
    state = GAMES[kind].view(GAMES[kind].new_game({}, 2), STAFF)
    with pytest.raises(AssertionError, match="resigned"):
        check(served_validator(schema), state, kind)
    check(served_validator(contract.schema), state, kind)
