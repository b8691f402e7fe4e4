"""The shared input serializer (``games.api.serializers.validated``) validates as a fresh serializer does: the same
data for a good body, the same ``ValidationError`` for a bad one, and nothing of one body carried to the next."""

from __future__ import annotations

import pytest
from rest_framework.exceptions import ValidationError

from games.api.serializers import ActionInput, validated

BODIES = [
    {"type": "bet", "target": 1, "amount": 5, "expected_version": 12},
    {"type": "play", "cards": ["As", "Td"]},
    {"type": "stay"},
    {"type": "discard", "cards": []},
    {"type": "bet", "amount": None, "target": None, "expected_version": None},
    {"type": "bet", "amount": "5"},
    {"type": "bet", "amount": "five"},
    {"type": "play", "cards": "As"},
    {"type": "play", "cards": [1, 2]},
    {"type": "stay", "expected_version": -1},
    {"type": "stay", "colour": "red"},
    {"type": None},
    {"type": ["bet"]},
    {},
    [],
    ["type", "bet"],
    "bet",
    None,
    7,
]


def fresh(body: object) -> tuple[str, object]:
    serializer = ActionInput(data=body)
    try:
        serializer.is_valid(raise_exception=True)
    except ValidationError as error:
        return "refused", error.detail
    return "valid", dict(serializer.validated_data)


def shared(body: object) -> tuple[str, object]:
    try:
        return "valid", validated(ActionInput, body)
    except ValidationError as error:
        return "refused", error.detail


@pytest.mark.parametrize("body", BODIES, ids=[repr(body) for body in BODIES])
def test_a_body_validates_on_the_shared_serializer_as_on_a_fresh_one(body: object) -> None:
    assert shared(body) == fresh(body)


def test_bodies_in_turn_leave_nothing_to_the_next() -> None:
    kinds = set()
    for body in BODIES * 3:
        outcome = shared(body)
        kinds.add(outcome[0])
        assert outcome == fresh(body), body
    assert kinds == {"valid", "refused"}
    first = validated(ActionInput, {"type": "discard"})
    first["cards"].append("As")  # a caller's change to its data is not the next body's default
    assert validated(ActionInput, {"type": "discard"})["cards"] == []
