"""The admin shows webhooks and their attempts to support, read-only, never the signing secret."""

from __future__ import annotations

import pytest
from django.utils import timezone

from webhooks.models import Attempt, Endpoint, Message
from webhooks.services.secret_box import seal

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_user(username="support", password="pw", is_staff=True, is_superuser=True)  # noqa: S106
    client.force_login(user)
    return client


def test_support_sees_endpoints_and_attempts_but_no_secret_and_cannot_change_them(staff_client, make_player):
    alice, _ = make_player("alice")
    endpoint = Endpoint.objects.create(
        user=alice,
        url="https://hooks.example.com/p",
        events=["turn.due"],
        sealed_secret=seal("whsec_c2VjcmV0"),
    )
    message = Message.objects.create(endpoint=endpoint, msg_id="msg_abc", event_type="turn.due", body={})
    Attempt.objects.create(
        message=message, endpoint=endpoint, number=1, at=timezone.now(), status_code=503, error="HTTP 503"
    )
    listing = staff_client.get("/admin/webhooks/endpoint/")
    assert listing.status_code == 200 and b"hooks.example.com" in listing.content
    detail = staff_client.get(f"/admin/webhooks/endpoint/{endpoint.pk}/change/")
    assert detail.status_code == 200 and b"whsec_" not in detail.content
    assert endpoint.sealed_secret[:20].encode() not in detail.content, "not even encrypted"
    attempts = staff_client.get("/admin/webhooks/attempt/")
    assert attempts.status_code == 200 and b"msg_abc" in attempts.content and b"HTTP 503" in attempts.content
    assert staff_client.get("/admin/webhooks/endpoint/add/").status_code == 403
    assert staff_client.post(f"/admin/webhooks/endpoint/{endpoint.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Endpoint.objects.filter(pk=endpoint.pk).exists()
