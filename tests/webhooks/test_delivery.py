"""Webhooks delivered by a real Celery worker to a real HTTP receiver on 127.0.0.1 (README, "Webhooks").

Given a player with an endpoint, when his game changes, then the worker derives the events from the log and
POSTs them signed per Standard Webhooks; failures are retried with the same webhook-id and each attempt is
recorded.
"""

from __future__ import annotations

import json

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from outbox.models import DeliveryStatus
from tests.waiting import wait_for
from webhooks.models import Attempt, Endpoint, Message
from webhooks.services.delivery import message_deliver
from webhooks.services.endpoints import endpoint_create, endpoint_ping

from .conftest import read

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fast_retries(settings) -> None:
    settings.WEBHOOK_RETRY_DELAYS = [0.2, 0.2, 0.2]
    settings.WEBHOOK_RETRY_JITTER = 0.5


def heads_up(make_player, *, bot_opponent: bool = True):
    """Alice at seat 0 of a Palace Poker game; a basic bot (or bob) at seat 1 is dealt first."""
    alice, _ = make_player("alice")
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={"first_dealer": 1, "turn_timeout": 3600})
    seat_take(game_id=game.pk, player=alice, seat=0)
    return alice, game


def verified(receiver, secret: str) -> list[dict]:
    """Every body the receiver got, each checked with the standardwebhooks library (raises if one fails)."""
    hook = Webhook(secret)
    return [hook.verify(request.body, request.headers) for request in receiver.requests]


def test_a_turn_due_reaches_the_receiver_signed(worker, receiver, allow_loopback, make_player):
    alice, game = heads_up(make_player)
    _, secret = endpoint_create(user=alice, url=receiver.url, events=["turn.due", "game.started"])
    seat_take(game_id=game.pk, player=alice, bot="basic")  # the match starts: alice's decision first
    wait_for(lambda: len(receiver.requests) >= 2)
    bodies = verified(receiver, secret)
    by_type = {body["type"]: body for body in bodies}
    assert set(by_type) == {"game.started", "turn.due"}
    due = by_type["turn.due"]["data"]
    game.refresh_from_db()
    assert due["game"] == game.pk and due["kind"] == "palace-poker" and due["seat"] == 0
    assert due["version"] == game.version
    assert due["deadline"] is not None and 3500 <= due["seconds_left"] <= 3600
    assert by_type["game.started"]["data"]["seats"][1]["bot"] == "basic"
    request = receiver.requests[0]
    assert request.headers["webhook-id"].startswith("msg_")
    assert request.headers["content-type"] == "application/json"
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + "A" * 32).verify(request.body, request.headers)
    wait_for(lambda: read(lambda: Attempt.objects.filter(succeeded=True).count()) == 2)


def test_a_receiver_that_fails_twice_gets_the_same_id_three_times_and_one_success_is_recorded(
    worker, receiver, allow_loopback, fast_retries, make_player
):
    alice, game = heads_up(make_player)
    _, secret = endpoint_create(user=alice, url=receiver.url, events=["turn.due"])
    receiver.answer(500)
    receiver.answer(503)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    wait_for(lambda: read(lambda: Message.objects.filter(status=DeliveryStatus.SENT).exists()))
    assert len(receiver.requests) == 3
    assert len({request.headers["webhook-id"] for request in receiver.requests}) == 1
    assert len({request.body for request in receiver.requests}) == 1, "every retry sends the same bytes"
    verified(receiver, secret)
    attempts = list(Attempt.objects.order_by("number"))
    assert [(row.number, row.status_code, row.succeeded) for row in attempts] == [
        (1, 500, False),
        (2, 503, False),
        (3, 200, True),
    ]
    assert Endpoint.objects.get().failing_since is None, "a success clears the failing streak"


