"""End to end: the beat task goes through the broker to a real worker, which sends the turn mail to a real SMTP
server on 127.0.0.1; the mail is read back as the server got it, both parts and the headers."""

from __future__ import annotations

import email
from email import policy

import pytest

from notifications.models import Mail, MailKind
from outbox.models import DeliveryStatus
from palace_api.celery import app
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_turn_mail_goes_through_the_worker_to_a_real_smtp_server(
    smtp_server, settings, make_player, confirmed, heads_up, worker
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = smtp_server.host, smtp_server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.DEFAULT_FROM_EMAIL = "Palace <palace@example.com>"
    settings.NOTIFICATION_GRACE_SECONDS = 0
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    wait_for(lambda: len(smtp_server.received()) == 1, seconds=30)  # the confirmation mail, sent by the fixture
    game = heads_up(alice, bob)

    app.send_task("notifications.tasks.sweep")

    def turn_mails() -> list[email.message.EmailMessage]:
        parsed = [email.message_from_bytes(raw, policy=policy.default) for raw in smtp_server.received()]
        return [message for message in parsed if message["Subject"].startswith("Your move")]

    wait_for(lambda: len(turn_mails()) == 1, seconds=30)
    (message,) = turn_mails()
    assert message["To"] == "alice@example.com"
    assert message["From"] == "Palace <palace@example.com>"
    assert message["Subject"] == f"Your move in game #{game.pk} (Palace Poker)"
    # The long URL is folded onto a line of its own (RFC 5322 folding), hence the strip.
    assert message["List-Unsubscribe"].strip().startswith("<http://127.0.0.1:8000/email/unsubscribe/")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    assert f"http://127.0.0.1:8000/games/{game.pk}/" in text
    assert f'<a href="http://127.0.0.1:8000/games/{game.pk}/">' in html
    assert message.get_content_type() == "multipart/alternative"
    wait_for(lambda: Mail.objects.get(kind=MailKind.TURN).status == DeliveryStatus.SENT, seconds=30)
