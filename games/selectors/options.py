"""The options a game kind accepts, as data for forms (the engine's own definitions)."""

from __future__ import annotations

from typing import Any

from games.bot_levels import BOT_LEVELS, bot_level
from games.engine.bots import bot_names as engine_bot_names
from games.engine.option_fields import OptionField
from games.engine.registry import GAMES, get_game


def game_kinds() -> list[str]:
    """Every kind of game the server plays."""
    return sorted(GAMES)


def option_fields(kind: str) -> tuple[OptionField, ...]:
    """The options of ``kind``, as ``normalize_options`` checks them; raises ``EngineError("unknown_kind")``."""
    return get_game(kind).option_fields


def option_defaults(kind: str, *, seats: int = 2) -> dict[str, Any]:
    """Every option of ``kind`` at its default for a table of ``seats``."""
    return get_game(kind).normalize_options({}, seats)


def bot_names(kind: str) -> list[str]:
    """The bots a creator may seat at a game of ``kind``."""
    return engine_bot_names(kind)


def bot_choices(kind: str) -> list[dict[str, str]]:
    """The bots of ``kind`` as levels for a form, weakest first (``games.bot_levels``): ``{"name", "level"}``, the
    level a sentence about the bot."""
    names = engine_bot_names(kind)
    ordered = [name for name in BOT_LEVELS if name in names] + [name for name in names if name not in BOT_LEVELS]
    return [{"name": name, "level": bot_level(name)} for name in ordered]
