"""A small TOML writer for the exports written as TOML (``games.engine.poker.phh``): the standard library reads
TOML (``tomllib``) but does not write it, and these documents need only a few of its types.

``value(v)``: one value as TOML text; ``table(name, fields)``: ``[name]`` and one ``key = value`` line per field.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_LITERAL_SAFE = re.compile(r"^[^'\x00-\x1f\x7f]*$")


def key(name: str) -> str:
    """A key as TOML writes it: bare if it may be, else quoted."""
    return name if _BARE_KEY.match(name) else string(name)


def string(text: str) -> str:
    """A string: literal (``'...'``, nothing escaped, easier to read) when it holds no ``'`` and no control
    character, else basic (``"..."``), escaped as JSON escapes it (every JSON escape is a TOML one)."""
    return f"'{text}'" if _LITERAL_SAFE.match(text) else json.dumps(text, ensure_ascii=False)


def value(item: Any) -> str:
    """``item`` as a TOML value: a bool, int, str, ``datetime.time`` (a local time), a sequence (an array), or a
    mapping (an inline table, its ``None`` values left out: TOML has no null). Raises ``TypeError`` for any
    other type (a float included: the exports hold whole chips)."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        return string(item)
    if isinstance(item, datetime.time):
        return item.isoformat()
    if isinstance(item, Mapping):
        pairs = ", ".join(f"{key(str(name))} = {value(part)}" for name, part in item.items() if part is not None)
        return "{" + pairs + "}"
    if isinstance(item, Sequence):
        return "[" + ", ".join(value(part) for part in item) + "]"
    raise TypeError(f"no TOML form for {type(item).__name__}")


def table(name: str, fields: Mapping[str, Any], *, multiline: Sequence[str] = ()) -> str:
    """``[name]`` then ``key = value`` for each field that is not ``None``, in order; the arrays named in
    ``multiline`` one element a line (long lists of actions read better so)."""
    lines = [f"[{key(name)}]"]
    for name_, item in fields.items():
        if item is None:
            continue
        if name_ in multiline and item:
            lines.append(f"{key(name_)} = [")
            lines.extend(f"  {value(part)}," for part in item)
            lines.append("]")
        else:
            lines.append(f"{key(name_)} = {value(item)}")
    return "\n".join(lines) + "\n"
