"""Exports: ``GET games/{id}/export/`` (one game, JSON), ``GET games/{id}/export/phh/`` (a Palace Poker game as a
PHH text) and ``GET me/games/export/`` (a player's finished games, NDJSON, streamed). All are throttled in their own
scope, ``export`` (``THROTTLE_EXPORT``), besides ``user``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from games.api.schema import GAME_EVENT, OptionsField, ViewerField
from games.api.serializers import EventOutput, SeatOutput
from games.engine.master_seed import SCHEME as MASTER_SCHEME
from games.engine.registry import GAMES
from games.selectors import export as selectors
from games.selectors.read_models import game_get
from palace_api.errors import NO_BODY, ErrorCode, error_responses
from palace_api.serializers import NoQuery, StrictSerializer, query

NDJSON = "application/x-ndjson"
PHH = "text/plain"
"""The PHH text's media type: TOML, sent as plain text (UTF-8) so that a browser shows it."""


class ExportThrottle(ScopedRateThrottle):
    """Exports read whole logs: their own, lower rate per account (README, "Exports")."""

    scope_attr = "throttle_scope"


class DealOutput(serializers.Serializer):
    deal = serializers.IntegerField(min_value=0, help_text="0: the draw for the first dealer; then each deal.")
    scheme = serializers.ChoiceField(choices=["palace-shuffle-1"])
    commitment = serializers.CharField(help_text="SHA-256 of the salt then the server's seed, hex.")
    players = serializers.ListField(child=serializers.CharField(), help_text="Each seat's seed, hex.")
    drawn = serializers.ListField(child=serializers.IntegerField(), help_text="Seats whose seed the server drew.")
    committed_at = serializers.IntegerField(help_text="The seq of the entry that committed it.")
    server_seed = serializers.CharField(allow_null=True, help_text="Hex; null until revealed to you.")
    salt = serializers.CharField(allow_null=True, help_text="Hex; null until revealed to you.")
    revealed_at = serializers.IntegerField(allow_null=True, help_text="The seq of its `seeds_revealed`, if any.")


class MasterOutput(serializers.Serializer):
    """The match's master seed: every seed the server brings to it derives from this one, committed at the
    game's creation, before anyone sat (README, "Provably fair shuffles")."""

    scheme = serializers.ChoiceField(choices=[MASTER_SCHEME])
    commitment = serializers.CharField(help_text="SHA-256 of the salt then the master seed, hex.")
    seed = serializers.CharField(allow_null=True, help_text="Hex; null until the whole log is revealed to you.")
    salt = serializers.CharField(allow_null=True, help_text="Hex; null until the whole log is revealed to you.")


@extend_schema_field({"allOf": [{"$ref": f"#/components/schemas/{GAME_EVENT}"}], "nullable": True})
class ResultField(serializers.JSONField):
    """The match's ``match_ended`` event as the log gives it, or null."""


class GameExportOutput(serializers.Serializer):
    """A game's export (``games.selectors.export.game_export``), format ``palace-export/1``."""

    format = serializers.ChoiceField(choices=[selectors.FORMAT])
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=sorted(GAMES))
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "cancelled"])
    version = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    options = OptionsField()
    created = serializers.CharField()
    viewer = ViewerField(help_text='Whom the log is redacted for: a seat, "spectator" or "staff".')
    complete = serializers.BooleanField(
        help_text="The log is whole, as staff see it: you are staff, or the match is over and every seed revealed."
    )
    master = MasterOutput(allow_null=True, help_text="Null for a game stored before master seeds.")
    seats = SeatOutput(many=True)
    deals = DealOutput(many=True)
    log = EventOutput(many=True)
    result = ResultField(allow_null=True, help_text="The `match_ended` event, once the match is over.")


class ExportQuery(StrictSerializer):
    since = serializers.DateTimeField(required=False, help_text="Games created at or after this time.")
    until = serializers.DateTimeField(required=False, help_text="Games created before this time.")
    max = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=selectors.EXPORT_MAX_GAMES,
        default=selectors.EXPORT_DEFAULT_GAMES,
        help_text=f"At most this many games (default {selectors.EXPORT_DEFAULT_GAMES}).",
    )
    kind = serializers.ChoiceField(required=False, choices=sorted(GAMES))


