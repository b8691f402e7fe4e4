"""Admin for games: staff review of the event log and of hand histories. Nothing here writes.

Every model is read-only: no add, change or delete, for anyone, superusers included; the log is
changed only by ``games.services``. Any active staff user may view it all (the API shows staff
every card too), with no model permission needed.

Besides the model pages, ``GameAdmin`` serves two pages (staff only, through ``admin_view``):
``<game id>/hands/`` lists a game's hands and ``<game id>/hands/<n>/`` shows hand ``n`` with every
card, from ``games.selectors.hand_history`` (a shedding match is one deal: one hand). Each game's pages are
its own templates, ``admin/games/<slug>/hand_list.html`` and ``hand_detail.html``, the slug found in
``games.engine.registry``; every event is in words from the game's own phrase table.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from games.engine.protocol import STAFF
from games.engine.registry import game_kind
from games.models import Event, Game, IdempotencyKey, Seat
from games.selectors.export import has_phh
from games.selectors.hand_history import hand_histories, hand_history
from games.selectors.read_models import event_json
from games.selectors.words import game_names, log_lines, seat_row_name


class StaffReadOnly:
    """Permissions of a review page: any active staff user views; nobody adds, changes or deletes."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _pretty_json(value: Any) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


def event_log_url(game_id: int) -> str:
    """The event changelist filtered to one game, in ``seq`` order."""
    return reverse("admin:games_event_changelist") + f"?game__id__exact={game_id}"


class PlayerListFilter(admin.SimpleListFilter):
    """Games a given player sits at (``?player=<user id>``)."""

    title = "player"
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        users = get_user_model().objects.filter(seats__isnull=False).distinct().order_by("username")
        return [(str(user.pk), user.get_username()) for user in users]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        if value is None:
            return queryset
        # ASCII digits of a 64-bit id only: str.isdigit() lets "²" and 10,000 digits through to int(), a 500.
        if not re.fullmatch(r"[0-9]{1,18}", value):
            return queryset.none()
        return queryset.filter(seats__player_id=int(value)).distinct()


class SeatInline(StaffReadOnly, admin.TabularInline):
    model = Seat
    fields = ("number", "name", "player", "bot", "to_act", "joined")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    @admin.display(description="name")
    def name(self, seat: Seat) -> str:
        """Who sits there as the site and the logs name them (``words.seat_name``)."""
        return seat_row_name(seat)


