"""The errors each operation documents (issue 10): in the served schema every error's ``code`` is an enum and
each status has its shape; over HTTP, refusals of every kind answer a status and code their operation lists,
in that status's shape (``tests.games.api.helpers.assert_documented_error``). The refusals DRF makes around every
operation (issue 22: 406, 503, the session's CSRF 403) are documented exactly where they occur."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.api.helpers import (
    assert_documented_error,
    database_unreachable,
    documented_codes,
    documented_errors,
    operations_of,
)

BODY_METHODS = ("post", "put", "patch")
UNSAFE_METHODS = (*BODY_METHODS, "delete")
GENERIC = {
    401: ["not_authenticated", "authentication_failed"],
    405: ["method_not_allowed"],
    406: ["not_acceptable"],
    413: ["payload_too_large"],
    415: ["unsupported_media_type"],
    503: ["service_unavailable"],
}


@pytest.fixture
def schema(openapi) -> dict:
    """The schema /api/schema/ serves (tests/conftest.py ``openapi_text``)."""
    return openapi


def every_operation(schema: dict) -> list[tuple[str, str, dict]]:
    """``(path, method, operation)`` of every operation."""
    return [
        (path, method, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if isinstance(operation, dict) and operation.get("operationId") is not None
    ]


def streamed(operation: dict) -> bool:
    """An event stream (``games.api.streams``): its errors are JSON whatever the client accepts, and it reads the
    database in the streams' own threads, which these tests' transactions do not reach: its refusals are
    checked under a live server (tests/system/streams/), and here in the schema."""
    return "text/event-stream" in operation["responses"].get("200", {}).get("content", {})


def one_type(operation: dict) -> bool:
    """An operation that answers one type whatever the client accepts (an event stream, an NDJSON export, a PHH
    text), its errors in JSON: no 406."""
    content = operation["responses"].get("200", {}).get("content", {})
    return streamed(operation) or "application/x-ndjson" in content or "text/plain" in content


def concrete(path: str) -> str:
    """A path of the template with every parameter 1 (no game or webhook has that id in these tests)."""
    return "/".join("1" if part.startswith("{") else part for part in path.split("/"))


# --- the schema ---


def test_every_error_of_every_operation_names_its_codes_in_an_enum(schema):
    free = [
        (operation["operationId"], status)
        for path, method, operation in every_operation(schema)
        for status, component in documented_errors(schema, method, path).items()
        if not documented_codes(schema, component)
    ]
    assert not free, f"errors whose code is a free string: {free}"
    assert len(every_operation(schema)) > 20


def test_every_error_has_the_shape_of_its_status(schema):
    """``errors`` on a 400 that lists ``invalid`` (and only there), ``retry_after`` on 429 and 503, ``limit`` on
    413; the generic statuses carry their generic codes alone; every operation lists 405, 429 and 503, and 401
    unless it is open."""
    for path, method, operation in every_operation(schema):
        errors = documented_errors(schema, method, path)
        name = operation["operationId"]
        for status, component in errors.items():
            codes = documented_codes(schema, component)
            fields, required = set(component["properties"]), set(component["required"])
            assert {"code", "detail"} <= required, (name, status)
            extra = {413: {"limit"}, 429: {"retry_after"}, 503: {"retry_after"}}.get(status, set())
            assert required >= extra, (name, status, required)
            if status == 400 and "invalid" in codes:
                extra = {"errors"}  # absent from a 400 of another code
            assert fields == {"code", "detail", *extra}, (name, status, fields)
            if status in GENERIC:
                assert codes == GENERIC[status], (name, status, codes)
        assert {405, 429, 503} <= set(errors), name
        assert (401 in errors) == bool(operation.get("security")), name


def test_only_an_operation_that_reads_a_json_body_lists_415_and_any_post_put_or_patch_lists_413(schema):
    for path, method, operation in every_operation(schema):
        errors = documented_errors(schema, method, path)
        name = operation["operationId"]
        assert (415 in errors) == ("requestBody" in operation), name
        # The middleware refuses any body over the limit under /api/, read or not; a GET's or DELETE's never.
        assert (413 in errors) == (method in BODY_METHODS), name


# --- over HTTP: refusals any operation can meet ---


# The streams' database threads (games.api.hub.database) check the connection a thread kept from an earlier test
# of this worker before they authenticate: without database access that check is refused, whatever the order.
@pytest.mark.django_db
def test_an_anonymous_request_is_a_documented_401_wherever_a_token_is_needed(schema, api_client):
    for path, method, operation in every_operation(schema):
        if operation.get("security"):
            response = getattr(api_client, method)(concrete(path))
            assert_documented_error(schema, response, 401, "not_authenticated")


@pytest.mark.django_db
def test_an_unknown_token_is_a_documented_401(schema, auth_client):
    response = auth_client("not-a-token").get("/api/v1/me/webhooks/")
    assert_documented_error(schema, response, 401, "authentication_failed")


def test_a_method_a_path_does_not_serve_is_a_405_every_operation_of_the_path_lists(schema, auth_client, make_player):
    client = auth_client(make_player("alice")[1])
    for path in schema["paths"]:
        operations = operations_of(schema, concrete(path))
        method = next(method for method in ("put", "patch", "delete", "post") if method not in operations)
        assert_documented_error(schema, getattr(client, method)(concrete(path)), 405, "method_not_allowed")


def test_a_body_over_the_limit_is_a_documented_413_for_every_post_put_or_patch(
    schema, auth_client, make_player, settings
):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 64
    client = auth_client(make_player("alice")[1])
    for path, method, _ in every_operation(schema):
        if method in BODY_METHODS:
            response = client.generic(method.upper(), concrete(path), "x" * 65, content_type="application/json")
            body = assert_documented_error(schema, response, 413, "payload_too_large")
            assert body["limit"] == 64


def test_a_body_that_is_not_json_is_a_documented_415_where_one_is_read_and_ignored_elsewhere(
    schema, auth_client, make_player
):
    for path, method, operation in every_operation(schema):
        if method not in BODY_METHODS:
            continue
        # A fresh player each time: logging out revokes the token it was sent with.
        client = auth_client(make_player()[1])
        response = client.generic(method.upper(), concrete(path), "address=a", content_type="text/plain")
        if "requestBody" in operation:
            assert_documented_error(schema, response, 415, "unsupported_media_type")
        else:
            assert response.status_code != 415, (path, response.content)


def test_throttled_is_a_documented_429_with_retry_after(schema, auth_client, make_player, throttle_rates):
    throttle_rates(user="1/min")
    client = auth_client(make_player("alice")[1])
    assert client.get("/api/v1/me/webhooks/").status_code == 200
    body = assert_documented_error(schema, client.get("/api/v1/me/webhooks/"), 429, "throttled")
    assert body["retry_after"] >= 1


def test_an_accept_that_cannot_be_met_is_a_documented_406_exactly_where_it_occurs(schema, auth_client, make_player):
    """DRF's content negotiation refuses an ``Accept`` it cannot meet before anything else: 406
    ``not_acceptable`` on every operation but the event streams and the NDJSON and PHH exports, which answer JSON errors
    whatever is asked (and so do not document it)."""
    client = auth_client(make_player("alice")[1])
    refused = []
    for path, method, operation in every_operation(schema):
        if one_type(operation):
            assert 406 not in documented_errors(schema, method, path), operation["operationId"]
            continue
        response = getattr(client, method)(concrete(path), HTTP_ACCEPT="application/xml")
        if response.status_code == 406:
            assert_documented_error(schema, response, 406, "not_acceptable")
            refused.append(operation["operationId"])
        else:
            assert 406 not in documented_errors(schema, method, path), (operation["operationId"], response.content)
    assert len(refused) == len([op for _, _, op in every_operation(schema) if not one_type(op)]), refused


def test_a_database_that_cannot_be_reached_is_a_documented_503_on_every_operation(
    schema, auth_client, make_player, make_staff
):
    """Every operation reads the database (to authenticate its caller, at least): with the database unreachable
    each answers the documented 503 ``service_unavailable`` with ``retry_after``, open ones given a body they
    would act on."""
    client = auth_client(make_player("alice")[1])
    make_staff("root")
    bodies = {"players_register": {"name": "dana"}, "auth_token_create": {"username": "root", "password": "x"}}
    answers = []
    with database_unreachable():
        for path, method, operation in every_operation(schema):
            if streamed(operation):
                continue
            body = bodies.get(operation["operationId"])
            response = getattr(client, method)(concrete(path), body, format="json" if body else None)
            answers.append((operation["operationId"], response))
    for name, response in answers:
        assert response.status_code == 503, (name, response.content)
        assert assert_documented_error(schema, response, 503, "service_unavailable")["retry_after"] >= 1
        assert response["Retry-After"] == str(response.json()["retry_after"]), name


@pytest.mark.django_db
def test_a_session_without_its_csrf_token_is_a_documented_403_exactly_where_it_occurs(schema, make_player):
    """A request that a session cookie authenticates (the browsable API, the docs' "Try it out" after the
    admin's login) must carry the session's CSRF token on POST, PUT, PATCH and DELETE: without it, 403
    ``permission_denied`` on every such operation that accepts sessions (its security lists ``cookieAuth``), and
    on no other."""
    user, _ = make_player("alice")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    refused = []
    for path, method, operation in every_operation(schema):
        if method not in UNSAFE_METHODS:
            continue
        response = getattr(client, method)(concrete(path), {}, format="json")
        sessions = {"cookieAuth": []} in operation.get("security", [])
        if sessions:
            body = assert_documented_error(schema, response, 403, "permission_denied")
            assert body["detail"].startswith("CSRF Failed"), body
            refused.append(operation["operationId"])
        else:
            assert response.status_code != 403, (operation["operationId"], response.content)
    assert len(refused) >= 10, refused


# --- over HTTP: each operation's own refusals ---


@pytest.fixture
def alice(auth_client, make_player, throttle_rates):
    throttle_rates(user=None)  # more requests a minute than the per-player throttle allows
    return auth_client(make_player("alice")[1])


def test_me_email_refusals_are_documented(schema, alice):
    url = "/api/v1/me/email/"
    assert_documented_error(schema, alice.patch(url, {"turn": False}, format="json"), 404, "no_email")
    assert_documented_error(schema, alice.delete(url), 404, "no_email")
    assert_documented_error(schema, alice.patch(url, {"turn": "often"}, format="json"), 400, "invalid")
    body = assert_documented_error(schema, alice.post(url, {"address": "nope"}, format="json"), 400, "invalid")
    assert body["errors"]["address"]
    malformed = alice.generic("POST", url, "{", content_type="application/json")
    assert_documented_error(schema, malformed, 400, "malformed_json")
    deep = alice.generic("POST", url, "[" * 40 + "]" * 40, content_type="application/json")
    assert_documented_error(schema, deep, 400, "nesting_too_deep")
    # Valid to the serializer; its domain lowercased (a dotted capital I is two characters then) is not.
    odd = alice.post(url, {"address": "a@" + "\u0130" * 60 + ".com"}, format="json")
    assert_documented_error(schema, odd, 400, "invalid_email")
    for number in range(5):
        assert alice.post(url, {"address": f"alice{number}@example.com"}, format="json").status_code == 202
    response = alice.post(url, {"address": "alice9@example.com"}, format="json")
    body = assert_documented_error(schema, response, 429, "too_many_confirmations")
    assert response["Retry-After"] == str(body["retry_after"])


def test_me_webhooks_refusals_are_documented(schema, alice, settings):
    url = "/api/v1/me/webhooks/"
    empty = alice.post(url, {"url": "https://example.com/", "events": []}, format="json")
    assert_documented_error(schema, empty, 400, "invalid")
    spaced = alice.post(url, {"url": "http://a b/", "events": ["turn.due"]}, format="json")
    assert_documented_error(schema, spaced, 400, "invalid_webhook_url")
    ftp = alice.post(url, {"url": "ftp://example.com/", "events": ["turn.due"]}, format="json")
    assert_documented_error(schema, ftp, 400, "webhook_url_forbidden")
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.WEBHOOK_MAX_ENDPOINTS = 0
    full = alice.post(url, {"url": "http://127.0.0.1:9/hook", "events": ["turn.due"]}, format="json")
    assert_documented_error(schema, full, 409, "webhook_limit")
    for missing in (alice.delete(f"{url}999/"), alice.post(f"{url}999/ping/"), alice.get(f"{url}999/deliveries/")):
        assert_documented_error(schema, missing, 404, "webhook_not_found")
    assert_documented_error(schema, alice.delete(f"{url}x/"), 404, "not_found")
    assert_documented_error(schema, alice.get(f"{url}999/deliveries/?limit=0"), 400, "invalid")


def create_game(client, seats: int = 3) -> str:
    response = client.post("/api/v1/games/", {"kind": "palace", "seats": seats, "options": {}}, format="json")
    assert response.status_code == 201, response.content
    return f"/api/v1/games/{response.json()['id']}/"


def test_lifecycle_refusals_are_documented(schema, alice, auth_client, make_player):
    ben, cat = auth_client(make_player("ben")[1]), auth_client(make_player("cat")[1])
    for action, method in (("resign/", alice.post), ("cancel/", alice.post), ("seats/mine/", alice.delete)):
        assert_documented_error(schema, method(f"/api/v1/games/999/{action}"), 404, "game_not_found")
        assert_documented_error(schema, method(f"/api/v1/games/x/{action}"), 404, "not_found")
    game = create_game(alice)
    assert_documented_error(schema, alice.post(game + "resign/"), 403, "not_seated")
    assert_documented_error(schema, alice.delete(game + "seats/mine/"), 403, "not_seated")
    assert_documented_error(schema, ben.post(game + "cancel/"), 403, "creator_only")
    assert alice.post(game + "seats/", {"seat": 0}, format="json").status_code == 201
    assert_documented_error(schema, alice.post(game + "resign/"), 409, "game_not_started")
    assert alice.post(game + "cancel/").status_code == 200
    assert_documented_error(schema, alice.post(game + "cancel/"), 409, "game_cancelled")
    assert_documented_error(schema, alice.delete(game + "seats/mine/"), 409, "game_cancelled")

    game = create_game(alice)
    for seat, client in enumerate((alice, ben, cat)):
        assert client.post(game + "seats/", {"seat": seat}, format="json").status_code == 201
    assert_documented_error(schema, alice.delete(game + "seats/mine/"), 409, "game_started")
    assert_documented_error(schema, alice.post(game + "cancel/"), 409, "game_started")
    assert alice.post(game + "resign/").status_code == 200
    assert_documented_error(schema, alice.post(game + "resign/"), 400, "not_in_match")
    assert ben.post(game + "resign/").status_code == 200
    assert_documented_error(schema, cat.post(game + "resign/"), 409, "game_finished")

    assert_documented_error(schema, alice.get("/api/v1/me/games/?status=lost"), 400, "invalid")
