"""Admin for players: a read-mostly list. Accounts are made through the API (players.services)."""

from django.contrib import admin

from players.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "bot", "created")
    list_filter = ("kind",)
    search_fields = ("name",)
    readonly_fields = ("user", "name", "created")
