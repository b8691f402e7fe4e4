"""The bots people may seat, as levels: what each is and how long it thinks, in one place for the API's schema,
the table page and the worker's routing (``SLOW_BOTS``: their moves take the slow queue, README "Bot levels").

The bots themselves are in ``games.engine.bots`` (found by ``get_bot(kind, name)``); this module only describes
them. ``search``'s time per decision is the engine's own default budget (``DEFAULT_SECONDS``).
"""

from __future__ import annotations

from games.engine.bots.search import DEFAULT_SECONDS

SEARCH_MS = round(DEFAULT_SECONDS * 1000)
"""Milliseconds the ``search`` bot thinks per decision (its budget; one legal action is answered at once)."""

BOT_LEVELS: dict[str, str] = {
    "random": "Random: a legal move picked at random, at once. For tests and beginners.",
    "basic": "Basic: plays by a few rules of thumb, at once (a few milliseconds a move).",
    "search": (
        f"Search: deals the cards it cannot see many ways and plays each candidate out, about {SEARCH_MS} ms "
        "a move. The strongest level; it also reviews finished games."
    ),
}
"""Each bot's name and a sentence about it, weakest first."""

SLOW_BOTS = frozenset({"search"})
"""Bots whose moves take long enough to hold up a worker: they run on the slow queue (``SLOW_TASK_QUEUE``)."""


def bot_levels_markdown() -> str:
    """The levels as one Markdown list, for the API's schema (``SeatInput.bot``)."""
    return "\n".join(f"- `{name}`: {text}" for name, text in BOT_LEVELS.items())


def bot_level(name: str) -> str:
    """The sentence about bot ``name`` (the name itself for a bot without one)."""
    return BOT_LEVELS.get(name, name)
