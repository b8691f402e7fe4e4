"""Only the registries know the game kinds (issue 22, "one fact, one place"): nothing outside ``games/engine/``,
``games/engine/registry.py`` and ``web/registry.py`` compares a game's kind to a kind or branches on it.

Given every Python module and template of the project outside the engine, the tests and the benchmarks, when
each line is searched for a kind's name compared (``== "palace"``, ``"palace-poker" !=``, ``in ("palace",``) or
a game's ``kind`` compared to anything (``game.kind ==``, ``kind != ...`` on a game, a summary or a view), then
none is found: each game's parts are found through ``games.engine.registry.game_kind`` (and the web table
through ``web/registry.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = ("games/engine/", "tests/", "benchmarks/", ".venv/", "docs/")
KIND_NAMES = r"""["'](?:palace-poker|palace)["']"""
COMPARED_NAME = re.compile(rf"(?:==|!=|\bin\b\s*[(\[{{]?)\s*{KIND_NAMES}|{KIND_NAMES}\s*(?:==|!=)")
"""A kind's name compared, or tested for membership."""
COMPARED_KIND = re.compile(r"\b(?:game|detail|summary|view|replay|state)\.kind\s*(?:==|!=|\bin\b|\bnot in\b)")
"""A game's kind compared to anything (an option's, a mail's or a log entry's ``kind`` is another thing)."""


def sources() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT).as_posix()
        if path.suffix in (".py", ".html", ".txt") and not relative.startswith(SKIPPED) and path.is_file():
            found.append(path)
    return found


def test_no_module_or_template_outside_the_engine_compares_a_game_kind() -> None:
    files = sources()
    assert len(files) > 100, "the walk found the project's sources"
    hits = []
    for path in files:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if COMPARED_NAME.search(text) or COMPARED_KIND.search(text):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {text.strip()}")
    assert hits == []


def test_the_search_finds_what_it_looks_for() -> None:
    """The patterns above catch the branches this issue removed (games/admin.py, play_demo, _table.html)."""
    for line in (
        "if game.kind == SHEDDING:",
        'options = {} if kind == "palace-poker" else {}',
        '{% if game.kind == "palace-poker" %}',
        'if kind in ("palace", "x"):',
    ):
        assert COMPARED_NAME.search(line) or COMPARED_KIND.search(line), line
    for line in ("if option.kind == BOOL:", "if mail.kind == MailKind.CONFIRM:", 'if row.kind == "resign":'):
        assert not (COMPARED_NAME.search(line) or COMPARED_KIND.search(line)), line
