"""Admin for support: the mails made (recipient, kind, games, time, status, each attempt) and the addresses,
read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notifications.models import EmailAddress, Mail, MailAttempt, MailGame
from outbox.admin import ReadOnlyAdmin, ReadOnlyInline


class MailGameInline(ReadOnlyInline):
    model = MailGame
    fields = ("game", "seat", "version")


class MailAttemptInline(ReadOnlyInline):
    model = MailAttempt
    fields = ("number", "at", "duration_ms", "succeeded", "error")


@admin.register(Mail)
class MailAdmin(ReadOnlyAdmin):
    list_display = ("id", "to", "user", "kind", "game_ids", "created", "sent_at", "status", "attempts", "error")
    list_filter = ("status", "kind")
    search_fields = ("to", "user__username", "subject")
    list_select_related = ("user",)
    inlines = [MailGameInline, MailAttemptInline]
    date_hierarchy = "created"

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("game_rows")

    @admin.display(description="games")
    def game_ids(self, obj: Mail) -> str:
        return ", ".join(f"#{row.game_id}" for row in obj.game_rows.all()) or "-"


@admin.register(EmailAddress)
class EmailAddressAdmin(ReadOnlyAdmin):
    list_display = ("user", "address", "confirmed_at", "turn", "finished", "updated")
    list_filter = ("turn", "finished")
    search_fields = ("address", "user__username")
