"""Delivering a message: webhooks as a channel of the outbox (``outbox.services``), which claims, records,
retries (``WEBHOOK_RETRY_DELAYS`` with ``WEBHOOK_RETRY_JITTER``) and disables an endpoint after
``WEBHOOK_DISABLE_AFTER`` seconds of failures. What is webhooks' own is here: a signed POST per attempt, nothing
but a ping to a disabled endpoint, a ping never retried, and a ping that succeeds enabling its endpoint again.
"""

from __future__ import annotations

from games.messages import PING
from outbox.channels import Channel, Outcome, Refusal
from outbox.models import DeliveryStatus
from outbox.services import delivery_attempt
from palace_api.errors import ApplicationError
from webhooks.models import Attempt, Endpoint, Message
from webhooks.services.messages import body_text
from webhooks.services.secret_box import unseal
from webhooks.services.transport import post_signed


class WebhookChannel(Channel):
    model = Message
    attempt_model = Attempt
    attempt_key = "message"
    task = "webhooks.tasks.deliver"
    delays_setting = "WEBHOOK_RETRY_DELAYS"
    jitter_setting = "WEBHOOK_RETRY_JITTER"
    disable_after_setting = "WEBHOOK_DISABLE_AFTER"
    related = ("endpoint",)

    def refusal(self, delivery: Message) -> Refusal | None:
        if delivery.endpoint.disabled_at is not None and delivery.event_type != PING:
            return Refusal(DeliveryStatus.FAILED, "the endpoint is disabled")
        return None

    def send(self, delivery: Message) -> Outcome:
        endpoint = delivery.endpoint
        record = (("endpoint", endpoint),)
        try:
            secret = unseal(endpoint.sealed_secret)
        except ApplicationError as error:
            return Outcome(succeeded=False, duration_ms=0, error=f"{error.code}: {error.detail}", record=record)
        sent = post_signed(url=endpoint.url, secret=secret, msg_id=delivery.msg_id, body=body_text(delivery.body))
        record = (*record, ("status_code", sent.status_code))
        return Outcome(sent.succeeded, sent.duration_ms, sent.error, record=record)

    def destination(self, delivery: Message) -> Endpoint:
        return delivery.endpoint

    def retries(self, delivery: Message) -> bool:
        # A ping is a test of the endpoint now: one attempt, never retried.
        return delivery.event_type != PING

    def revives(self, delivery: Message) -> bool:
        return delivery.event_type == PING


WEBHOOKS = WebhookChannel()


def message_deliver(*, message_id: int) -> bool:
    """Make the next attempt of message ``message_id`` if it is due and nobody else is making it
    (``outbox.services.delivery_attempt``). Returns whether an attempt succeeded."""
    return delivery_attempt(WEBHOOKS, delivery_id=message_id)
