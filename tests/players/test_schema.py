"""The players API in the OpenAPI schema (/api/schema/): bodies, errors, the knox token scheme."""

from __future__ import annotations

import pytest

REGISTER = "/api/v1/players/"
TOKEN = "/api/v1/auth/token/"  # noqa: S105  (a path)
LOGOUT = "/api/v1/auth/logout/"
ME = "/api/v1/me/"


@pytest.fixture
def schema(api_client) -> dict:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return response.json()


def component(schema: dict, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def body_schema(schema: dict, content_holder: dict) -> dict:
    return component(schema, content_holder["content"]["application/json"]["schema"]["$ref"])


@pytest.mark.parametrize(
    ("path", "method", "request_fields", "status", "response_fields"),
    [
        (REGISTER, "post", {"name"}, "201", {"id", "name", "token"}),
        (TOKEN, "post", {"username", "password"}, "200", {"token", "expiry", "user"}),
        (ME, "get", None, "200", {"id", "name", "is_staff", "kind"}),
    ],
)
def test_schema_documents_request_and_response_bodies(
    schema, path, method, request_fields, status, response_fields
) -> None:
    operation = schema["paths"][path][method]
    if request_fields is not None:
        assert set(body_schema(schema, operation["requestBody"])["properties"]) == request_fields
    assert set(body_schema(schema, operation["responses"][status])["properties"]) == response_fields


def test_schema_documents_errors_in_the_one_shape(schema) -> None:
    responses = schema["paths"][REGISTER]["post"]["responses"]
    assert {"code", "detail"} <= set(body_schema(schema, responses["409"])["properties"])
    assert "errors" in body_schema(schema, responses["400"])["properties"]
    assert "retry_after" in body_schema(schema, responses["429"])["properties"]
    # 413: the middleware refuses an oversized body before the view, which reads none.
    assert set(schema["paths"][LOGOUT]["post"]["responses"]) == {"204", "400", "401", "405", "406", "413", "429", "503"}
    # The component is every operation's 400; the response lists this operation's codes.
    codes = responses["400"]["x-error-codes"]
    assert set(codes) == {"invalid", "malformed_json", "nesting_too_deep", "invalid_name"}, "only its own codes"
    assert set(codes) <= set(body_schema(schema, responses["400"])["properties"]["code"]["enum"])
    assert "limit" in body_schema(schema, responses["413"])["properties"]


def test_schema_has_both_token_schemes_either_one_and_open_endpoints_need_none(schema) -> None:
    schemes = schema["components"]["securitySchemes"]
    assert (schemes["bearerAuth"]["type"], schemes["bearerAuth"]["scheme"]) == ("http", "bearer")
    token = schemes["tokenAuth"]
    assert (token["type"], token["in"], token["name"]) == ("apiKey", "header", "Authorization")
    assert "Token <token>" in token["description"]
    assert {"bearerAuth": []} in schema["paths"][ME]["get"]["security"]
    assert schema["paths"][LOGOUT]["post"]["security"] == [{"bearerAuth": []}, {"tokenAuth": []}]
    assert not schema["paths"][REGISTER]["post"].get("security")
