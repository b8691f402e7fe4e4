"""The webhooks API (README, "Webhooks"): register, list, remove, ping, deliveries; every refusal a 4xx with a code."""

from __future__ import annotations

import pytest

from tests.games.api.helpers import assert_error
from webhooks.models import Attempt, Endpoint, Message

pytestmark = pytest.mark.django_db

WEBHOOKS = "/api/v1/me/webhooks/"


@pytest.fixture
def alice(make_player, auth_client):
    user, token = make_player("alice")
    return user, auth_client(token)


def register(client, url="http://93.184.216.34/hook", events=("turn.due",)):
    return client.post(WEBHOOKS, {"url": url, "events": list(events)}, format="json")


def test_a_host_name_is_refused_when_any_address_it_resolves_to_is_private(alice, monkeypatch):
    user, client = alice

    def two_answers(host, port, **kwargs):
        return [(2, 1, 6, "", ("93.184.216.34", port)), (2, 1, 6, "", ("10.1.2.3", port))]

    monkeypatch.setattr("socket.getaddrinfo", two_answers)
    assert_error(register(client, url="https://hooks.example.com/palace"), 400, "webhook_url_forbidden")


def test_registering_answers_201_with_a_secret_shown_once(alice):
    user, client = alice
    response = register(client, events=["game.finished", "turn.due"])
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 30
    assert body["events"] == ["turn.due", "game.finished"]
    assert body["enabled"] is True and body["disabled_at"] is None
    listed = client.get(WEBHOOKS).json()
    assert [row["id"] for row in listed] == [body["id"]]
    assert "secret" not in listed[0]


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.1/hook",
        "http://192.168.1.20:8080/hook",
        "http://172.16.0.5/",
        "http://127.0.0.1:9000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://[::ffff:10.0.0.1]/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "ftp://93.184.216.34/hook",
        "file:///etc/passwd",
    ],
)
def test_a_url_to_a_private_address_or_another_scheme_is_refused(alice, url):
    user, client = alice
    assert_error(register(client, url=url), 400, "webhook_url_forbidden")
    assert not Endpoint.objects.exists()


def test_loopback_is_allowed_where_the_setting_allows_it_but_metadata_never(alice, settings):
    user, client = alice
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8", "169.254.0.0/16"]
    assert register(client, url="http://127.0.0.1:9000/hook").status_code == 201
    assert_error(register(client, url="http://169.254.169.254/"), 400, "webhook_url_forbidden")
    assert_error(register(client, url="http://10.0.0.1/"), 400, "webhook_url_forbidden")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"url": "not a url", "events": ["turn.due"]}, "invalid_webhook_url"),
        ({"url": "http:///nohost", "events": ["turn.due"]}, "invalid_webhook_url"),
        ({"url": "http://93.184.216.34:99999/", "events": ["turn.due"]}, "invalid_webhook_url"),
        ({"url": "http://93.184.216.34/", "events": []}, "invalid"),
        ({"url": "http://93.184.216.34/", "events": ["turn.done"]}, "invalid"),
        ({"url": "http://93.184.216.34/"}, "invalid"),
        ({"events": ["turn.due"]}, "invalid"),
    ],
)
def test_bad_input_gets_a_400_with_a_code(alice, body, code):
    user, client = alice
    assert_error(client.post(WEBHOOKS, body, format="json"), 400, code)


def test_an_unknown_field_is_refused_by_name_not_ignored(alice):
    """Strict input (issue #22): a typo such as ``event`` was ignored and the webhook registered (201)."""
    user, client = alice
    body = {"url": "http://93.184.216.34/", "events": ["turn.due"], "event": ["game.finished"], "secret": "x"}
    response = client.post(WEBHOOKS, body, format="json")
    assert_error(response, 400, "invalid")
    assert set(response.json()["errors"]) == {"event", "secret"}
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(
    ("url", "code"),
    [
        (" http://93.184.216.34/", "invalid_webhook_url"),
        ("http://93.184.216.34/ ", "invalid_webhook_url"),
        (12345, "invalid"),
    ],
)
def test_a_url_is_taken_as_written(alice, url, code):
    """Spaces around a URL are refused, not trimmed away, as the schema's pattern refuses them; a number is no
    URL."""
    user, client = alice
    response = client.post(WEBHOOKS, {"url": url, "events": ["turn.due"]}, format="json")
    assert_error(response, 400, code)


