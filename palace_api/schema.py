"""The OpenAPI schema: the view that serves it (``SchemaView``) and its post-processing (drf-spectacular's
POSTPROCESSING_HOOKS)."""

from __future__ import annotations

import threading
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

_documents: dict[tuple[str | None, str | None], dict[str, Any]] = {}
_documents_lock = threading.Lock()


class SchemaView(SpectacularAPIView):
    """``GET /api/schema/``: drf-spectacular's view, with the document generated once per process.

    Generating it walks every view and serializer of the API (about 4 s of CPU here), and it depends on the code
    and the settings alone: it is generated without the request, as ``manage.py spectacular`` does, so every
    caller, anonymous or staff, reads the same document (``public`` as drf-spectacular's default). Kept per API
    version and language until a setting changes (tests) or the process ends (a deploy starts new ones); YAML or
    JSON is still chosen per request by content negotiation. A request that finds no document generates it, one
    at a time, so a burst of first readers costs one generation.
    """

    def _get_schema_response(self, request: Request) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (version, translation.get_language())
        document = _documents.get(key)
        if document is None:
            with _documents_lock:
                document = _documents.get(key)
                if document is None:
                    generator = self.generator_class(urlconf=self.urlconf, api_version=version, patterns=self.patterns)
                    document = _documents[key] = generator.get_schema(request=None, public=self.serve_public)
        filename = self._get_filename(request, version)
        return Response(data=document, headers={"Content-Disposition": f'inline; filename="{filename}"'})


SCHEMA_SETTINGS = frozenset(
    {"SPECTACULAR_SETTINGS", "REST_FRAMEWORK", "ROOT_URLCONF", "INSTALLED_APPS", "LANGUAGE_CODE", "LANGUAGES"}
)
"""The settings the document is made from: a test that changes one gets a new document when it asks."""


@receiver(setting_changed)
def _forget_documents(*, setting: str, **kwargs: Any) -> None:
    if setting in SCHEMA_SETTINGS:
        _documents.clear()


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