def test_a_slow_receiver_never_delays_the_game(worker, receiver, allow_loopback, settings, make_player):
    """The game's request returns while the receiver still sleeps: delivery happens after the commit."""
    import time

    settings.WEBHOOK_TIMEOUT = 1.0
    alice, game = heads_up(make_player)
    bob, _ = make_player("bob")
    endpoint_create(user=alice, url=receiver.url, events=["turn.due"])
    endpoint_create(user=bob, url=receiver.url, events=["turn.due"])
    for _ in range(4):
        receiver.answer(200, wait=3.0)
    seat_take(game_id=game.pk, player=bob, seat=1)
    wait_for(lambda: len(receiver.requests) >= 1)
    started = time.monotonic()
    action_submit(user=alice, game_id=game.pk, type="stay")
    assert time.monotonic() - started < 1.0
    wait_for(lambda: read(lambda: Attempt.objects.filter(error__startswith="timeout").exists()), seconds=15)


def test_redirects_are_not_followed(receiver, allow_loopback, make_player):
    alice, _ = make_player("alice")
    endpoint, _ = endpoint_create(user=alice, url=receiver.url, events=["turn.due"])
    receiver.answer(302)
    message = endpoint_ping(user=alice, endpoint_id=endpoint.pk)
    assert message_deliver(message_id=message.pk) is False
    assert [request.path for request in receiver.requests] == ["/hook"]
    (attempt,) = Attempt.objects.all()
    assert attempt.status_code == 302 and "redirects are not followed" in attempt.error


def test_an_address_allowed_at_registration_is_checked_again_at_delivery(receiver, settings, make_player):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    alice, _ = make_player("alice")
    endpoint, _ = endpoint_create(user=alice, url=receiver.url, events=["turn.due"])
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    message = endpoint_ping(user=alice, endpoint_id=endpoint.pk)
    assert message_deliver(message_id=message.pk) is False
    assert receiver.requests == []
    (attempt,) = Attempt.objects.all()
    assert attempt.status_code is None and attempt.error.startswith("webhook_url_forbidden")


def test_an_endpoint_failing_for_the_configured_time_is_disabled_and_a_ping_enables_it(
    receiver, allow_loopback, settings, make_player, auth_client
):
    settings.WEBHOOK_DISABLE_AFTER = 0
    alice, token = make_player("alice")
    endpoint, _ = endpoint_create(user=alice, url=receiver.url, events=["turn.due"])
    receiver.answer(500)
    message = Message.objects.create(
        endpoint=endpoint, msg_id="msg_test1", event_type="turn.due", body={"type": "turn.due", "data": {}}
    )
    Message.objects.filter(pk=message.pk).update(next_attempt_at=message.created)
    assert message_deliver(message_id=message.pk) is False
    listed = auth_client(token).get("/api/v1/me/webhooks/").json()[0]
    assert listed["enabled"] is False and "failed" in listed["disabled_reason"]
    assert Message.objects.get(pk=message.pk).status == DeliveryStatus.FAILED, "no retry to a disabled endpoint"
    ping = endpoint_ping(user=alice, endpoint_id=endpoint.pk)
    assert message_deliver(message_id=ping.pk) is True
    assert json.loads(receiver.requests[-1].body)["type"] == "webhook.ping"
    listed = auth_client(token).get("/api/v1/me/webhooks/").json()[0]
    assert listed["enabled"] is True and listed["failing_since"] is None


def test_a_message_is_attempted_once_when_two_tasks_run_it(receiver, allow_loopback, make_player):
    alice, _ = make_player("alice")
    endpoint, _ = endpoint_create(user=alice, url=receiver.url, events=["turn.due"])
    message = endpoint_ping(user=alice, endpoint_id=endpoint.pk)
    assert message_deliver(message_id=message.pk) is True
    assert message_deliver(message_id=message.pk) is False
    assert len(receiver.requests) == 1


def test_deliveries_are_routed_to_their_own_queue_and_nothing_else_is(settings):
    """A receiver that hangs must hold no process a bot's move waits for: only deliveries take the webhooks queue."""
    from palace_api.celery import route_task

    settings.WEBHOOK_DELIVERY_QUEUE = "webhooks"
    assert route_task("webhooks.tasks.deliver", [1], {}, {}) == {"queue": "webhooks"}
    for name in ("webhooks.tasks.game_changed", "webhooks.tasks.sweep_deliveries", "games.tasks.bot_move"):
        assert route_task(name, [1], {}, {}) is None
    settings.WEBHOOK_DELIVERY_QUEUE = ""
    assert route_task("webhooks.tasks.deliver", [1], {}, {}) is None