@admin.register(Game)
class GameAdmin(StaffReadOnly, admin.ModelAdmin):
    list_display = ("id", "kind", "status", "version", "seat_list", "creator", "created", "review_links")
    list_display_links = ("id",)
    list_filter = ("kind", "status", ("created", admin.DateFieldListFilter), PlayerListFilter)
    search_fields = ("=id", "seats__player__username", "creator__username")
    date_hierarchy = "created"
    list_select_related = ("creator",)
    inlines = (SeatInline,)
    fields = (
        "kind",
        "status",
        "version",
        "seat_count",
        "options",
        "turn_timeout",
        "deadline",
        "creator",
        "created",
        "updated",
        "review_links",
        "hand_list",
        "prearranged",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description="seats")
    def seat_list(self, game: Game) -> str:
        names = ((seat.number, seat_row_name(seat)) for seat in game.seats.all())
        return format_html_join(", ", "{}&nbsp;{}", names) or "none"

    @admin.display(description="review")
    def review_links(self, game: Game) -> str:
        hands = reverse("admin:games_game_hands", args=[game.pk])
        export = reverse("game-export", args=[game.pk])
        links = format_html(
            '<a href="{}">event log</a> · <a href="{}">hands</a> · <a href="{}">export</a>',
            event_log_url(game.pk),
            hands,
            export,
        )
        if not has_phh(game):
            return links
        return format_html('{} · <a href="{}">PHH</a>', links, reverse("game-export-phh", args=[game.pk]))

    @admin.display(description="hands")
    def hand_list(self, game: Game) -> str:
        hands = hand_histories(game)
        if not hands:
            return "no hand yet"
        rows = (
            (reverse("admin:games_game_hand", args=[game.pk, hand.number]), hand.number, hand.result) for hand in hands
        )
        return format_html_join("", '<div><a href="{}">hand {}</a>: {}</div>', rows)

    @admin.display(description="prearranged shuffles")
    def prearranged(self, game: Game) -> str:
        if not game.prearranged_shuffles:
            return "none"
        orders = ((number, " ".join(order)) for number, order in enumerate(game.prearranged_shuffles))
        return format_html_join("", "<div>shuffle {}: <code>{}</code></div>", orders)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("<int:game_id>/hands/", view(self.hands_view), name="games_game_hands"),
            path("<int:game_id>/hands/<int:number>/", view(self.hand_view), name="games_game_hand"),
            *super().get_urls(),
        ]

    def _reviewed_game(self, request: HttpRequest, game_id: int) -> Game:
        game = self.get_object(request, str(game_id))
        if game is None:
            raise Http404("no such game")
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        return game

    def _context(self, request: HttpRequest, game: Game, title: str, **extra: Any) -> dict[str, Any]:
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "game": game,
            "title": title,
            "log_url": event_log_url(game.pk),
            "hands_url": reverse("admin:games_game_hands", args=[game.pk]),
            **extra,
        }

    def hands_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """The hands of one game, each with its dealer and result."""
        game = self._reviewed_game(request, game_id)
        context = self._context(request, game, f"Hands of game {game.pk}", hands=hand_histories(game))
        return TemplateResponse(request, f"admin/games/{game_kind(game.kind).slug}/hand_list.html", context)

    def hand_view(self, request: HttpRequest, game_id: int, number: int) -> HttpResponse:
        """One hand with every card, in the game's own template: Palace Poker's deal, play, battles, showdown,
        pot and shuffle orders; the shedding game's deal, setup, turns and finishing order."""
        game = self._reviewed_game(request, game_id)
        hand = hand_history(game, number)
        if hand is None:
            raise Http404("no such hand")
        context = self._context(
            request,
            game,
            f"Game {game.pk}, hand {hand.number}",
            hand=hand,
            hand_log_url=f"{event_log_url(game.pk)}&seq__gte={hand.first_seq}&seq__lte={hand.last_seq}",
            previous_url=reverse("admin:games_game_hand", args=[game.pk, number - 1]) if number > 1 else None,
            next_url=(
                reverse("admin:games_game_hand", args=[game.pk, number + 1])
                if hand.finished and not hand.ends_match
                else None
            ),
        )
        return TemplateResponse(request, f"admin/games/{game_kind(game.kind).slug}/hand_detail.html", context)


@admin.register(Event)
class EventAdmin(StaffReadOnly, admin.ModelAdmin):
    list_display = ("game", "seq", "kind", "actor", "summary", "words", "created")
    list_display_links = ("seq",)
    list_filter = ("kind",)
    search_fields = ("=game__id",)
    list_select_related = ("game",)
    ordering = ("-game_id", "seq")
    list_per_page = 200
    fields = ("game", "seq", "kind", "actor", "created", "words", "payload_json")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        return super().get_queryset(request).prefetch_related("game__seats__player")

    @admin.display(description="events")
    def summary(self, event: Event) -> str:
        events = event.payload.get("events")
        if events is None:
            return ", ".join(f"{key}={value}" for key, value in event.payload.items())
        return ", ".join(raw["type"] for raw in events)

    @admin.display(description="in words")
    def words(self, event: Event) -> str:
        """The entry as staff read it, phrased by its game's own table."""
        names = game_names(event.game).names
        lines = log_lines(event.game.kind, [event_json(event, STAFF)], names)
        return format_html_join("", "<div>{}</div>", ((entry.text,) for entry in lines)) or "—"

    @admin.display(description="payload (staff JSON)")
    def payload_json(self, event: Event) -> str:
        return _pretty_json(event.payload)


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(StaffReadOnly, admin.ModelAdmin):
    list_display = ("user", "key", "status", "response_status", "created")
    list_filter = ("status",)
    search_fields = ("key", "user__username")
    list_select_related = ("user",)
    fields = ("user", "key", "request_hash", "status", "response_status", "created", "response_json")
    readonly_fields = fields

    @admin.display(description="response body")
    def response_json(self, key: IdempotencyKey) -> str:
        return _pretty_json(key.response_body)
