"""The TOML writer of the exports (``games.engine.toml_text``): what it writes, ``tomllib`` reads back the same."""

from __future__ import annotations

import datetime
import tomllib

import pytest

from games.engine import toml_text


def test_values_and_tables_read_back_as_written() -> None:
    fields = {
        "plain": "p1 cbr 5 # bet",
        "quoted": 'it\'s "x" \\ \n\t\u00e9',
        "number": 12,
        "flag": False,
        "time": datetime.time(1, 2, 3),
        "cards": [["7c"], []],
        "inline": {"a": 1, "b": None, "c": "d"},
        "left out": None,
        "actions": ["one", "two"],
    }
    text = toml_text.table("1", fields, multiline=("actions",))
    assert "'p1 cbr 5 # bet'" in text, "a string with nothing to escape is literal"
    assert "actions = [\n  'one',\n  'two',\n]" in text
    expected = {key: value for key, value in fields.items() if value is not None}
    expected["inline"] = {"a": 1, "c": "d"}
    assert tomllib.loads(text) == {"1": expected}


def test_a_value_toml_cannot_hold_here_is_refused() -> None:
    with pytest.raises(TypeError):
        toml_text.value(1.5)
