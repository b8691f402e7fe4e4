"""Ratings API views: each parses, calls selectors, and renders."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors.read_models import game_get
from palace_api.errors import GAME_NOT_FOUND, NO_BODY, PLAYER_NOT_FOUND, ErrorCode, error_responses
from palace_api.serializers import NoQuery, query
from ratings.api.serializers import (
    LADDER_HELP,
    BoardPageOutput,
    BoardRowOutput,
    ChangeOutput,
    GameRatingsOutput,
    HistoryPageOutput,
    HistoryQuery,
    PageQuery,
    PlayerRatingsOutput,
)
from ratings.selectors.boards import (
    board_row,
    change_json,
    game_ratings,
    leaderboard,
    player_get,
    player_history,
    player_ratings,
)

TAGS = ["ratings"]
LADDER = OpenApiParameter("ladder", str, OpenApiParameter.PATH, description=LADDER_HELP)


class Pages(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class PlayerRatingsView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="players_ratings_retrieve",
        responses={
            200: PlayerRatingsOutput,
            **error_responses("PlayersRatings", {400: (ErrorCode.INVALID,), **PLAYER_NOT_FOUND}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's ratings, one per ladder played on (bots' are on the leaderboards)."""
        query(request, NoQuery)
        player = player_get(player_id)
        body = {"player": {"id": player.user_id, "name": player.user.get_username()}, "ratings": player_ratings(player)}
        return Response(PlayerRatingsOutput(body).data)


class PlayerHistoryView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="players_ratings_history",
        parameters=[HistoryQuery],
        responses={
            200: HistoryPageOutput,
            **error_responses("PlayersRatingsHistory", {400: (ErrorCode.INVALID,), **PLAYER_NOT_FOUND}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's rating changes, latest first, one per rated game; a page (`ladder` to keep one)."""
        params = query(request, HistoryQuery)
        player = player_get(player_id)
        paginator = Pages()
        page = paginator.paginate_queryset(player_history(player, ladder=params.get("ladder")), request, view=self)
        return paginator.get_paginated_response(ChangeOutput([change_json(row) for row in page], many=True).data)


class LeaderboardView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="ratings_leaderboard",
        parameters=[LADDER, PageQuery],
        responses={
            200: BoardPageOutput,
            **error_responses(
                "RatingsLeaderboard",
                {400: (ErrorCode.INVALID,), 404: (ErrorCode.LADDER_NOT_FOUND, ErrorCode.NOT_FOUND)},
                401,
                *NO_BODY,
            ),
        },
    )
    def get(self, request: Request, ladder: str) -> Response:
        """A ladder's leaderboard, best first (by `mu - 3 sigma`), players and bot levels alike; provisional
        ratings are left out. A page."""
        query(request, PageQuery)
        paginator = Pages()
        page = paginator.paginate_queryset(leaderboard(ladder), request, view=self)
        offset = paginator.offset
        rows = [board_row(rating, offset + number + 1) for number, rating in enumerate(page)]
        return paginator.get_paginated_response(BoardRowOutput(rows, many=True).data)


class GameRatingsView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_ratings_retrieve",
        responses={
            200: GameRatingsOutput,
            **error_responses(
                "GamesRatings",
                {400: (ErrorCode.INVALID,), **GAME_NOT_FOUND},
                401,
                *NO_BODY,
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """What a game does to its seats' ratings: the ratings they play for, and once it is over and rated, each
        seat's place and change. A casual game answers `rated: false` and no seats."""
        query(request, NoQuery)
        return Response(GameRatingsOutput(game_ratings(game_get(game_id))).data)
