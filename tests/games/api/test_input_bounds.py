"""Every input of every API operation, bad: over-long, empty, non-ASCII, a NUL byte (issue 27, item 4).

The inputs come from the served schema (``/api/schema/``): each operation's query and header parameters, the
``Authorization`` header of every operation that takes a token, and each top-level field of its JSON body; so a
parameter or a field added later is walked without a word here. Each request sets one input to one bad value
and sends the rest as a good request would (``BASE``); the answer must be a 4xx in the one error shape, with a
``code``: never a 5xx, never a success.

Read by hand besides (``grep request.headers request.META query_params`` in the project), and by the framework:
``Cookie`` (the session and CSRF cookies: ``SessionAuthentication``), ``Accept`` (DRF's content negotiation) and
``Content-Type`` (the parser) of a request with a body. A bad one of these is answered as if it were absent or
with a 4xx in the error shape (``FRAMEWORK_HEADERS``), never a 5xx.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.services import game_create, seat_take
from palace_api.errors import ApplicationError
from tests.bad_inputs import BAD_VALUES, Tally, as_header
from tests.games.api.helpers import resolve
from webhooks.models import Endpoint
from webhooks.services.secret_box import seal

# The stream views read the database in threads of their own, which see only what is committed.
pytestmark = pytest.mark.django_db(transaction=True)

BASE: dict[str, dict[str, Any]] = {
    "auth_token_create": {"body": {"username": "staff", "password": "staff-password-for-tests"}},
    "games_create": {"body": {"kind": "palace-poker", "seats": 2}},
    "games_seats_create": {"body": {}},
    "games_review_create": {"body": {}},
    "games_chat_create": {"body": {"room": "players", "text": "hi"}},
    "games_chat_list": {"query": {"room": "players"}},
    "games_actions_create": {"body": {"type": "fold"}, "headers": {"Idempotency-Key": "walk-1"}},
    "games_stream": {"query": {"follow": "false"}},
    "me_stream": {"query": {"follow": "false"}},
    "me_email_create": {"body": {"address": "alice@example.com"}},
    "me_email_partial_update": {"body": {"turn": True}},
    "me_webhooks_create": {"body": {"url": "https://1.1.1.1/hook", "events": ["turn.due"]}},
    "players_register": {"body": {"name": "zed"}},
}
"""operationId -> the rest of a good request (``body``, ``query``, ``headers``) around the one bad input.
Every operation with a body needs its good body here (a test checks it)."""

UNICODE_INPUTS = {("games_chat_create", "text")}
"""(operationId, input) that take any Unicode, so non-ASCII is no bad value: a chat message (issue 26)."""

FRAMEWORK_HEADERS = {
    "Cookie": lambda value: f"sessionid={value}; csrftoken={value}",
    "Accept": lambda value: value,
}
"""Headers the framework reads on every request: name -> the header's text around a bad value."""


@dataclass(frozen=True)
class Input:
    operation: str
    method: str
    path: str
    where: str  # "query", "header" or "body"
    name: str
    secured: bool
    has_body: bool
    alone: bool = False  # sent without the Authorization header: a credential of its own (the stream token)

    def __str__(self) -> str:
        alone = " (no Authorization)" if self.alone else ""
        return f"{self.method.upper()} {self.path} ({self.operation}) {self.where} {self.name}{alone}"

    @property
    def credential(self) -> bool:
        return self.name == "Authorization" or self.alone


def _body_fields(schema: dict[str, Any], operation: dict[str, Any]) -> list[str]:
    """The top-level fields of the operation's JSON body, over every alternative of a ``oneOf``."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return []
    node = resolve(schema, content["schema"])
    alternatives = [resolve(schema, item) for item in node.get("oneOf", [node])]
    return sorted({name for item in alternatives for name in item.get("properties", {})})


def schema_inputs(schema: dict[str, Any]) -> Iterator[Input]:
    """Every input the schema names, for every operation; a query parameter that is also a security scheme (the
    stream token) both beside the ``Authorization`` header and alone."""
    schemes = schema["components"]["securitySchemes"].values()
    query_credentials = {scheme["name"] for scheme in schemes if scheme.get("in") == "query"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            secured = operation.get("security", [{}]) != [{}] and operation.get("security") != []
            has_body = "requestBody" in operation
            common = (operation["operationId"], method, path)
            for parameter in operation.get("parameters", []):
                if parameter["in"] in ("query", "header"):
                    yield Input(*common, parameter["in"], parameter["name"], secured, has_body)
                if parameter["in"] == "query" and parameter["name"] in query_credentials:
                    yield Input(*common, "query", parameter["name"], secured, has_body, alone=True)
            if secured:
                yield Input(*common, "header", "Authorization", secured, has_body)
            for name in _body_fields(schema, operation):
                yield Input(*common, "body", name, secured, has_body)


class StreamWouldOpen(ApplicationError):
    """Raised by the walk's stand-in for the streams' hub: a request let into a stream answers 200, unstreamed."""

    status = 200


def _no_hub() -> None:
    raise StreamWouldOpen("stream_would_open", "the request was let in: a stream would open here")


@pytest.fixture
def world(make_player, make_staff, throttle_rates, monkeypatch) -> dict[str, Any]:
    """alice and bob at a running heads-up game of Palace Poker, alice's webhook, a staff account; no throttles
    (a 429 would hide the answer under test); and no stream ever opened: Django's test client runs an async
    view on an event loop of its own, which the hub's task would outlive (a hang where a 200 is expected)."""
    throttle_rates(anon=None, user=None, register=None, login=None)
    monkeypatch.setattr("games.api.streams.hub", _no_hub)
    alice, alice_token = make_player("alice")
    bob, _ = make_player("bob")
    make_staff()
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={})
    seat_take(game_id=game.pk, player=alice)
    seat_take(game_id=game.pk, player=bob)
    endpoint = Endpoint.objects.create(
        user=alice, url="https://1.1.1.1/hook", events=["turn.due"], sealed_secret=seal("whsec_eA==")
    )
    return {"token": alice_token, "game_id": game.pk, "webhook_id": endpoint.pk, "player_id": bob.pk}


