"""Admin pieces every channel's deliveries share: support reads them, and nobody adds, changes or deletes one
there (players manage theirs through the API; a delivery's record is what went out)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


def _never(self: Any, request: HttpRequest, obj: Any = None) -> bool:
    return False


class ReadOnly:
    """Every write permission refused, to anyone."""

    has_add_permission = has_change_permission = has_delete_permission = _never


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """A model's pages, to read only."""


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    """Rows shown under their parent's page, to read only."""

    extra = 0