def test_a_host_that_does_not_resolve_is_refused(alice, monkeypatch):
    user, client = alice

    def no_answer(host, *args, **kwargs):
        raise OSError(f"no address for {host}")

    monkeypatch.setattr("socket.getaddrinfo", no_answer)
    assert_error(register(client, url="http://no-such-host.invalid/hook"), 400, "webhook_url_unresolvable")


def test_a_player_has_at_most_the_configured_number_of_webhooks(alice, settings):
    user, client = alice
    settings.WEBHOOK_MAX_ENDPOINTS = 2
    assert register(client).status_code == register(client).status_code == 201
    assert_error(register(client), 409, "webhook_limit")


def test_another_players_webhook_is_not_found_like_a_missing_one(alice, make_player, auth_client):
    user, client = alice
    webhook = register(client).json()["id"]
    _, bob_token = make_player("bob")
    bob = auth_client(bob_token)
    for response in (
        bob.delete(f"{WEBHOOKS}{webhook}/"),
        bob.post(f"{WEBHOOKS}{webhook}/ping/"),
        bob.get(f"{WEBHOOKS}{webhook}/deliveries/"),
        client.delete(f"{WEBHOOKS}{webhook + 100}/"),
    ):
        assert_error(response, 404, "webhook_not_found")
    assert bob.get(WEBHOOKS).json() == []


def test_removing_a_webhook_removes_its_messages(alice):
    user, client = alice
    webhook = register(client).json()["id"]
    assert client.post(f"{WEBHOOKS}{webhook}/ping/").status_code == 202
    assert Message.objects.filter(endpoint_id=webhook).count() == 1
    assert client.delete(f"{WEBHOOKS}{webhook}/").status_code == 204
    assert not Message.objects.exists()
    assert client.get(WEBHOOKS).json() == []


def test_a_ping_queues_one_signed_message(alice):
    user, client = alice
    webhook = register(client).json()["id"]
    response = client.post(f"{WEBHOOKS}{webhook}/ping/")
    assert response.status_code == 202
    message = Message.objects.get()
    assert response.json() == {"webhook_id": message.msg_id}
    assert message.msg_id.startswith("msg_") and message.event_type == "webhook.ping"
    assert message.body["data"] == {"webhook": webhook}


def test_deliveries_list_the_last_attempts_newest_first(alice):
    user, client = alice
    webhook = register(client).json()["id"]
    client.post(f"{WEBHOOKS}{webhook}/ping/")
    message = Message.objects.get()
    from django.utils import timezone

    for number, (code, error) in enumerate([(None, "timeout"), (500, "HTTP 500"), (204, "")], start=1):
        Attempt.objects.create(
            message=message,
            endpoint_id=webhook,
            number=number,
            at=timezone.now(),
            status_code=code,
            duration_ms=10 * number,
            error=error,
            succeeded=code == 204,
        )
    rows = client.get(f"{WEBHOOKS}{webhook}/deliveries/").json()
    assert [(row["attempt"], row["status_code"], row["error"], row["succeeded"]) for row in rows] == [
        (3, 204, "", True),
        (2, 500, "HTTP 500", False),
        (1, None, "timeout", False),
    ]
    assert {row["webhook_id"] for row in rows} == {message.msg_id}
    assert rows[0]["event"] == "webhook.ping" and rows[0]["duration_ms"] == 30
    assert len(client.get(f"{WEBHOOKS}{webhook}/deliveries/?limit=1").json()) == 1
    assert_error(client.get(f"{WEBHOOKS}{webhook}/deliveries/?limit=0"), 400, "invalid")


def test_the_api_needs_a_token(api_client):
    assert_error(api_client.get(WEBHOOKS), 401, "not_authenticated")
