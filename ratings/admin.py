"""Read-only admin of ratings: what staff look at; only ``ratings.services`` writes them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import RatedGame, Rating


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("ladder", "player", "bot", "mu", "sigma", "ordinal", "provisional", "games", "last_rated")
    list_filter = ("ladder", "provisional")
    search_fields = ("player__username", "bot")


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnly):
    list_display = ("game", "ladder", "finished")
    list_filter = ("ladder",)
