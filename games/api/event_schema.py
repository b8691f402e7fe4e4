"""The log's engine events in the OpenAPI schema: one component per event type, made from each game's catalogue.

Each game lists what its events carry as data (``games.engine.poker.events.EVENTS``,
``games.engine.shedding.events.EVENTS``; ``games.engine.event_fields``). This module turns every ``EventSpec``
into a component in the shape ``games.engine.protocol.Event.view_json`` gives a viewer: ``type`` (an enum of
its one value), ``seat``, its data fields with their types, and the card groups it may carry under ``cards``,
``unseen``, ``hand_names`` and staff's ``visible_to``. ``GameEvent`` is their ``oneOf``, discriminated by
``type``; a log entry's ``events`` is a list of it (``games.api.schema.GameEventsField``).

A type only one game emits is ``<Game><Type>Event`` (``PokerBetEvent``, ``ShedPlayEvent``). A type both emit
alike is one shared ``<Type>Event`` (``DealerCardEvent``); alike but for the values a field may take (a
shuffle's ``purpose``), one shared component whose enums hold every game's values. A type the games shape
differently (``resigned``: chips or cards left) gets a component per game and a ``<Type>Event`` that is their
``oneOf``, told apart by the fields each requires.

The components are added by ``add_event_components``, a drf-spectacular postprocessing hook
(``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``). tests/games/api/test_event_schema.py checks every event of random
games of both kinds, as each viewer gets it, against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from games.api.schema import CARD, GAME_EVENT, MAYBE_CARD
from games.engine import event_fields as ef
from games.engine.event_fields import EventField, EventSpec, GroupField
from games.engine.poker.events import EVENTS as POKER_EVENTS
from games.engine.shedding.events import EVENTS as SHED_EVENTS

CATALOGUES: dict[str, tuple[EventSpec, ...]] = {"Poker": POKER_EVENTS, "Shed": SHED_EVENTS}
"""Each game's event catalogue, by the prefix of its components' names (as ``PokerState`` and ``ShedState``)."""

_SEAT = {"type": "integer", "minimum": 0, "maximum": 9}
_COUNT = {"type": "integer", "minimum": 0}
_FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    ef.INT: _COUNT,
    ef.SEAT: _SEAT,
    ef.SEATS: {"type": "array", "items": _SEAT},
    ef.INTS: {"type": "array", "items": _COUNT},
    ef.PER_SEAT: {"type": "object", "additionalProperties": _COUNT},
    ef.BOOL: {"type": "boolean"},
    ef.TEXT: {"type": "string"},
    ef.CHOICE: {"type": "string"},
}
_SEAT_SCHEMAS: dict[str, dict[str, Any]] = {
    ef.SEATED: _SEAT,
    # OpenAPI 3.0 has no null type: a nullable integer whose only value is null.
    ef.NO_SEAT: {"type": "integer", "nullable": True, "enum": [None]},
    ef.MAYBE_SEATED: {**_SEAT, "nullable": True},
}
# A card code to whoever may see the group, null per card to whoever may not (staff see every group).
_CARD_ITEMS = {ef.PUBLIC: CARD, ef.PRIVATE: MAYBE_CARD, ef.EITHER: MAYBE_CARD, ef.STAFF_ONLY: CARD}
_ALL = {"type": "string", "enum": ["all"], "description": "Every viewer."}
_SEAT_LIST = {"type": "array", "items": _SEAT, "minItems": 1, "description": "Only these seats (and staff)."}
_VISIBLE_TO: dict[str, dict[str, Any]] = {
    ef.PUBLIC: _ALL,
    ef.PRIVATE: _SEAT_LIST,
    ef.EITHER: {"oneOf": [_ALL, _SEAT_LIST]},
    ef.STAFF_ONLY: {"type": "array", "items": _SEAT, "maxItems": 0, "description": "Staff alone."},
}


def _object(properties: dict[str, Any], required: Iterable[str], description: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "description": description, "properties": properties}
    required = list(required)
    if required:  # OpenAPI 3.0: a `required` list is never empty
        out["required"] = required
    return out


def _field_schema(field: EventField) -> dict[str, Any]:
    schema = {**_FIELD_SCHEMAS[field.kind], "description": field.doc}
    if field.choices:
        schema["enum"] = list(field.choices)
    return schema


def _group_properties(groups: tuple[GroupField, ...]) -> dict[str, dict[str, Any]]:
    """``cards``, ``unseen``, ``hand_names`` and ``visible_to``, each where the groups can give it."""
    out: dict[str, dict[str, Any]] = {}
    if not groups:
        return out
    out["cards"] = _object(
        {
            group.name: {"type": "array", "items": _CARD_ITEMS[group.shown], "description": group.doc}
            for group in groups
        },
        # A group no player sees is left out of a player's `cards` (counted in `unseen`); staff get it.
        [group.name for group in groups if group.required and group.shown != ef.STAFF_ONLY],
        'Card groups: a list of card codes each, `null` per card you may not see: `{"cards": ["As", null]}`.',
    )
    hidden = [group for group in groups if group.shown == ef.STAFF_ONLY]
    if hidden:
        out["unseen"] = _object(
            {group.name: {**_COUNT, "description": f"Cards in `{group.name}` (listed to staff)."} for group in hidden},
            [group.name for group in hidden if group.required],
            "To all but staff: the groups no player sees, as their sizes in cards instead of lists.",
        )
    named = [group for group in groups if group.named]
    if named:
        out["hand_names"] = _object(
            {group.name: {"type": "string", "description": "The hand's name, e.g. `three queens`."} for group in named},
            [],
            "Hand names of the groups you may see that carry one.",
        )
    out["visible_to"] = _object(
        {group.name: _VISIBLE_TO[group.shown] for group in groups},
        [group.name for group in groups if group.required],
        'Staff only: who may see each group, `"all"` or the seats (none: staff alone).',
    )
    return out


def event_component(spec: EventSpec) -> dict[str, Any]:
    """The OpenAPI schema (3.0, a plain dict) of the events of ``spec``'s type, as any viewer gets them."""
    properties: dict[str, Any] = {
        "type": {"type": "string", "enum": [spec.type]},
        "seat": {**_SEAT_SCHEMAS[spec.seat], "description": spec.seat_doc},
    }
    properties.update({field.name: _field_schema(field) for field in spec.fields})
    properties.update(_group_properties(spec.groups))
    required = ["type", "seat", *(field.name for field in spec.fields if not field.optional)]
    if any(group.required and group.shown != ef.STAFF_ONLY for group in spec.groups):
        required.append("cards")
    return _object(properties, required, spec.doc)


