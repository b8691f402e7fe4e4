"""Each game kind's table: the one place that names both games (no template or view branches on the kind)."""

from __future__ import annotations

from web.poker.table import TABLE as POKER
from web.shedding.table import TABLE as SHEDDING
from web.tables import TableKind

TABLES: dict[str, TableKind] = {"palace-poker": POKER, "palace": SHEDDING}


def table_kind(kind: str) -> TableKind:
    """The table of the game kind ``kind``."""
    return TABLES[kind]
