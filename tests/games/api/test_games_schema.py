"""The OpenAPI document: generated without warnings, every games endpoint with its request and response shapes."""

from __future__ import annotations

import importlib

import pytest

GAME_OPERATIONS = {
    ("/api/v1/games/", "get"),
    ("/api/v1/games/", "post"),
    ("/api/v1/games/{game_id}/", "get"),
    ("/api/v1/games/{game_id}/seats/", "post"),
    ("/api/v1/games/{game_id}/actions/", "post"),
    ("/api/v1/games/{game_id}/events/", "get"),
    ("/api/v1/me/turns/", "get"),
    ("/api/v1/games/{game_id}/stream/", "get"),
    ("/api/v1/me/stream/", "get"),
}


@pytest.fixture
def schema(openapi) -> dict:
    """The document, checked valid and generated without warnings (tests/conftest.py ``openapi_text``)."""
    return openapi


def test_every_games_operation_has_request_and_response_shapes(schema):
    for path, method in GAME_OPERATIONS:
        operation = schema["paths"][path][method]
        success = next(code for code in operation["responses"] if code.startswith("2"))
        assert "content" in operation["responses"][success], (path, method)
        if method == "post":
            assert "application/json" in operation["requestBody"]["content"], path
        errors = {code for code in operation["responses"] if code.startswith("4")}
        assert errors >= {"401"}, (path, method)


def test_the_docs_page_renders(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200 and b"swagger" in response.content.lower()


@pytest.mark.parametrize(
    ("engine", "components"),
    [
        ("games.engine.poker.options", ("PokerOptions", "PokerOptionsInput")),
        ("games.engine.shedding.options", ("ShedOptions", "ShedOptionsInput")),
    ],
)
def test_every_option_the_rules_take_is_in_the_schema(schema, engine, components):
    """A body is closed (unknown fields refused), so an option the schema forgets is one a generated client can
    never send."""
    fields = {field.name for field in importlib.import_module(engine).OPTION_FIELDS}
    for name in components:
        documented = set(schema["components"]["schemas"][name]["properties"])
        # The server's own options (the clock and absent players) sit beside the rules' ones.
        assert documented - fields <= {"turn_timeout", "max_timeouts", "on_absent"}, name
        assert fields <= documented, (name, fields - documented)