class ExportView(APIView):
    """An export operation: throttled per account in the scope ``export`` besides ``user``."""

    throttle_classes = [UserRateThrottle, ExportThrottle]
    throttle_scope = "export"


class GameExportView(ExportView):
    @extend_schema(
        tags=["games"],
        operation_id="games_export",
        responses={
            200: GameExportOutput,
            **error_responses(
                "GamesExport", {400: (ErrorCode.INVALID,), 404: (ErrorCode.GAME_NOT_FOUND,)}, 401, *NO_BODY
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The game as a versioned JSON document: options, seats, every log entry as you may see it, each deal's
        commitment and its seeds once revealed, the result. Check it with `python3 palace.py verify FILE`."""
        query(request, NoQuery)
        return Response(selectors.game_export(game_get(game_id), request.user))


class JsonErrors:
    """A view whose answer has one type whatever the client accepts (NDJSON, a PHH text): its errors go out as
    JSON in the one shape (README, "Errors"), as the event streams' do."""

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[JSONRenderer, str]:
        renderer = JSONRenderer()
        return renderer, renderer.media_type


class GamePhhView(JsonErrors, ExportView):
    @extend_schema(
        tags=["games"],
        operation_id="games_export_phh",
        responses={
            (200, PHH): OpenApiResponse(
                OpenApiTypes.STR,
                description='A `.phhs` text (TOML, UTF-8): one table a hand, `[1]`, `[2]` ... (README, "Palace '
                'Poker as PHH").',
            ),
            **error_responses(
                "GamesExportPhh",
                {
                    400: (ErrorCode.INVALID,),
                    404: (ErrorCode.GAME_NOT_FOUND,),
                    422: (ErrorCode.PHH_UNAVAILABLE,),
                },
                401,
                *NO_BODY,
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        """A Palace Poker game as PHH (Poker Hand History) text, each hand a PHH hand, from the log as you may see
        it (as the JSON export gives it: `??` for a card hidden from you). Palace Poker's own facts are fields
        prefixed `_`; its moves PHH has no action for are commentaries. The shedding game has no PHH form:
        422 `phh_unavailable`."""
        query(request, NoQuery)
        game = game_get(game_id)
        answer = HttpResponse(selectors.game_phh(game, request.user), content_type=f"{PHH}; charset=utf-8")
        answer["Content-Disposition"] = f'inline; filename="{game.kind}-{game.pk}.phhs"'
        return answer


class MyGamesExportView(JsonErrors, ExportView):
    @extend_schema(
        tags=["me"],
        operation_id="me_games_export",
        parameters=[ExportQuery],
        responses={
            (200, NDJSON): OpenApiResponse(
                GameExportOutput,
                description="One `GameExportOutput` a line, your finished games oldest first (created, then id).",
            ),
            **error_responses("MeGamesExport", {400: (ErrorCode.INVALID,)}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        """Your finished games as NDJSON, streamed one game a line, oldest first; `since`, `until`, `kind` filter
        them and `max` bounds their count."""
        params = query(request, ExportQuery)
        games = selectors.player_games(
            request.user,
            since=params.get("since"),
            until=params.get("until"),
            kind=params.get("kind"),
            limit=params["max"],
        )
        return StreamingHttpResponse(_lines(games, request.user), content_type=NDJSON)


def export_lines(games: Iterator[Any], user: Any) -> Iterator[bytes]:
    """Each game's export as one NDJSON line."""
    for game in games:
        yield (json.dumps(selectors.game_export(game, user), separators=(",", ":")) + "\n").encode()


async def _lines(games: Iterator[Any], user: Any) -> AsyncIterator[bytes]:
    # Async, so an ASGI server streams it line by line (Django buffers a synchronous iterator there); the reads
    # run in a thread one game at a time.
    lines = export_lines(games, user)
    done = object()
    while (line := await sync_to_async(next)(lines, done)) is not done:
        yield line  # type: ignore[misc]
