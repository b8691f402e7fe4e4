"""Staff hide a chat message from the admin (issue 26): kept, marked hidden, with who hid it and when; gone for
everyone else; and the text is escaped on the admin's pages too."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from chat.models import Message
from chat.services import message_hide, message_post
from palace_api.errors import ForbiddenError, NotFoundError

XSS = "<img src=x onerror=alert(1)>"


def test_staff_hide_a_message_from_the_admin_and_it_is_kept_with_who_and_when(table, client_of, make_staff):
    staff, token = make_staff()
    message = message_post(user=table.alice, game_id=table.game.pk, room="players", text=XSS)
    browser = Client()
    browser.force_login(staff)
    listing = browser.get("/admin/chat/message/")
    assert listing.status_code == 200
    assert XSS not in listing.content.decode() and "&lt;img src=x onerror=alert(1)&gt;" in listing.content.decode()
    response = browser.post(
        "/admin/chat/message/", {"action": "hide", "_selected_action": [message.pk], "index": 0}, follow=True
    )
    assert response.status_code == 200
    message.refresh_from_db()
    assert message.hidden and message.hidden_by == staff and message.hidden_at is not None
    assert Message.objects.filter(pk=message.pk).exists()  # kept
    bob = client_of("bob")
    assert bob.get(f"/api/v1/games/{table.game.pk}/chat/", {"room": "players"}).json()["results"] == []
    as_staff = APIClient()
    as_staff.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    rows = as_staff.get(f"/api/v1/games/{table.game.pk}/chat/", {"room": "players"}).json()["results"]
    assert [(row["id"], row["hidden"]) for row in rows] == [(message.pk, True)]


def test_only_staff_hide_and_an_unknown_message_is_refused(table):
    message = message_post(user=table.alice, game_id=table.game.pk, room="players", text="hi")
    with pytest.raises(ForbiddenError) as refused:
        message_hide(staff=table.bob, message_id=message.pk)
    assert refused.value.code == "staff_only"
    table.bob.is_staff = True
    with pytest.raises(NotFoundError) as missing:
        message_hide(staff=table.bob, message_id=999999)
    assert missing.value.code == "message_not_found"


def test_the_admin_cannot_delete_a_message(table, make_staff):
    staff, _ = make_staff()
    message = message_post(user=table.alice, game_id=table.game.pk, room="players", text="hi")
    browser = Client()
    browser.force_login(staff)
    response = browser.get(f"/admin/chat/message/{message.pk}/delete/")
    assert response.status_code == 403
