"""One error body for every error under /api/: {"code", "detail", ...extra} (README, "Errors")."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.urls import get_resolver
from rest_framework import exceptions
from rest_framework.test import APIClient

from games.engine.errors import EngineError
from palace_api import errors
from palace_api.errors import (
    ApplicationError,
    ConflictError,
    ErrorCode,
    ForbiddenError,
    NotFoundError,
    UnprocessableError,
    exception_handler,
)
from tests.games.api.helpers import assert_error

REGISTER = "/api/v1/players/"


# --- the handler, exception by exception ---


def handle(exc: Exception):
    response = exception_handler(exc, {})
    assert response is not None
    return response


@pytest.mark.parametrize(
    ("error_class", "status"),
    [
        (ApplicationError, 400),
        (NotFoundError, 404),
        (ForbiddenError, 403),
        (ConflictError, 409),
        (UnprocessableError, 422),
    ],
)
def test_application_errors_answer_their_status_code_detail_and_extra(error_class, status: int) -> None:
    response = handle(error_class("seat_taken", "Seat 2 is taken.", seat=2))
    assert response.status_code == status
    assert response.data == {"code": "seat_taken", "detail": "Seat 2 is taken.", "seat": 2}


def test_an_application_error_with_retry_after_sends_it_as_the_retry_after_header_too() -> None:
    class TooMany(ApplicationError):
        status = 429

    response = handle(TooMany("too_many_things", "Later.", retry_after=60))
    assert response.status_code == 429
    assert response["Retry-After"] == "60" and response.data["retry_after"] == 60
    assert "Retry-After" not in handle(ConflictError("seat_taken", "taken"))


def test_error_codes_from_the_enum_are_plain_strings() -> None:
    response = handle(ConflictError(ErrorCode.NAME_TAKEN, "taken"))
    assert response.data["code"] == "name_taken"
    assert type(response.data["code"]) is str


def test_engine_errors_are_400_with_the_engine_code_and_message_as_detail() -> None:
    response = handle(EngineError("same_banner_suit", "Your banner suit is the attacker's."))
    assert response.status_code == 400
    assert response.data == {"code": "same_banner_suit", "detail": "Your banner suit is the attacker's."}


@pytest.mark.parametrize(
    ("detail", "errors_expected", "detail_expected"),
    [
        ({"name": ["This field is required."]}, {"name": ["This field is required."]}, "name: This field is required."),
        ({"name": "Too long."}, {"name": ["Too long."]}, "name: Too long."),
        (["Seats must differ."], {"non_field_errors": ["Seats must differ."]}, "Seats must differ."),
        ("Seats must differ.", {"non_field_errors": ["Seats must differ."]}, "Seats must differ."),
        ({"options": {"ante": ["Must be at least 0."]}}, {"options": ["ante: Must be at least 0."]}, None),
        (
            {"cards": {0: ["Not a valid string."]}},
            {"cards": ["0: Not a valid string."]},
            "cards: 0: Not a valid string.",
        ),
    ],
)
def test_validation_errors_are_400_invalid_with_errors_by_field(detail, errors_expected, detail_expected) -> None:
    response = handle(exceptions.ValidationError(detail))
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["errors"] == errors_expected
    assert response.data["detail"] == (detail_expected or "options: ante: Must be at least 0.")


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (exceptions.ParseError("JSON parse error - Expecting value"), 400, "malformed_json"),
        (exceptions.UnsupportedMediaType("text/plain"), 415, "unsupported_media_type"),
        (exceptions.NotAuthenticated(), 401, "not_authenticated"),
        (exceptions.AuthenticationFailed(), 401, "authentication_failed"),
        (exceptions.PermissionDenied(), 403, "permission_denied"),
        (DjangoPermissionDenied(), 403, "permission_denied"),
        (exceptions.NotFound(), 404, "not_found"),
        (Http404("No Game matches the given query."), 404, "not_found"),
        (exceptions.MethodNotAllowed("PUT"), 405, "method_not_allowed"),
        (exceptions.NotAcceptable(), 406, "not_acceptable"),
        (exceptions.NotFound("No such game.", code="game_not_found"), 404, "game_not_found"),
        (exceptions.APIException(), 500, "error"),
    ],
)
def test_drf_exceptions_keep_their_status_with_a_snake_case_code(exc, status: int, code: str) -> None:
    response = handle(exc)
    assert response.status_code == status
    assert response.data["code"] == code
    assert set(response.data) == {"code", "detail"}


def test_http404_detail_does_not_leak_the_model_name() -> None:
    assert handle(Http404("No Game matches the given query.")).data["detail"] == "Not found."


def test_throttled_sends_retry_after_rounded_up_in_header_and_body() -> None:
    response = handle(exceptions.Throttled(wait=2.2))
    assert response.status_code == 429
    assert response["Retry-After"] == "3"
    assert response.data["code"] == "throttled"
    assert response.data["retry_after"] == 3


def test_throttled_without_a_known_wait_has_no_retry_after() -> None:
    response = handle(exceptions.Throttled())
    assert "Retry-After" not in response
    assert "retry_after" not in response.data


def test_authentication_errors_keep_the_www_authenticate_header() -> None:
    exc = exceptions.NotAuthenticated()
    exc.auth_header = "Token"
    assert handle(exc)["WWW-Authenticate"] == "Token"


def test_anything_else_is_left_to_django_as_a_500() -> None:
    assert exception_handler(RuntimeError("a bug"), {}) is None


# --- over HTTP, through the real routes ---


def test_malformed_json_is_400_malformed_json(api_client) -> None:
    response = api_client.post(REGISTER, data='{"name": "alice"', content_type="application/json")
    body = assert_error(response, 400, "malformed_json")
    assert "JSON parse error" in body["detail"]


@pytest.mark.parametrize(
    ("payload", "content_type"),
    [("name=alice", "application/x-www-form-urlencoded"), ("alice", "text/plain"), ("<name/>", "application/xml")],
)
def test_a_body_that_is_not_json_is_415_unsupported_media_type(api_client, payload, content_type) -> None:
    assert_error(api_client.post(REGISTER, data=payload, content_type=content_type), 415, "unsupported_media_type")


@pytest.mark.parametrize("path", ["/api/v1/no-such-thing/", "/api/nothing", "/api/v1/players/123/", "/api/"])
def test_an_unknown_api_path_is_404_in_the_error_shape(api_client, path: str) -> None:
    assert assert_error(api_client.get(path), 404, "not_found") == {"code": "not_found", "detail": "Not found."}


def test_an_unknown_path_outside_the_api_keeps_djangos_page(client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_wrong_method_is_405_method_not_allowed(api_client) -> None:
    body = assert_error(api_client.get(REGISTER), 405, "method_not_allowed")
    assert body["detail"] == 'Method "GET" not allowed.'
    assert api_client.get(REGISTER)["Allow"] == "POST, OPTIONS"


def test_django_error_handlers_are_the_api_aware_ones() -> None:
    resolver = get_resolver()
    assert resolver.resolve_error_handler(400) is errors.bad_request
    assert resolver.resolve_error_handler(403) is errors.permission_denied
    assert resolver.resolve_error_handler(404) is errors.page_not_found
    assert resolver.resolve_error_handler(500) is errors.server_error


# --- over HTTP, through test-only views that raise (tests/games/api/error_urls.py) ---


@pytest.fixture
def raising_client(isolated_cache) -> APIClient:
    """A client that gets Django's 500 response instead of the exception re-raised into the test."""
    return APIClient(raise_request_exception=False)