def _component_name(type_: str, prefix: str = "") -> str:
    return prefix + "".join(part.capitalize() for part in type_.split("_")) + "Event"


def _without_choices(spec: EventSpec) -> EventSpec:
    return replace(spec, fields=tuple(replace(field, choices=()) for field in spec.fields))


def _merged(specs: list[EventSpec]) -> EventSpec | None:
    """One spec for ``specs`` (one type, several games) that differ at most in their choices, with every
    game's choices (in order, first seen first); ``None`` if they differ otherwise."""
    if len({_without_choices(spec) for spec in specs}) > 1:
        return None
    fields = []
    for index, field in enumerate(specs[0].fields):
        choices = dict.fromkeys(choice for spec in specs for choice in spec.fields[index].choices)
        fields.append(replace(field, choices=tuple(choices)))
    return replace(specs[0], fields=tuple(fields))


def event_components(catalogues: Mapping[str, tuple[EventSpec, ...]] = CATALOGUES) -> dict[str, dict[str, Any]]:
    """Every event component by name, ``GameEvent`` (the ``oneOf`` discriminated by ``type``) included.

    ``catalogues``: each game's ``EVENTS`` by the prefix of its components' names.
    """
    by_type: dict[str, dict[str, EventSpec]] = {}
    for prefix, specs in catalogues.items():
        for spec in specs:
            if prefix in by_type.get(spec.type, {}):
                raise ValueError(f"the {prefix} catalogue lists {spec.type!r} twice")
            by_type.setdefault(spec.type, {})[prefix] = spec
    components: dict[str, dict[str, Any]] = {}
    mapping: dict[str, str] = {}
    for type_, per_game in by_type.items():
        shared = _merged(list(per_game.values()))
        name = _component_name(type_, "" if len(per_game) > 1 else next(iter(per_game)))
        if shared is not None:
            components[name] = event_component(shared)
        else:
            variants = []
            for prefix, spec in per_game.items():
                components[_component_name(type_, prefix)] = event_component(spec)
                variants.append({"$ref": f"#/components/schemas/{_component_name(type_, prefix)}"})
            components[name] = {
                "oneOf": variants,
                "description": f"`{type_}`, shaped by the game: "
                + ", ".join(f"`{_component_name(type_, prefix)}`" for prefix in per_game),
            }
        mapping[type_] = f"#/components/schemas/{name}"
    components[GAME_EVENT] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": "One thing that happened, typed by `type`: a component per event type of either game.",
    }
    return components


def add_event_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add ``event_components()`` to the schema's components (sorted by
    name, as drf-spectacular sorts its own). Returns ``result``, changed in place."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    events = event_components()
    clash = set(schemas) & set(events)
    if clash:
        raise ValueError(f"event components clash with serializer components: {sorted(clash)}")
    schemas.update(events)
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result
