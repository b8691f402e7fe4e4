"""JSON errors under /api/ with DEBUG on as well as off, bounded bodies, strict input, logging, offline docs
(issue 10: the v1 contract a generated client can trust)."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.staticfiles import finders
from rest_framework.test import APIClient

from palace_api.celery import log_task_failure
from palace_api.parsers import MAX_JSON_DEPTH, json_depth
from tests.games.api.helpers import assert_error, database_unreachable

REGISTER = "/api/v1/players/"
GAMES = "/api/v1/games/"


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings) -> bool:
    settings.DEBUG = request.param
    return request.param


@pytest.fixture
def raising_client(isolated_cache) -> APIClient:
    return APIClient(raise_request_exception=False)


def test_an_unknown_api_path_is_json_404_in_both_modes(api_client, debug: bool) -> None:
    for path in ("/api/v1/no-such-thing/", "/api/v1/games/x/", "/api/v1/games/1234567890123456789/"):
        assert assert_error(api_client.get(path), 404, "not_found") == {"code": "not_found", "detail": "Not found."}


def test_outside_the_api_django_keeps_its_debug_page(client, settings) -> None:
    settings.DEBUG = True
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_an_accept_the_api_cannot_meet_is_json_406_in_both_modes(make_player, auth_client, debug: bool) -> None:
    client = auth_client(make_player()[1])
    for method, path in (("get", GAMES), ("post", GAMES), ("delete", "/api/v1/me/email/")):
        response = getattr(client, method)(path, HTTP_ACCEPT="application/xml")
        assert assert_error(response, 406, "not_acceptable")["detail"]


def test_a_session_post_without_its_csrf_token_is_json_403_in_both_modes(make_player, debug: bool) -> None:
    """The session's CSRF check (DRF's SessionAuthentication) refuses in the API's shape, code
    ``permission_denied``, with the reason in ``detail``; with the token, the same request is served."""
    user, _ = make_player()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    body = {"kind": "palace", "seats": 2, "options": {}}
    response = client.post(GAMES, body, format="json")
    assert assert_error(response, 403, "permission_denied")["detail"].startswith("CSRF Failed")
    client.get("/login/")  # a page sets the CSRF cookie, as in a browser
    token = client.cookies["csrftoken"].value
    assert client.post(GAMES, body, format="json", HTTP_X_CSRFTOKEN=token).status_code == 201


def test_a_database_that_cannot_be_reached_is_json_503_in_both_modes(make_player, auth_client, debug: bool) -> None:
    client = auth_client(make_player()[1])
    with database_unreachable():
        responses = [client.get(GAMES), client.post(REGISTER, {"name": "dana"}, format="json")]
    for response in responses:
        assert assert_error(response, 503, "service_unavailable")["retry_after"] == 5
        assert response["Retry-After"] == "5"


@pytest.mark.urls("tests.games.api.error_urls")
def test_a_bug_is_a_json_500_in_both_modes(raising_client, debug: bool) -> None:
    response = raising_client.get("/api/test/raise/bug/")
    assert assert_error(response, 500, "server_error") == {"code": "server_error", "detail": "Server error."}


def test_a_3_mb_body_is_413_payload_too_large_with_the_limit(api_client, settings, debug: bool) -> None:
    body = '{"name": "' + "a" * (3 * 1024 * 1024) + '"}'
    response = api_client.post(REGISTER, data=body, content_type="application/json")
    answer = assert_error(response, 413, "payload_too_large")
    assert answer["limit"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 100_000])
def test_a_deeply_nested_body_is_400_never_500(api_client, make_player, auth_client, depth: int) -> None:
    _, token = make_player()
    body = '{"kind": "palace", "seats": 2, "options": ' + "[" * depth + "]" * depth + "}"
    response = auth_client(token).post(GAMES, data=body, content_type="application/json")
    assert str(MAX_JSON_DEPTH) in assert_error(response, 400, "nesting_too_deep")["detail"]


def test_json_depth_counts_arrays_and_objects() -> None:
    assert json_depth(1) == 0
    assert json_depth({"a": [1, {"b": []}]}) == 4
    assert json_depth([[]] * 3) == 2


def test_a_nested_body_within_the_bound_is_judged_by_its_fields(api_client) -> None:
    nested = "[" * (MAX_JSON_DEPTH - 2) + "]" * (MAX_JSON_DEPTH - 2)
    response = api_client.post(REGISTER, data='{"name": ' + nested + "}", content_type="application/json")
    assert list(assert_error(response, 400, "invalid")["errors"]) == ["name"]


@pytest.mark.parametrize(
    ("query", "named"),
    [("?limit=-3", "limit"), ("?mine=maybe", "mine"), ("?open_seats=2", "open_seats"), ("?colour=red", "colour")],
)
def test_a_bad_query_parameter_is_400_invalid_naming_it(make_player, auth_client, query: str, named: str) -> None:
    _, token = make_player()
    body = assert_error(auth_client(token).get(GAMES + query), 400, "invalid")
    assert list(body["errors"]) == [named]


def test_an_unknown_field_when_registering_is_400_invalid_naming_it(api_client) -> None:
    body = assert_error(api_client.post(REGISTER, {"name": "ann", "colour": "red"}), 400, "invalid")
    assert body["errors"] == {"colour": ["Unknown field."]}


def test_each_request_is_logged_with_method_path_status_time_user_and_game(
    make_player, auth_client, caplog, settings
) -> None:
    settings.DEBUG = False
    user, token = make_player()
    with caplog.at_level(logging.INFO, logger="palace.requests"):
        auth_client(token).get("/api/v1/games/77/")
    (line,) = [record.getMessage() for record in caplog.records if record.name == "palace.requests"]
    assert re.fullmatch(rf"GET /api/v1/games/77/ 404 \d+\.\dms user={user.pk} game=77", line), line


@pytest.mark.urls("tests.games.api.error_urls")
def test_a_500_logs_its_traceback_with_debug_off(raising_client, caplog, settings) -> None:
    settings.DEBUG = False
    with caplog.at_level(logging.ERROR, logger="django.request"):
        raising_client.get("/api/test/raise/bug/")
    (record,) = [record for record in caplog.records if record.name == "django.request"]
    assert record.exc_info is not None and "RuntimeError: a bug" in caplog.text


def test_a_failed_celery_task_is_logged_with_its_traceback(caplog) -> None:
    try:
        raise ValueError("the bot tripped")
    except ValueError as error:
        failure = error
    with caplog.at_level(logging.ERROR, logger="palace.tasks"):
        log_task_failure(sender=None, task_id="t-1", exception=failure, args=[3, 7], kwargs={})
    (record,) = caplog.records
    assert record.name == "palace.tasks" and "t-1" in record.getMessage() and "[3, 7]" in record.getMessage()
    assert "ValueError: the bot tripped" in caplog.text


def test_the_logging_configuration_writes_to_stderr_with_debug_off(settings) -> None:
    handler = settings.LOGGING["handlers"]["stderr"]
    assert handler["class"] == "logging.StreamHandler" and handler["stream"] == "ext://sys.stderr"
    for name in ("palace", "django.request"):
        assert settings.LOGGING["loggers"][name]["handlers"] == ["stderr"]


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_load_nothing_from_outside(client, path: str) -> None:
    """Swagger UI and Redoc come from drf-spectacular-sidecar, served by the project itself."""
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.findall(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", html, flags=re.IGNORECASE), "an outside URL"
    assets = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
    assert any(asset.endswith(".js") for asset in assets), html
    for asset in assets:
        assert finders.find(asset.split("?")[0]), f"{asset} is not among the project's static files"