@pytest.mark.urls("tests.games.api.error_urls")
@pytest.mark.parametrize(
    ("kind", "status", "body"),
    [
        ("engine", 400, {"code": "not_your_turn", "detail": "It is seat 2's turn."}),
        ("illegal", 400, {"code": "insufficient_chips", "detail": "You have 3 chips; the bet is 5."}),
        ("conflict", 409, {"code": "version_mismatch", "detail": "The game moved on.", "version": 7}),
        ("missing", 404, {"code": "game_not_found", "detail": "No such game."}),
    ],
)
def test_errors_raised_in_a_view_reach_the_client_in_the_shape(api_client, kind, status, body) -> None:
    response = api_client.get(f"/api/test/raise/{kind}/")
    assert response.status_code == status
    assert response.json() == body


@pytest.mark.urls("tests.games.api.error_urls")
def test_a_bug_in_an_api_view_is_a_json_500(raising_client) -> None:
    response = raising_client.get("/api/test/raise/bug/")
    assert assert_error(response, 500, "server_error") == {"code": "server_error", "detail": "Server error."}


@pytest.mark.urls("tests.games.api.error_urls")
@pytest.mark.parametrize(
    ("path", "status", "code"),
    [("/api/test/django-500/", 500, "server_error"), ("/api/test/django-403/", 403, "permission_denied")],
)
def test_django_level_errors_under_api_are_json_too(raising_client, path: str, status: int, code: str) -> None:
    assert_error(raising_client.get(path), status, code)


@pytest.mark.urls("tests.games.api.error_urls")
def test_a_suspicious_request_under_api_is_a_json_400(raising_client) -> None:
    assert_error(raising_client.get("/api/test/django-400/"), 400, "bad_request")


@pytest.mark.urls("tests.games.api.error_urls")
def test_a_500_outside_the_api_keeps_djangos_page(raising_client) -> None:
    response = raising_client.get("/test/django-500/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.urls("tests.games.api.error_urls")
def test_the_real_routes_still_work_under_the_test_urlconf(api_client) -> None:
    assert_error(api_client.get("/api/v1/me/"), 401, "not_authenticated")
