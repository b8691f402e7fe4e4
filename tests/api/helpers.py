"""Assertions shared by the API tests."""

from __future__ import annotations

from typing import Any


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is an error in the one shape (README, "Errors"), with this status and code; returns the body."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body
