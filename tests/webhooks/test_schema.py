"""The webhooks API in the OpenAPI document: generated without warnings, each operation with its shapes."""

from __future__ import annotations

import pytest

OPERATIONS = {
    ("/api/v1/me/webhooks/", "get", "200"),
    ("/api/v1/me/webhooks/", "post", "201"),
    ("/api/v1/me/webhooks/{webhook_id}/", "delete", "204"),
    ("/api/v1/me/webhooks/{webhook_id}/ping/", "post", "202"),
    ("/api/v1/me/webhooks/{webhook_id}/deliveries/", "get", "200"),
}


@pytest.fixture
def schema(openapi) -> dict:
    """The document, checked valid and generated without warnings (tests/conftest.py ``openapi_text``)."""
    return openapi


def test_every_webhooks_operation_has_its_shapes_and_errors(schema):
    for path, method, success in OPERATIONS:
        responses = schema["paths"][path][method]["responses"]
        assert success in responses, (path, method)
        assert "401" in responses and "429" in responses, (path, method)
        if success != "204":
            assert "content" in responses[success], (path, method)
    created = schema["components"]["schemas"]["EndpointCreatedOutput"]["properties"]
    assert {"id", "url", "events", "secret", "enabled", "disabled_reason"} <= set(created)
    assert "secret" not in schema["components"]["schemas"]["EndpointOutput"]["properties"]


def test_the_registration_body_states_the_url_scheme_and_takes_no_other_field(schema):
    body = schema["components"]["schemas"]["EndpointCreateInput"]
    url = body["properties"]["url"]
    assert url["type"] == "string" and url["pattern"] == "^https?://" and url["maxLength"] == 2000
    assert body["additionalProperties"] is False
    preferences = schema["components"]["schemas"]["PatchedPreferencesInput"]["properties"]
    assert preferences["turn"] == {"type": "boolean", "description": preferences["turn"]["description"]}
