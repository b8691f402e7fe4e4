"""A game's lifecycle over HTTP: resign, leave a seat, cancel, and the caller's games (issue 11, section 3).

Each view parses, calls one service or selector, and renders with its own serializers below.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ActionResultOutput, render
from games.api.views import GamePagination, PageQuery
from games.engine.errors import EngineCode
from games.models import GameStatus
from games.selectors.home import my_game_row, my_games
from games.services.lifecycle import game_cancel, game_resign, seat_leave
from palace_api.errors import BODYLESS_POST, GAME_NOT_FOUND, NO_BODY, ErrorCode, error_responses
from palace_api.serializers import query

# A game over or cancelled; version_conflict: the unique (game, seq) guard of games.services.log, should two
# writers ever meet.
CONFLICTS = (ErrorCode.GAME_FINISHED, ErrorCode.GAME_CANCELLED, ErrorCode.VERSION_CONFLICT)


class SeatLeftOutput(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version after the `seat_left` entry.")


class CancelledOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text="`cancelled`.")
    version = serializers.IntegerField(help_text="The game's version after the `game_cancelled` entry.")


class MyGameOutput(serializers.Serializer):
    game = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=[choice.value for choice in GameStatus])
    version = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat; null in a game you created only.")
    my_turn = serializers.BooleanField(help_text="The current decision is yours (not your bot's).")
    played_by_bot = serializers.CharField(
        allow_null=True, help_text="The bot that plays your seat after your timeouts (`on_absent: bot`), or null."
    )
    resigned = serializers.BooleanField(help_text="You resigned, or were resigned after your timeouts.")
    created_by_me = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the current decision times out.")
    seconds_left = serializers.IntegerField(allow_null=True)
    updated = serializers.DateTimeField()


class ResignView(APIView):
    @extend_schema(
        operation_id="games_resign",
        request=None,
        responses={
            200: ActionResultOutput,
            **error_responses(
                "GamesResign",
                {
                    400: (EngineCode.NOT_IN_MATCH,),
                    403: (ErrorCode.NOT_SEATED,),
                    **GAME_NOT_FOUND,
                    409: (ErrorCode.GAME_NOT_STARTED, *CONFLICTS),
                    # Resigning can end a hand: the next deal's shuffle may be a prearranged one that does not fit.
                    422: (ErrorCode.INVALID_PREARRANGED_SHUFFLE,),
                },
                401,
                *BODYLESS_POST,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Leave your running match for good, in turn or not. Palace Poker: you fold the hand and leave the
        match, your chips out of play; Palace: you are out and ranked last. The match ends when one player is
        left. Answers the new version and the entries written, as you may see them."""
        result = game_resign(user=request.user, game_id=game_id)
        return Response(render(ActionResultOutput, result.to_json()))


class MySeatView(APIView):
    @extend_schema(
        operation_id="games_seats_mine_destroy",
        request=None,
        responses={
            200: SeatLeftOutput,
            **error_responses(
                "GamesSeatsMineDestroy",
                {403: (ErrorCode.NOT_SEATED,), **GAME_NOT_FOUND, 409: (ErrorCode.GAME_STARTED, *CONFLICTS)},
                401,
                *NO_BODY,
            ),
        },
    )
    def delete(self, request: Request, game_id: int) -> Response:
        """Leave your seat at a game that has not started; the seat is free again (`seat_left` in the log)."""
        version = seat_leave(user=request.user, game_id=game_id)
        return Response(SeatLeftOutput({"version": version}).data)


class CancelView(APIView):
    @extend_schema(
        operation_id="games_cancel",
        request=None,
        responses={
            200: CancelledOutput,
            **error_responses(
                "GamesCancel",
                {403: (ErrorCode.CREATOR_ONLY,), **GAME_NOT_FOUND, 409: (ErrorCode.GAME_STARTED, *CONFLICTS)},
                401,
                *BODYLESS_POST,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Cancel a game you created that has not started (`game_cancelled` in the log): its status becomes
        `cancelled` and nobody can sit any more."""
        game = game_cancel(user=request.user, game_id=game_id)
        body = {"id": game.pk, "status": game.status, "version": game.version}
        return Response(CancelledOutput(body).data, status=status.HTTP_200_OK)


class MyGamePageOutput(serializers.Serializer):
    count = serializers.IntegerField(help_text="Your games matching the filter.")
    next = serializers.URLField(allow_null=True, help_text="The next page's URL.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page's URL.")
    results = MyGameOutput(many=True)


class MyGamesQuery(PageQuery):
    """``me/games/``'s query parameters."""

    status = serializers.ChoiceField(choices=GameStatus.values, required=False)


class MyGamesView(APIView):
    @extend_schema(
        operation_id="me_games_list",
        parameters=[MyGamesQuery],
        responses={
            200: MyGamePageOutput,
            **error_responses("MeGamesList", {400: (ErrorCode.INVALID,)}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request) -> Response:
        """Your games, for a home screen: active first (those where the decision is yours first), then
        waiting, finished and cancelled; each with your seat and whether the decision is yours."""
        params = query(request, MyGamesQuery)
        paginator = GamePagination()
        page = paginator.paginate_queryset(my_games(request.user, status=params.get("status")), request, view=self)
        rows = [my_game_row(game, request.user) for game in page]
        return paginator.get_paginated_response(MyGameOutput(rows, many=True).data)
