"""Refusals in a player's words: the one place the pages turn a service's or the engine's error into a sentence.

The API answers ``{"code", "detail"}`` for programs; a person at the table should read neither a code nor a
version number. Codes a click can meet because the game moved under it (a bot or the other player acted first)
get a sentence of their own here, as do those whose own sentence speaks of seats or headers; every other refusal
keeps its service's or rule's own sentence, which already speaks of cards, chips and players.
"""

from __future__ import annotations

from games.engine.errors import EngineCode, EngineError
from palace_api.errors import ApplicationError, ErrorCode

RACE_WORDS = "Your opponent played meanwhile; here is the table now."
"""A click made on a table that moved before it arrived (``version_conflict``): the page shows the new table."""

PLAYER_WORDS: dict[str, str] = {
    ErrorCode.VERSION_CONFLICT: RACE_WORDS,
    ErrorCode.IDEMPOTENCY_KEY_REUSED: "That click was already made; here is the table now.",
    EngineCode.AWAITING_SHUFFLE: "The dealer is shuffling; here is the table now.",
    EngineCode.NO_SHUFFLE_DUE: "There is nothing to shuffle now; here is the table now.",
    EngineCode.NO_DECISION: "There is nothing for you to decide just now; here is the table now.",
}
"""Sentences by error code (the API's ``ErrorCode`` and the engine's ``EngineCode`` share one namespace of
snake_case strings)."""


def error_words(error: ApplicationError | EngineError) -> str:
    """What went wrong, for a person: the sentence ``PLAYER_WORDS`` has for the error's ``code``, else the
    service's ``detail`` or the engine's ``message`` (each a sentence of its own). Never raises."""
    words = PLAYER_WORDS.get(str(error.code))
    if words is not None:
        return words
    return error.detail if isinstance(error, ApplicationError) else error.message
