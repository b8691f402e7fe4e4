"""Assertions shared by the API tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is an error in the one shape (README, "Errors"), with this status and code; returns the body."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body


# --- the errors the schema documents ---


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with a ``$ref`` (alone, or the one item of an ``allOf``) followed to its component."""
    while True:
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
        elif len(node.get("allOf", ())) == 1:
            node = node["allOf"][0]
        else:
            return node


def operations_of(schema: dict[str, Any], path: str) -> dict[str, dict[str, Any]]:
    """``{method: operation}`` of the schema's path template that ``path`` (``/api/v1/games/7/``) matches; a
    segment in braces matches any one segment. ``{}`` if none does."""
    wanted = path.split("/")
    for template, operations in sorted(schema["paths"].items(), key=lambda item: item[0].count("{")):
        parts = template.split("/")
        if len(parts) == len(wanted) and all(
            part == segment or (part.startswith("{") and segment) for part, segment in zip(parts, wanted, strict=True)
        ):
            return {method: op for method, op in operations.items() if method not in ("parameters", "servers")}
    return {}


def documented_errors(schema: dict[str, Any], method: str, path: str) -> dict[int, dict[str, Any]]:
    """``{status: the error body's component}`` of every 4xx and 5xx the operation serving ``method`` on
    ``path`` documents, its ``code`` enum narrowed to the codes the response lists for this operation
    (``x-error-codes``: the component is shared by every operation, ``palace_api.errors.schema.errors_shared``)."""
    operation = operations_of(schema, path)[method.lower()]
    out = {}
    for status, response in operation["responses"].items():
        if status[0] not in "45":
            continue
        component = resolve(schema, response["content"]["application/json"]["schema"])
        if "x-error-codes" in response:
            code = {**component["properties"]["code"], "enum": response["x-error-codes"]}
            component = {**component, "properties": {**component["properties"], "code": code}}
        out[int(status)] = component
    return out


def documented_codes(schema: dict[str, Any], component: dict[str, Any]) -> list[str] | None:
    """The ``code`` enum of an error body's component; None where ``code`` is a free string."""
    return resolve(schema, component["properties"]["code"]).get("enum")


def assert_documented_error(schema: dict[str, Any], response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is this error (``assert_error``), and its operation documents it: the status, the code in
    that status's enum, and the body in that status's shape (every required field, no other). A 405 answers a
    method no operation of the path serves: every operation of the path must document it. Returns the body."""
    body = assert_error(response, status, code)
    method, path = response.request["REQUEST_METHOD"].lower(), response.request["PATH_INFO"]
    operations = operations_of(schema, path)
    assert operations, f"no operation documents {path}"
    methods = [method] if method in operations else list(operations) if status == 405 else []
    assert methods, f"{method.upper()} {path} has no operation and was answered {status}"
    for documented in methods:
        errors = documented_errors(schema, documented, path)
        assert status in errors, f"{documented.upper()} {path} does not document {status}: {sorted(errors)}"
        component = errors[status]
        assert code in (documented_codes(schema, component) or ()), (documented, path, status, code, component)
        assert set(component.get("required", ())) <= set(body) <= set(component["properties"]), (body, component)
    return body


@contextmanager
def database_unreachable() -> Iterator[None]:
    """Every query fails as it does when the database server is down (psycopg's ``OperationalError``, which
    Django re-raises as its own): for the 503 ``service_unavailable`` path, without stopping a server. The
    test's transaction is left for rollback; make no query of your own inside."""
    from unittest import mock

    from django.db import OperationalError
    from django.db.backends.utils import CursorWrapper

    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("connection to server failed: Connection refused")

    with mock.patch.object(CursorWrapper, "execute", down), mock.patch.object(CursorWrapper, "executemany", down):
        yield