@pytest.fixture
def served_schema(openapi) -> dict[str, Any]:
    """The document ``/api/schema/`` serves (tests/test_project.py ``test_openapi_schema_is_served``)."""
    return openapi


def _request(world: dict[str, Any], item: Input, *, bad: str | None, header: tuple[str, str] | None = None) -> Any:
    """The request of ``item`` with ``bad`` in it (or, with ``header``, that header added), the rest good."""
    base = BASE.get(item.operation, {})
    query = dict(base.get("query", {}))
    headers = {**({} if item.alone else {"Authorization": f"Token {world['token']}"}), **base.get("headers", {})}
    body = dict(base.get("body", {}))
    if bad is not None:
        if item.where == "query":
            query[item.name] = bad
        elif item.where == "header":
            headers[item.name] = as_header(bad)
        else:
            body[item.name] = bad
    content_type = "application/json"
    if header is not None and header[0] == "Content-Type":
        content_type = header[1]
    elif header is not None:
        headers[header[0]] = header[1]
    client = APIClient(raise_request_exception=False)
    path = item.path.format(
        game_id=world["game_id"], webhook_id=world["webhook_id"], player_id=world["player_id"], ladder="palace"
    )
    extra = {"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}
    if query:
        path += "?" + "&".join(f"{name}={_quote(value)}" for name, value in query.items())
    send = getattr(client, item.method)
    if item.has_body:
        response = send(path, json.dumps(body), content_type=content_type, **extra)
    else:
        response = send(path, **extra)
    return response


def _quote(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")


def _problem(response: Any, item: Input | None = None) -> str | None:
    """What is wrong with the answer, or None. For an ``item`` walked: a 4xx in the error shape; a bad credential
    a 401; a bad parameter a 400 ``invalid`` whose ``errors`` name it, as a bad body field's ``invalid`` must
    (a body field may also be refused by the rules with their own code). Without one (a framework header):
    anything but a 5xx, its errors in the error shape."""
    status = response.status_code
    if status >= 500 or (item is not None and not 400 <= status < 500):
        return f"answered {status}"
    if status < 400:
        return None
    if response.get("Content-Type") != "application/json":
        return f"{status} is not JSON"
    body = response.json()
    if not body.get("code"):
        return f"{status} has no code: {response.content[:200]!r}"
    if item is None:
        return None
    if item.credential:
        return None if status == 401 else f"a bad credential answered {status} {body['code']}"
    named = body["code"] == "invalid" and item.name in body.get("errors", {})
    if item.where != "body" and not named:
        return f"answered {status} {body['code']}, not invalid naming {item.name}: {body}"
    if body["code"] == "invalid" and not named:
        return f"invalid, but not naming {item.name}: {body}"
    return None


def test_every_operation_with_a_body_has_a_good_body_to_send(served_schema) -> None:
    with_body = {item.operation for item in schema_inputs(served_schema) if item.where == "body"}
    assert with_body <= set(BASE), sorted(with_body - set(BASE))


def test_every_schema_input_refuses_bad_values_with_a_4xx_and_a_code(world, served_schema) -> None:
    """Issue 27, item 4: over-long, empty, non-ASCII and NUL values of each query parameter, header and body
    field each get a 4xx with a ``code``: 0 x 5xx, and no bad value accepted."""
    tally = Tally()
    inputs = list(schema_inputs(served_schema))
    assert {item.name for item in inputs} >= {"Idempotency-Key", "If-None-Match", "Last-Event-ID", "token"}
    for item in inputs:
        for label, value in BAD_VALUES.items():
            if (item.operation, item.name) in UNICODE_INPUTS and label == "non-ASCII":
                continue
            response = _request(world, item, bad=value)
            tally.record(response.status_code, f"{item} = {label}", _problem(response, item))
    print(f"\nschema inputs: {len(inputs)}; {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures)


def test_framework_headers_with_bad_values_never_answer_5xx(world, served_schema) -> None:
    tally = Tally()
    operations = {(item.operation, item.method, item.path): item for item in schema_inputs(served_schema)}
    # Logging out, should a bad header not stop it, would leave the rest of the walk without a token: last.
    for item in sorted(operations.values(), key=lambda item: item.operation == "auth_logout"):
        headers = dict(FRAMEWORK_HEADERS)
        if item.has_body:
            headers["Content-Type"] = lambda value: value
        for name, shape in headers.items():
            for label, value in BAD_VALUES.items():
                response = _request(world, item, bad=None, header=(name, as_header(shape(value))))
                what = f"{item.method.upper()} {item.path} header {name} = {label}"
                tally.record(response.status_code, what, _problem(response))
    print(f"\nframework headers: {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures)
