"""The address and preferences API (/api/v1/me/email/) and the pages mails link to (/email/...)."""

from __future__ import annotations

import time
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail as outbox
from django.core import signing
from django.test import Client

from notifications.models import EmailAddress, Mail, MailKind
from notifications.services import email_set
from notifications.services.links import CONFIRM_SALT, confirm_token, unsubscribe_token
from outbox.models import DeliveryStatus
from tests.notifications.conftest import deliver_pending

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/email/"


def confirm_link() -> str:
    """The confirmation link of the last confirmation mail sent, as a path."""
    body = outbox.outbox[-1].body
    line = next(line for line in body.splitlines() if "/email/confirm/" in line)
    return line.strip().removeprefix("http://127.0.0.1:8000")


def test_setting_an_address_mails_a_link_that_confirms_it_without_login(make_player, auth_client):
    alice, token = make_player("alice")
    client = auth_client(token)
    assert client.get(URL).json() == {
        "address": None,
        "confirmed": False,
        "preferences": {"turn": True, "finished": True},
    }
    response = client.post(URL, {"address": "Alice@Example.COM"})
    assert response.status_code == 202
    assert response.json()["address"] == "Alice@example.com"
    assert response.json()["confirmed"] is False

    assert deliver_pending() == 1
    (message,) = outbox.outbox
    assert message.to == ["Alice@example.com"]
    assert message.message()["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = confirm_link()

    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get(link)
    assert page.status_code == 200 and b"Confirm Alice@example.com" in page.content
    assert client.get(URL).json()["confirmed"] is False, "a GET (a mail scanner's) confirms nothing"
    done = anonymous.post(link)
    assert done.status_code == 200 and b"Address confirmed" in done.content
    assert client.get(URL).json()["confirmed"] is True
    assert anonymous.post(link).status_code == 200, "confirming twice is fine"

    # The same address again changes nothing and mails nothing.
    assert client.post(URL, {"address": "Alice@example.com"}).status_code == 200
    assert Mail.objects.filter(kind=MailKind.CONFIRM).count() == 1


def test_a_new_address_is_unconfirmed_and_an_old_link_then_refused(make_player, auth_client):
    alice, token = make_player("alice")
    client = auth_client(token)
    client.post(URL, {"address": "alice@example.com"})
    deliver_pending()
    old_link = confirm_link()
    client.post(URL, {"address": "alice@example.org"})
    assert Mail.objects.filter(kind=MailKind.CONFIRM, to="alice@example.com").get().status == DeliveryStatus.SENT
    response = Client().post(old_link)
    assert response.status_code == 409
    assert b"address_changed" in response.content
    assert client.get(URL).json() == {
        "address": "alice@example.org",
        "confirmed": False,
        "preferences": {"turn": True, "finished": True},
    }


def test_bad_and_expired_links_are_a_400_with_a_code(make_player):
    alice, _ = make_player("alice")
    email_set(user=alice, address="alice@example.com")
    good = confirm_token(user_id=alice.pk, address="alice@example.com")
    for token, code in [
        (good[:-2] + "xx", b"invalid_token"),
        (unsubscribe_token(user_id=alice.pk, scope="turn"), b"invalid_token"),  # another purpose's salt
        ("nonsense", b"invalid_token"),
    ]:
        response = Client().post(f"/email/confirm/{token}/")
        assert response.status_code == 400
        assert code in response.content
    # Signed eight days ago: older than the 7 days a link is valid.
    with mock.patch("time.time", return_value=time.time() - 8 * 24 * 3600):
        old = signing.dumps({"u": alice.pk, "a": "alice@example.com"}, salt=CONFIRM_SALT)
    response = Client().get(f"/email/confirm/{old}/")
    assert response.status_code == 400 and b"expired_token" in response.content
    assert Client().get("/email/unsubscribe/nonsense/").status_code == 400
    assert EmailAddress.objects.get(user=alice).confirmed_at is None


def test_the_unsubscribe_page_asks_first_and_needs_no_login(make_player, confirmed):
    alice, _ = make_player("alice")
    confirmed(alice)
    link = f"/email/unsubscribe/{unsubscribe_token(user_id=alice.pk, scope='all')}/"
    page = Client().get(link)
    assert page.status_code == 200 and b'<form method="post">' in page.content
    assert EmailAddress.objects.get(user=alice).turn is True
    assert Client(enforce_csrf_checks=True).post(link).status_code == 200
    row = EmailAddress.objects.get(user=alice)
    assert (row.turn, row.finished) == (False, False)
    assert Client().post(link).status_code == 200, "unsubscribing twice is fine"


def test_preferences_are_patched_and_need_an_address(make_player, auth_client):
    alice, token = make_player("alice")
    client = auth_client(token)
    response = client.patch(URL, {"turn": False})
    assert response.status_code == 404 and response.json()["code"] == "no_email"
    client.post(URL, {"address": "alice@example.com"})
    response = client.patch(URL, {"finished": False})
    assert response.status_code == 200
    assert response.json()["preferences"] == {"turn": True, "finished": False}
    response = client.patch(URL, {})  # changes nothing: the preferences as they are
    assert response.status_code == 200 and response.json()["preferences"] == {"turn": True, "finished": False}
    response = client.patch(URL, {"turn": "maybe"})
    assert response.status_code == 400 and "turn" in response.json()["errors"]


@pytest.mark.parametrize("value", ["false", "0", 0, 1, "yes", "off", None, [], {}])
def test_a_preference_is_a_json_boolean_nothing_coerced_to_one(make_player, auth_client, value):
    """Strict input (issue #22): DRF's BooleanField took ``"false"``, ``0`` or ``"off"`` for false; each is a
    400 ``invalid`` naming the field now, and the preferences stay as they were."""
    alice, token = make_player("alice")
    client = auth_client(token)
    client.post(URL, {"address": "alice@example.com"})
    response = client.patch(URL, {"turn": value})
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content
    assert set(response.json()["errors"]) == {"turn"}
    assert client.get(URL).json()["preferences"] == {"turn": True, "finished": True}


def test_bad_input_is_a_4xx_with_a_code(make_player, auth_client, api_client):
    alice, token = make_player("alice")
    client = auth_client(token)
    assert api_client.get(URL).status_code == 401
    response = client.post(URL, {"address": "not an address"})
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    response = client.post(URL, {})
    assert response.status_code == 400 and "address" in response.json()["errors"]
    response = client.post(URL, "address=a@b.c", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    # An unknown field is refused by name, not ignored (a typo would otherwise be silently lost).
    response = client.post(URL, {"address": "a@example.com", "adress": "x"})
    assert response.status_code == 400 and set(response.json()["errors"]) == {"adress"}
    response = client.patch(URL, {"turns": False})
    assert response.status_code == 400 and set(response.json()["errors"]) == {"turns"}
    response = client.delete(URL)
    assert response.status_code == 404 and response.json()["code"] == "no_email"


def test_too_many_confirmation_mails_are_refused(make_player, auth_client):
    alice, token = make_player("alice")
    client = auth_client(token)
    for number in range(5):
        assert client.post(URL, {"address": f"alice{number}@example.com"}).status_code == 202
    response = client.post(URL, {"address": "alice9@example.com"})
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_confirmations"
    assert client.get(URL).json()["address"] == "alice4@example.com"
    # Like a throttle's 429, it says when to come back: once the oldest link of the day is a day old.
    assert 86_300 < response.json()["retry_after"] <= 86_400
    assert response["Retry-After"] == str(response.json()["retry_after"])
    oldest = Mail.objects.filter(kind=MailKind.CONFIRM).order_by("created").first()
    Mail.objects.filter(pk=oldest.pk).update(created=oldest.created - timedelta(hours=23))
    response = client.post(URL, {"address": "alice9@example.com"})
    assert response.status_code == 429 and 3_500 < response.json()["retry_after"] <= 3_600


def test_removing_the_address_cancels_pending_mails(make_player, auth_client):
    alice, token = make_player("alice")
    client = auth_client(token)
    client.post(URL, {"address": "alice@example.com"})
    assert client.delete(URL).status_code == 204
    assert client.get(URL).json()["address"] is None
    assert deliver_pending() == 0
    assert Mail.objects.get().status == DeliveryStatus.CANCELLED
    assert outbox.outbox == []


def test_the_admin_lists_the_mails_read_only(make_player, confirmed, client, django_user_model):
    alice, _ = make_player("alice")
    confirmed(alice)
    support = django_user_model.objects.create_user(username="support", is_staff=True, is_superuser=True)
    client.force_login(support)
    response = client.get("/admin/notifications/mail/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "alice@example.com" in page and "address confirmation" in page and "sent" in page
    mail = Mail.objects.get()
    detail = client.get(f"/admin/notifications/mail/{mail.pk}/change/")
    assert detail.status_code == 200 and b"Confirm your email address for Palace" in detail.content
    assert client.post(f"/admin/notifications/mail/{mail.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/notifications/emailaddress/").status_code == 200
