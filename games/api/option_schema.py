"""Each game's options in the OpenAPI schema, made from the engine's ``OPTION_FIELDS`` (the web form's source too).

``option_fields(kind, given=...)`` gives serializer fields for ``games.api.schema``'s ``PokerOptions``,
``ShedOptions`` and their ``...Input``: each option's type, bounds, choices, help and, where the engine's default
is one value, that default. ``BotNameField`` types a bot's name as the bots the engine's registry holds.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine.bots import bot_names
from games.engine.errors import EngineError
from games.engine.option_fields import BOOL, INT, SEAT, OptionField
from games.engine.poker.options import MAX_SEATS, MIN_SEATS
from games.engine.registry import GAMES

__all__ = ["MAX_SEATS", "SEAT_NUMBER", "BotNameField", "option_fields"]

SEAT_NUMBER = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}
BOT_NAMES = sorted({name for kind in GAMES for name in bot_names(kind)})
"""Every bot a game of some kind may seat (``games.engine.bots``), as the schema's enum of a bot's name."""
_NO_DEFAULT = object()


def _fixed_defaults(kind: str) -> dict[str, Any]:
    """The options of ``kind`` whose default is one value, by name: the engine's default (``normalize_options``
    of nothing) where it stays the same whatever the seats and whatever any other option is set to (its bounds,
    each choice). A default that follows them (the big bet, twice the small bet) is left out: a client that
    sent it would override what the engine derives."""
    game = GAMES[kind]
    fixed = game.normalize_options({}, MIN_SEATS)
    probes: list[tuple[dict[str, Any], int]] = [({}, seats) for seats in range(MIN_SEATS + 1, MAX_SEATS + 1)]
    for option in game.option_fields:
        values = [True] if option.kind == BOOL else [0, 1] if option.kind == SEAT else [option.low, option.high]
        values += list(option.choices)
        probes += [({option.name: value}, MAX_SEATS) for value in values if value is not None]
    for raw, seats in probes:
        try:
            probed = game.normalize_options(raw, seats)
        except EngineError:  # an inconsistent probe says nothing
            continue
        fixed = {name: value for name, value in fixed.items() if name in raw or probed[name] == value}
    return fixed


def _option_field(option: OptionField, default: Any, *, given: bool) -> serializers.Field:
    """One option (``games.engine.option_fields``) as a serializer field; ``given``: as a client sends it (not
    required, with ``default`` unless it is ``_NO_DEFAULT``), else as a game shows it."""
    kwargs: dict[str, Any] = {"help_text": (option.help[:1].upper() + option.help[1:] or option.label) + "."}
    if option.optional:
        kwargs.update(allow_null=True, help_text=f"{kwargs['help_text']} Null: {option.null_means}.")
    if given:
        kwargs["required"] = False
        if default is not _NO_DEFAULT and default is not None:
            kwargs["default"] = default
    if option.kind == BOOL:
        return serializers.BooleanField(**kwargs)
    if option.kind == INT:
        return serializers.IntegerField(min_value=option.low, max_value=option.high, **kwargs)
    if option.kind == SEAT:
        return serializers.IntegerField(min_value=0, max_value=MAX_SEATS - 1, **kwargs)
    if option.seat_allowed:
        return extend_schema_field(
            {"oneOf": [{"type": "string", "enum": list(option.choices)}, {**SEAT_NUMBER, "description": "A seat."}]}
        )(type("RuleOrSeatField", (serializers.JSONField,), {}))(**kwargs)
    return serializers.ChoiceField(choices=list(option.choices), **kwargs)


def option_fields(kind: str, *, given: bool) -> dict[str, serializers.Field]:
    """Every option of ``kind``, from the engine's ``option_fields``: ``given``, as a client sends them (each
    optional, with its default where it has one of its own), else as a game shows them (each present)."""
    defaults = _fixed_defaults(kind)
    return {
        option.name: _option_field(option, defaults.get(option.name, _NO_DEFAULT), given=given)
        for option in GAMES[kind].option_fields
    }


@extend_schema_field({"type": "string", "enum": [*BOT_NAMES, None], "nullable": True})
class BotNameField(serializers.CharField):
    """A bot's name: in the schema one of ``BOT_NAMES``; the services check it against the game's kind."""
