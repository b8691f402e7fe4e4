"""The bad values the input walks (tests/games/api/test_input_bounds.py, tests/web/test_input_bounds.py) put in every
header, query parameter, form field and body field the project reads, one at a time; and the tally they keep."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

BAD_VALUES = {
    "over-long": "x" * 10_000,
    # Python's int() refuses strings of more than 4,300 digits (a ValueError of its own, not a bad literal).
    "over-long number": "9" * 10_000,
    "empty": "",
    "non-ASCII": "Ωmega é",
    "NUL": "a\x00b",
}
"""Label -> value. Each is bad for every input the project reads: no header, parameter or field takes 10,000
characters, none may be empty once sent, none is anything but ASCII."""


def as_header(value: str) -> str:
    """``value`` as a server hands a header to Django: its UTF-8 bytes read as Latin-1 (WSGI and ASGI alike)."""
    return value.encode().decode("latin-1")


@dataclass
class Tally:
    """Every answer of a walk by status, and the requests answered otherwise than required (``failures``)."""

    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def record(self, status: int, what: str, problem: str | None) -> None:
        self.statuses[status] += 1
        if problem is not None:
            self.failures.append(f"{what}: {problem}")

    def summary(self) -> str:
        fivexx = sum(count for status, count in self.statuses.items() if status >= 500)
        by_status = dict(sorted(self.statuses.items()))
        return f"{sum(self.statuses.values())} requests, {fivexx} x 5xx, by status {by_status}"
