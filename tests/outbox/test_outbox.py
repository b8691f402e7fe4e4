"""The outbox, alike for every channel (outbox/services.py; README, "Webhooks" and "Email notifications").

Given deliveries of either channel, the claim lets one attempt through at a time, a failure is retried on the
channel's schedule (a countdown task when it fits, else the sweeper), a broker error at the commit leaves the
delivery to the next sweep at once, and the sweep sends a task only where none may still run.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from notifications.models import Mail
from notifications.services import email_set
from notifications.services.delivery import MAILS, mail_deliver
from outbox.broker import ATTEMPT_TIME_LIMIT
from outbox.channels import Outcome
from outbox.models import DeliveryStatus
from outbox.services import LEASE, REQUEUE_AFTER, deliveries_queue, deliveries_sweep, delivery_attempt, retry_delay
from webhooks.services.delivery import WEBHOOKS

pytestmark = pytest.mark.django_db

SEND = "outbox.broker.current_app.send_task"


def a_mail(make_player) -> Mail:
    """A pending confirmation mail, due now (its task, sent on commit, is not sent in a test's transaction)."""
    user, _ = make_player()
    email_set(user=user, address=f"{user.get_username()}@example.com")
    return Mail.objects.get(user=user)


def test_a_broker_error_at_the_commit_leaves_the_rest_to_the_next_sweep(
    make_player, django_capture_on_commit_callbacks
):
    """The first refused send stops the sending (the broker is down) and clears the wait of every delivery not
    sent, so the next sweep sends them rather than after ``REQUEUE_AFTER``."""
    mails = [a_mail(make_player) for _ in range(3)]
    assert all(mail.queued_until is not None for mail in mails)
    with mock.patch(SEND, side_effect=BrokerError("down")) as send:
        with django_capture_on_commit_callbacks(execute=True):
            deliveries_queue(MAILS, [mail.pk for mail in mails])
    assert send.call_count == 1
    assert not Mail.objects.filter(queued_until__isnull=False).exists()
    with mock.patch(SEND) as send:
        with django_capture_on_commit_callbacks(execute=True):
            assert deliveries_sweep(MAILS) == 3
    assert sorted(call.kwargs["args"][0] for call in send.call_args_list) == sorted(mail.pk for mail in mails)
    assert {call.args[0] for call in send.call_args_list} == {"notifications.tasks.deliver"}


def test_the_sweep_sends_only_where_no_task_may_still_run(make_player, django_capture_on_commit_callbacks):
    queued, held, lost = (a_mail(make_player) for _ in range(3))
    now = timezone.now()
    Mail.objects.filter(pk=queued.pk).update(queued_until=now + timedelta(seconds=10))
    Mail.objects.filter(pk=held.pk).update(queued_until=None, locked_until=now + timedelta(seconds=10))
    Mail.objects.filter(pk=lost.pk).update(queued_until=now - timedelta(seconds=1))
    with mock.patch(SEND) as send:
        with django_capture_on_commit_callbacks(execute=True):
            assert deliveries_sweep(MAILS, now=now) == 1
    assert [call.kwargs["args"] for call in send.call_args_list] == [[lost.pk]]
    assert Mail.objects.get(pk=lost.pk).queued_until == now + REQUEUE_AFTER
    with mock.patch(SEND) as send:
        assert deliveries_sweep(MAILS, now=now) == 0, "the task just sent may still run"


def test_a_failure_is_retried_by_a_countdown_when_it_fits_else_by_the_sweeper(
    make_player, settings, django_capture_on_commit_callbacks
):
    settings.MAIL_RETRY_DELAYS = [60.0, 3600.0]
    settings.TIMEOUT_COUNTDOWN_MAX = 600
    mail = a_mail(make_player)
    refused = mock.patch("notifications.services.delivery.get_connection", side_effect=ConnectionRefusedError(111))
    with refused, mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        assert mail_deliver(mail_id=mail.pk) is False
    mail.refresh_from_db()
    assert mail.status == DeliveryStatus.PENDING and mail.attempts == 1
    assert [(call.kwargs["args"], call.kwargs["countdown"]) for call in send.call_args_list] == [([mail.pk], 60.0)]
    assert mail.queued_until == mail.next_attempt_at + REQUEUE_AFTER
    with refused, mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        assert mail_deliver(mail_id=mail.pk, now=mail.next_attempt_at) is False
    mail.refresh_from_db()
    assert send.call_count == 0, "an hour is too long for a countdown: the sweeper sends it when due"
    assert mail.queued_until is None and mail.attempts == 2
    assert deliveries_sweep(MAILS, now=mail.next_attempt_at - timedelta(seconds=1)) == 0
    with mock.patch(SEND):
        assert deliveries_sweep(MAILS, now=mail.next_attempt_at) == 1
    with refused:
        assert mail_deliver(mail_id=mail.pk, now=mail.next_attempt_at) is False
    mail.refresh_from_db()
    assert mail.status == DeliveryStatus.FAILED and mail.next_attempt_at is None and mail.attempts == 3
    assert list(mail.attempt_rows.values_list("number", flat=True)) == [3, 2, 1]


class Reentrant(type(MAILS)):
    """The mail channel, whose attempt tries the same mail again meanwhile, as a second worker would."""

    inner: list[bool]

    def send(self, delivery: Mail) -> Outcome:
        self.inner.append(delivery_attempt(self, delivery_id=delivery.pk))
        self.inner.append(delivery_attempt(self, delivery_id=delivery.pk, now=timezone.now() + LEASE / 2))
        return Outcome(True, 1)


def test_a_claimed_delivery_is_attempted_once_for_as_long_as_its_task_may_run(make_player):
    channel = Reentrant()
    channel.inner = []
    mail = a_mail(make_player)
    assert delivery_attempt(channel, delivery_id=mail.pk) is True
    assert channel.inner == [False, False]
    assert LEASE == timedelta(seconds=ATTEMPT_TIME_LIMIT)
    mail.refresh_from_db()
    assert mail.status == DeliveryStatus.SENT and mail.attempts == 1 and mail.locked_until is None
    assert delivery_attempt(channel, delivery_id=mail.pk) is False, "a sent mail is not sent again"


def test_the_retry_schedules_of_both_channels(settings):
    settings.WEBHOOK_RETRY_DELAYS, settings.WEBHOOK_RETRY_JITTER = [100.0, 1000.0], 0.2
    settings.MAIL_RETRY_DELAYS = [60.0]
    for _ in range(50):
        assert 80.0 <= retry_delay(WEBHOOKS, 1) <= 120.0
        assert 800.0 <= retry_delay(WEBHOOKS, 2) <= 1200.0
    assert retry_delay(WEBHOOKS, 3) is None
    assert retry_delay(MAILS, 1) == 60.0, "mails have no jitter"
    assert retry_delay(MAILS, 2) is None
