"""Admin for support: endpoints and their delivery attempts, read-only (players manage theirs over the API)."""

from __future__ import annotations

from django.contrib import admin

from outbox.admin import ReadOnlyAdmin
from webhooks.models import Attempt, Endpoint, Message


@admin.register(Endpoint)
class EndpointAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "url", "events", "created", "failing_since", "disabled_at")
    list_filter = ("disabled_at",)
    search_fields = ("url", "user__username")
    # The signing secret is the player's: support never sees it, not even encrypted.
    exclude = ("sealed_secret",)


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ("msg_id", "endpoint", "event_type", "status", "attempts", "created", "next_attempt_at", "error")
    list_filter = ("status", "event_type")
    search_fields = ("msg_id",)


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = ("at", "endpoint", "event", "webhook_id", "number", "status_code", "duration_ms", "error")
    list_filter = ("succeeded", "status_code")
    list_select_related = ("message", "endpoint")
    search_fields = ("message__msg_id", "endpoint__url")

    @admin.display(description="event")
    def event(self, obj: Attempt) -> str:
        return obj.message.event_type

    @admin.display(description="webhook-id")
    def webhook_id(self, obj: Attempt) -> str:
        return obj.message.msg_id
