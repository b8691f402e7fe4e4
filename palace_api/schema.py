"""Post-processing of the OpenAPI schema (drf-spectacular's POSTPROCESSING_HOOKS)."""

from __future__ import annotations

from typing import Any


def token_schemes_either(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Make ``bearerAuth`` and ``tokenAuth`` alternatives, not both at once.

    ``players.auth.TokenScheme`` declares two schemes for one authenticator, and drf-spectacular lists the
    names of such an extension in one security requirement, which OpenAPI reads as "all of them". Either
    ``Authorization: Bearer <token>`` or ``Authorization: Token <token>`` does, so each gets a requirement of
    its own. Returns ``result``, changed in place.
    """
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "security" not in operation:
                continue
            split: list[dict[str, Any]] = []
            for requirement in operation["security"]:
                # An empty requirement ({}: no authentication needed) stays as it is.
                split.extend([{name: scopes} for name, scopes in requirement.items()] or [requirement])
            operation["security"] = split
    return result


def request_bodies_closed(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Mark every object a request body is made of ``additionalProperties: false``.

    Every input serializer is strict (``palace_api.serializers.StrictSerializer``: an unknown field is 400
    ``invalid``), and the rules refuse unknown options; the schema says so, so a client or a test generator
    does not take a body with extra fields for a valid one. Returns ``result``, changed in place.
    """
    roots = [
        content.get("schema")
        for operations in result.get("paths", {}).values()
        for operation in operations.values()
        if isinstance(operation, dict)
        for content in operation.get("requestBody", {}).get("content", {}).values()
    ]
    close_objects(result, roots)
    return result


CLOSED_COMPONENTS = ("GameState",)
"""Answers the schema closes: the engine's view of a game, whose every field is typed (``games.api.schema``);
tests/games/api/test_state_schema.py checks every view of random games against it, so a field the engine adds
without the schema fails there instead of reaching a generated client as an unknown key."""


def answers_closed(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Mark every object of the ``CLOSED_COMPONENTS`` ``additionalProperties: false``. Returns ``result``."""
    close_objects(result, [{"$ref": f"#/components/schemas/{name}"} for name in CLOSED_COMPONENTS])
    return result


def close_objects(result: dict[str, Any], roots: list[Any]) -> None:
    """Mark every object reachable from ``roots`` (schemas, ``$ref`` followed) ``additionalProperties: false``
    unless it says otherwise."""
    components = result.get("components", {}).get("schemas", {})
    pending: list[Any] = list(roots)
    seen: set[str] = set()
    while pending:
        schema = pending.pop()
        if isinstance(schema, list):
            pending.extend(schema)
            continue
        if not isinstance(schema, dict):
            continue
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                pending.append(components.get(name))
            continue
        if schema.get("type") == "object" and "properties" in schema:
            schema.setdefault("additionalProperties", False)
        pending.extend(schema.get("properties", {}).values())
        pending.extend(schema.get(key) for key in ("items", "oneOf", "anyOf", "allOf") if key in schema)
