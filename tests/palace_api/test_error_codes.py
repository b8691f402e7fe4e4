"""Error codes come from the two enums only: ``games.engine.errors.EngineCode`` (the rules' refusals) and
``palace_api.errors.ErrorCode`` (the API's). A code written out as a string literal where an error is raised, or
where an operation's errors are documented, fails here with its file and line.

Walks the source of every product module (not tests, benchmarks or migrations) with ``ast``:

- a call to an exception class (a name ending in ``Error``, ``IllegalAction``, ``InvalidOptions``) whose first
  argument, or ``code=`` keyword, is a string literal shaped like a code (a message for people is not one);
- a string literal anywhere inside the arguments of ``error_responses(...)`` / ``no_content_responses(...)``, or
  inside a module-level constant those arguments name (``CONFLICTS = ("game_finished", ...)``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from games.engine.errors import ACTION_CODES, INTERNAL_CODES, OPTION_CODES, EngineCode
from palace_api.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[2]
ENUM_MODULES = {"games/engine/errors.py", "palace_api/errors/codes.py"}
RAISERS = ("Error", "IllegalAction", "InvalidOptions")
DOCUMENTERS = {"error_responses", "no_content_responses"}


def product_modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(ROOT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith((".", "tests/", "benchmarks/", "build/")) or "/migrations/" in name:
            continue
        if name in ENUM_MODULES:
            continue
        yield name, ast.parse(path.read_text(), filename=name)


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


DJANGO_CODES = {"invalid_choice", "required"}
"""Codes of Django's own form fields, which a page's form keeps so that Django's messages for them still apply."""


def _literal_code(node: ast.AST | None) -> bool:
    """A string literal shaped like a code (``game_finished``), not a message for people."""
    if not _literal(node):
        return False
    value = node.value  # type: ignore[union-attr]
    return value.isidentifier() and value == value.lower() and value not in DJANGO_CODES


def literal_raises(tree: ast.Module) -> Iterator[int]:
    """Lines where an exception is built with a literal code."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node).endswith(RAISERS):
            code = next((kw.value for kw in node.keywords if kw.arg == "code"), None)
            if (node.args and _literal_code(node.args[0])) or _literal_code(code):
                yield node.lineno


def literal_documented(tree: ast.Module) -> Iterator[int]:
    """Lines where an operation's documented codes hold a literal string."""
    constants = {
        target.id: statement.value
        for statement in tree.body
        if isinstance(statement, ast.Assign)
        for target in statement.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _called(node) in DOCUMENTERS):
            continue
        # The first argument of error_responses is the operation's name; of no_content_responses, also its text.
        skip = 2 if _called(node) == "no_content_responses" else 1
        pending: list[ast.AST] = [*node.args[skip:], *(kw.value for kw in node.keywords)]
        seen: set[str] = set()
        while pending:
            part = pending.pop()
            for inner in ast.walk(part):
                if _literal(inner):
                    yield inner.lineno
                elif isinstance(inner, ast.Name) and inner.id in constants and inner.id not in seen:
                    seen.add(inner.id)
                    pending.append(constants[inner.id])


def test_no_error_code_is_written_out_as_a_literal() -> None:
    found = [
        f"{name}:{line}"
        for name, tree in product_modules()
        for line in sorted({*literal_raises(tree), *literal_documented(tree)})
    ]
    assert found == [], "error codes written as literals instead of EngineCode/ErrorCode members"


def test_the_walk_finds_a_literal_code_where_there_is_one() -> None:
    tree = ast.parse(
        'CONFLICTS = ("game_finished",)\n'
        'def f():\n    raise ConflictError("game_finished", "over")\n'
        'X = error_responses("op", {409: CONFLICTS})\n'
        'Y = error_responses("op", {400: (ErrorCode.INVALID,)})\n'
    )
    assert list(literal_raises(tree)) == [3]
    assert list(literal_documented(tree)) == [1]


def test_the_enums_hold_distinct_snake_case_codes() -> None:
    for enum in (EngineCode, ErrorCode):
        values = [member.value for member in enum]
        assert len(values) == len(set(values))
        assert all(value.isidentifier() and value == value.lower() for value in values)
    assert set(ACTION_CODES).isdisjoint(OPTION_CODES)
    assert len(ACTION_CODES) == len(set(ACTION_CODES))
    assert set(ACTION_CODES) | OPTION_CODES | INTERNAL_CODES == set(EngineCode)
