"""Games API views: each parses, calls one service or selector, and renders."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import (
    ActionInput,
    ActionResultOutput,
    EventPageOutput,
    GameCreateInput,
    GameDetailOutput,
    GameSummaryOutput,
    SeatInput,
    SeatOutput,
    TurnOutput,
    render,
)
from games.models import Game, GameStatus
from games.selectors import views as selectors
from games.services import action_submit_idempotent, game_create, seat_take
from palace_api.errors import ApplicationError, ErrorSerializer

ERRORS = {
    code: OpenApiResponse(ErrorSerializer, description=text)
    for code, text in {
        400: "Invalid input or illegal action: `code` says which (e.g. `insufficient_chips`).",
        401: "No valid token.",
        403: "Not allowed (e.g. `not_seated`, `not_your_turn`, `staff_only`).",
        404: "No such game.",
        409: "Conflict with the game's state (e.g. `version_conflict`).",
        422: "Idempotency-Key reused with another body.",
        429: "Throttled: retry after `retry_after` seconds.",
    }.items()
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: ERRORS[code] for code in codes}


class GameFilter(django_filters.FilterSet):
    kind = django_filters.CharFilter()
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    open_seats = django_filters.BooleanFilter(method="filter_open_seats", label="Waiting with a free seat")
    mine = django_filters.BooleanFilter(method="filter_mine", label="You sit at it or created it")

    class Meta:
        model = Game
        fields = ["kind", "status"]

    def filter_open_seats(self, queryset: QuerySet[Game], name: str, value: bool) -> QuerySet[Game]:
        return selectors.filter_open_seats(queryset, open_seats=value)

    def filter_mine(self, queryset: QuerySet[Game], name: str, value: bool) -> QuerySet[Game]:
        return selectors.filter_mine(queryset, self.request.user, mine=value)


class GamePagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class GameListCreateView(APIView):
    @extend_schema(
        operation_id="games_list",
        parameters=[
            OpenApiParameter("kind", str),
            OpenApiParameter("status", str, enum=[choice.value for choice in GameStatus]),
            OpenApiParameter("open_seats", bool),
            OpenApiParameter("mine", bool),
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
        ],
        responses={200: GameSummaryOutput(many=True), **_errors(400, 401, 429)},
    )
    def get(self, request: Request) -> Response:
        """Games, newest first, filtered by kind, status, open seats and whether you are in them."""
        games = GameFilter(request.query_params, queryset=selectors.games_queryset(request.user), request=request)
        if not games.is_valid():
            raise ValidationError(games.errors)
        paginator = GamePagination()
        page = paginator.paginate_queryset(games.qs, request, view=self)
        return paginator.get_paginated_response(
            GameSummaryOutput([selectors.game_summary(game) for game in page], many=True).data
        )

    @extend_schema(
        operation_id="games_create",
        request=GameCreateInput,
        responses={201: GameDetailOutput, **_errors(400, 401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        """Create a game waiting for players; you are not seated automatically."""
        data = GameCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_create(creator=request.user, **data.validated_data)
        detail = selectors.game_detail(selectors.game_get(game.pk), request.user)
        return Response(render(GameDetailOutput, detail), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={200: GameDetailOutput, 304: OpenApiResponse(description="Not modified"), **_errors(401, 404, 429)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The game as you may see it. Send the `ETag` back in `If-None-Match` to get a cheap 304."""
        game = selectors.game_get(game_id)
        etag = selectors.game_etag(game, request.user)
        if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        detail = selectors.game_detail(game, request.user)
        return Response(render(GameDetailOutput, detail), headers={"ETag": etag, "Vary": "Authorization"})


class SeatCreateView(APIView):
    @extend_schema(
        operation_id="games_seats_create",
        request=SeatInput,
        responses={201: SeatOutput, **_errors(400, 401, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Sit down (at `seat`, or the lowest free one), or seat a bot (`bot`, creator only).
        The match starts when every seat is taken."""
        data = SeatInput(data=request.data)
        data.is_valid(raise_exception=True)
        seat = seat_take(
            game_id=game_id,
            player=request.user,
            seat=data.validated_data.get("seat"),
            bot=data.validated_data.get("bot"),
        )
        player = None if seat.bot else {"id": request.user.pk, "name": request.user.get_username()}
        body = {"seat": seat.number, "player": player, "bot": seat.bot or None}
        return Response(SeatOutput(body).data, status=status.HTTP_201_CREATED)


class ActionCreateView(APIView):
    @extend_schema(
        operation_id="games_actions_create",
        request=ActionInput,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses={201: ActionResultOutput, **_errors(400, 401, 403, 404, 409, 422, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Make your decision. Answers the new version and the log entries it added, as you may see them."""
        data = ActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = action_submit_idempotent(
            user=request.user,
            game_id=game_id,
            body=dict(data.validated_data),
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        headers = {"Idempotent-Replayed": "true"} if result.replayed else {}
        return Response(render(ActionResultOutput, result.to_json()), status=status.HTTP_201_CREATED, headers=headers)


class EventListView(APIView):
    @extend_schema(
        operation_id="games_events_list",
        parameters=[OpenApiParameter("after", int), OpenApiParameter("limit", int)],
        responses={200: EventPageOutput, **_errors(400, 401, 404, 429)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The log after `after` (default 0), at most `limit` entries (default 100, at most 500)."""
        after = _int_param(request, "after", default=0, low=0, high=2**31)
        limit = _int_param(request, "limit", default=100, low=1, high=500)
        page = selectors.game_events(selectors.game_get(game_id), request.user, after=after, limit=limit)
        return Response(render(EventPageOutput, page))


class MyTurnsView(APIView):
    @extend_schema(operation_id="me_turns_list", responses={200: TurnOutput(many=True), **_errors(401, 429)})
    def get(self, request: Request) -> Response:
        """Your games where the decision is yours, the most urgent first."""
        return Response(TurnOutput(selectors.my_turns(request.user), many=True).data)


def _int_param(request: Request, name: str, *, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ApplicationError("invalid_parameter", f"'{name}' must be an integer from {low} to {high}")
    return value
