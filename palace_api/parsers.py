"""The API's one parser: JSON, with a bound on nesting."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from palace_api.errors.codes import ErrorCode

MAX_JSON_DEPTH = 32
"""Arrays and objects nested deeper than this are refused (400 ``nesting_too_deep``): no request of the API
nests more than a few levels, and a deep body would otherwise cost recursion in parsing and validation."""


def json_depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing bodies nested deeper than ``MAX_JSON_DEPTH`` with 400 ``nesting_too_deep``
    (Python's decoder would raise RecursionError, a 500, for a few hundred levels), and any other body that is
    not JSON with 400 ``malformed_json``."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            data = None
            depth = MAX_JSON_DEPTH + 1
        else:
            depth = json_depth(data)
        if depth > MAX_JSON_DEPTH:
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.", code=ErrorCode.NESTING_TOO_DEEP)
        return data
