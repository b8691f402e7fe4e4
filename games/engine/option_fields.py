"""What each option of a game is, as data: a form, a schema or a document can be generated from it.

Each game's ``options`` module lists its ``OPTION_FIELDS`` beside the dataclass ``parse_options`` fills, naming
the same choice tuples and bounds ``parse_options`` checks (tests/games/engine/test_option_fields.py holds them
together), so a form built from these fields offers what the engine accepts and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

BOOL = "bool"
INT = "int"
CHOICE = "choice"
SEAT = "seat"
KINDS = (BOOL, INT, CHOICE, SEAT)


@dataclass(frozen=True, slots=True)
class OptionField:
    """One option of a game.

    ``kind``: ``"bool"``, ``"int"`` (from ``low`` to ``high``), ``"choice"`` (one of ``choices``; with
    ``seat_allowed`` a seat number too) or ``"seat"`` (0 to seats - 1). ``optional``: ``None`` is accepted
    and means ``null_means``; an option left out takes the engine's default, as ``parse_options`` decides
    it (some defaults follow other options: the big bet is twice the small bet). ``label`` and ``help``
    are for people.
    """

    name: str
    kind: str
    label: str
    help: str = ""
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    optional: bool = False
    null_means: str = ""
    seat_allowed: bool = False
