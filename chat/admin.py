"""Staff moderation of the table chat: hide a message (kept, with who hid it and when) or show it again."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from chat.models import Message, Mute
from chat.services import message_hide


class StaffModerates:
    """Any active staff user views the chat and hides messages (through the service); nobody adds, edits or
    deletes one."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # hidden, never deleted: the record stays


@admin.register(Message)
class MessageAdmin(StaffModerates, admin.ModelAdmin):
    list_display = ("id", "game", "room", "author", "text", "created", "hidden", "hidden_by", "hidden_at")
    list_filter = ("room", "hidden")
    search_fields = ("text", "author__username")
    readonly_fields = ("game", "room", "author", "text", "created", "hidden", "hidden_by", "hidden_at")
    actions = ["hide", "show"]

    @admin.action(description="Hide the selected messages")
    def hide(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        for pk in queryset.values_list("pk", flat=True):
            message_hide(staff=request.user, message_id=pk, hidden=True)
        messages.success(request, "Hidden.")

    @admin.action(description="Show the selected messages again")
    def show(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        for pk in queryset.values_list("pk", flat=True):
            message_hide(staff=request.user, message_id=pk, hidden=False)
        messages.success(request, "Shown again.")


@admin.register(Mute)
class MuteAdmin(StaffModerates, admin.ModelAdmin):
    list_display = ("user", "muted", "created")
    readonly_fields = ("user", "muted", "created")
