"""Each game's event catalogue (games/engine/event_fields.py; games/engine/*/events.py) is well formed: each type
once, each field and group once with a known kind, choices exactly where a field is a choice, and no data field
named like a key ``Event.view_json`` sets itself. Whether a catalogue is what its game emits is
tests/games/api/test_event_schema.py's to check, from random games."""

from __future__ import annotations

import pytest

from games.engine.event_fields import CHOICE, FIELD_KINDS, SEAT_KINDS, SHOWN, EventSpec
from games.engine.poker.events import EVENTS as POKER_EVENTS
from games.engine.shedding.events import EVENTS as SHED_EVENTS

CATALOGUES = {"palace-poker": POKER_EVENTS, "palace": SHED_EVENTS}
RESERVED = {"type", "seat", "cards", "unseen", "hand_names", "visible_to"}
"""The keys of an event in the API's shape that are not its data (``games.engine.protocol.Event.view_json``)."""


@pytest.mark.parametrize("kind", CATALOGUES)
def test_each_type_fields_and_groups_once_with_known_kinds(kind: str) -> None:
    specs: tuple[EventSpec, ...] = CATALOGUES[kind]
    types = [spec.type for spec in specs]
    assert len(set(types)) == len(types)
    for spec in specs:
        names = [field.name for field in spec.fields]
        groups = [group.name for group in spec.groups]
        assert len(set(names)) == len(names) and len(set(groups)) == len(groups), spec.type
        assert not set(names) & RESERVED, spec.type
        assert spec.seat in SEAT_KINDS and spec.doc and spec.seat_doc, spec.type
        for field in spec.fields:
            assert field.kind in FIELD_KINDS and field.doc, (spec.type, field.name)
            assert bool(field.choices) == (field.kind == CHOICE), (spec.type, field.name)
            assert len(set(field.choices)) == len(field.choices), (spec.type, field.name)
        assert all(group.shown in SHOWN and group.doc for group in spec.groups), spec.type
