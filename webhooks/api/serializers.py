"""Request and response bodies of the webhooks API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.messages import WEBHOOK_EVENTS as EVENT_TYPES
from palace_api.serializers import StrictSerializer
from webhooks.models import Attempt, Endpoint
from webhooks.services.url_guard import MAX_URL_LENGTH, SCHEME_PATTERN


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": MAX_URL_LENGTH, "pattern": SCHEME_PATTERN})
class WebhookUrlField(serializers.CharField):
    """A webhook's URL, its scheme stated in the schema; the service checks the rest (``url_guard``). A JSON
    string only: DRF's CharField would take ``12345`` for ``"12345"``."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class EndpointCreateInput(StrictSerializer):
    url = WebhookUrlField(
        min_length=1,
        max_length=MAX_URL_LENGTH,
        # Spaces around it are refused by the guard, as the schema's pattern refuses them, not trimmed away.
        trim_whitespace=False,
        help_text="An http:// or https:// URL on a public address.",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENT_TYPES)),
        allow_empty=False,
        min_length=1,
        help_text=f"The event types to receive: {', '.join(EVENT_TYPES)}.",
    )


class EndpointOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    created = serializers.DateTimeField()
    enabled = serializers.BooleanField(
        help_text="false once every attempt has failed for a day (WEBHOOK_DISABLE_AFTER): see disabled_reason."
    )
    failing_since = serializers.DateTimeField(
        allow_null=True, help_text="The first failed attempt since the last success; null while deliveries succeed."
    )
    disabled_at = serializers.DateTimeField(allow_null=True)
    disabled_reason = serializers.CharField(
        allow_blank=True, help_text="Why it was disabled; a ping that succeeds enables it."
    )


def endpoint_row(endpoint: Endpoint, *, secret: str | None = None) -> dict[str, Any]:
    """An endpoint as ``EndpointOutput`` renders it (or, given its clear ``secret``, ``EndpointCreatedOutput``)."""
    row = {
        "id": endpoint.pk,
        "url": endpoint.url,
        "events": endpoint.events,
        "created": endpoint.created,
        "enabled": endpoint.disabled_at is None,
        "failing_since": endpoint.failing_since,
        "disabled_at": endpoint.disabled_at,
        "disabled_reason": endpoint.disabled_reason,
    }
    if secret is not None:
        row["secret"] = secret
    return row


class EndpointCreatedOutput(EndpointOutput):
    secret = serializers.CharField(help_text="The signing secret (whsec_...), shown this once only.")


class PingOutput(serializers.Serializer):
    webhook_id = serializers.CharField(help_text="The webhook-id header the ping is sent with.")


class AttemptOutput(serializers.Serializer):
    at = serializers.DateTimeField()
    webhook_id = serializers.CharField(help_text="The message's webhook-id, the same on each of its attempts.")
    event = serializers.CharField()
    attempt = serializers.IntegerField(help_text="1 for the first attempt of its message.")
    status_code = serializers.IntegerField(allow_null=True, help_text="null: no HTTP answer (see error).")
    duration_ms = serializers.IntegerField()
    error = serializers.CharField(allow_blank=True)
    succeeded = serializers.BooleanField()


def attempt_row(attempt: Attempt) -> dict[str, Any]:
    """An attempt as ``AttemptOutput`` renders it (its message loaded with it)."""
    return {
        "at": attempt.at,
        "webhook_id": attempt.message.msg_id,
        "event": attempt.message.event_type,
        "attempt": attempt.number,
        "status_code": attempt.status_code,
        "duration_ms": attempt.duration_ms,
        "error": attempt.error,
        "succeeded": attempt.succeeded,
    }


class DeliveriesQuery(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
