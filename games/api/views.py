"""Games API views: each parses, calls one service or selector, and renders."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.headers import IDEMPOTENCY_KEY, IF_NONE_MATCH, idempotency_key, not_modified
from games.api.polls import remember_poller
from games.api.rendered import game_detail_body
from games.api.schema import ACTION_INPUT, GAME_CREATE
from games.api.serializers import (
    ActionInput,
    ActionResultOutput,
    EventPageOutput,
    GameCreateInput,
    GameDetailOutput,
    GamePageOutput,
    GameSummaryOutput,
    SeatInput,
    SeatOutput,
    TurnOutput,
    render,
    validated,
)
from games.engine.errors import ACTION_CODES, EngineCode
from games.engine.registry import GAMES
from games.models import GameStatus
from games.selectors import read_models as selectors
from games.selectors import versions
from games.services import action_submit_idempotent, game_create, seat_take
from palace_api.errors import BODY, GAME_NOT_FOUND, INVALID_BODY, NO_BODY, ErrorCode, error_responses
from palace_api.responses import EncodedJSONResponse
from palace_api.serializers import NoQuery, StrictSerializer, query

TAGS = ["games"]
# The rules engine's refusals of options (games/engine/*/options.py) and of actions (games/engine/*/play.py ...).
# A card code that does not parse, or cards named twice (games/engine/cards.py).
CARD_CODES = (EngineCode.INVALID_CARD, EngineCode.DUPLICATE_CARDS, EngineCode.TOO_MANY_CARDS)
OPTION_CODES = (
    EngineCode.UNKNOWN_KIND,
    EngineCode.INVALID_SEATS,
    EngineCode.UNKNOWN_OPTION,
    ErrorCode.INVALID_OPTION,
    EngineCode.INCONSISTENT_OPTIONS,
)
ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 304], description="Send it back in `If-None-Match`."
)


class PageQuery(StrictSerializer):
    """A page's query parameters (``GamePagination``'s): each checked, an unknown one refused."""

    limit = serializers.IntegerField(required=False, min_value=1, max_value=200, help_text="Default 50.")
    offset = serializers.IntegerField(required=False, min_value=0, max_value=2**31, help_text="Default 0.")


class GameListQuery(PageQuery):
    """The game list's query parameters."""

    kind = serializers.ChoiceField(choices=sorted(GAMES), required=False)
    status = serializers.ChoiceField(choices=GameStatus.values, required=False)
    open_seats = serializers.BooleanField(required=False, help_text="Waiting with a free seat.")
    mine = serializers.BooleanField(required=False, help_text="You sit at it or created it.")


class EventQuery(StrictSerializer):
    """The log's query parameters: ``after`` a ``seq``, at most ``limit`` entries."""

    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2**31, help_text="A `seq`.")
    limit = serializers.IntegerField(required=False, default=100, min_value=1, max_value=500)


class GamePagination(LimitOffsetPagination):
    """Pages of the game list and of ``me/games/``: ``limit`` 50 by default, at most 200."""

    default_limit = 50
    max_limit = 200


class GameListCreateView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_list",
        parameters=[GameListQuery],
        responses={
            200: GamePageOutput,
            **error_responses("GamesList", {400: (ErrorCode.INVALID,)}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request) -> Response:
        """Games, newest first, filtered by kind, status, open seats and whether you are in them; a page."""
        params = query(request, GameListQuery)
        filters = {name: params.get(name) for name in ("kind", "status", "open_seats", "mine")}
        games = selectors.games_filtered(request.user, **filters)
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(
            GameSummaryOutput([selectors.game_summary(game) for game in page], many=True).data
        )

    @extend_schema(
        tags=TAGS,
        operation_id="games_create",
        request=GAME_CREATE,
        responses={
            201: GameDetailOutput,
            **error_responses(
                "GamesCreate",
                {
                    400: (
                        *INVALID_BODY,
                        *OPTION_CODES,
                        *CARD_CODES,
                        ErrorCode.INVALID_PREARRANGED_SHUFFLES,
                        ErrorCode.RATED_NOT_PREARRANGED,
                    ),
                    403: (ErrorCode.STAFF_ONLY,),
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request) -> Response:
        """Create a game waiting for players; you are not seated automatically."""
        query(request, NoQuery)
        data = GameCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_create(creator=request.user, **data.validated_data)
        detail = selectors.game_detail(selectors.game_get(game.pk), request.user)
        return Response(render(GameDetailOutput, detail), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_retrieve",
        parameters=[
            IF_NONE_MATCH,
            ETAG,
        ],
        responses={
            200: GameDetailOutput,
            304: OpenApiResponse(description="Not modified: nothing changed since the `ETag` you sent."),
            **error_responses("GamesRetrieve", {400: (ErrorCode.INVALID,), **GAME_NOT_FOUND}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The game as you may see it. Send the `ETag` back in `If-None-Match` to get a cheap 304."""
        query(request, NoQuery)
        remember_poller(request)
        # Taken before the game is read (games/selectors/versions.py); None without a shared cache.
        token = versions.game_token(game_id)
        etag = None if token is None else versions.game_view_etag(game_id, request.user, token)
        if etag is not None and not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag, "Vary": "Authorization"})
        game = selectors.game_get(game_id, token=token)
        if etag is None:
            etag = selectors.game_etag(game, request.user)
            if not_modified(request, etag):
                return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag, "Vary": "Authorization"})
        body = game_detail_body(game, request.user)
        return EncodedJSONResponse(body, headers={"ETag": etag, "Vary": "Authorization"})


class SeatCreateView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_seats_create",
        request=SeatInput,
        responses={
            201: SeatOutput,
            **error_responses(
                "GamesSeatsCreate",
                {
                    400: (
                        *INVALID_BODY,
                        ErrorCode.INVALID_SEAT,
                        ErrorCode.INVALID_SEED,
                        EngineCode.UNKNOWN_BOT,
                        *ACTION_CODES,
                    ),
                    403: (ErrorCode.CREATOR_ONLY, ErrorCode.UNRATED_ACCOUNT),
                    **GAME_NOT_FOUND,
                    409: (
                        ErrorCode.SEAT_TAKEN,
                        ErrorCode.ALREADY_SEATED,
                        ErrorCode.GAME_STARTED,
                        ErrorCode.NO_FREE_SEAT,
                        ErrorCode.GAME_CANCELLED,
                    ),
                    422: (ErrorCode.INVALID_PREARRANGED_SHUFFLE,),
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Sit down (at `seat`, or the lowest free one), or seat a bot (`bot`, creator only).
        The match starts when every seat is taken."""
        query(request, NoQuery)
        data = SeatInput(data=request.data)
        data.is_valid(raise_exception=True)
        seat = seat_take(
            game_id=game_id,
            player=request.user,
            seat=data.validated_data.get("seat"),
            bot=data.validated_data.get("bot"),
            seed=data.validated_data.get("seed") or "",
        )
        player = None if seat.bot else {"id": request.user.pk, "name": request.user.get_username()}
        body = {"seat": seat.number, "player": player, "bot": seat.bot or None}
        return Response(SeatOutput(body).data, status=status.HTTP_201_CREATED)


class ActionCreateView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_actions_create",
        request=ACTION_INPUT,
        parameters=[
            IDEMPOTENCY_KEY,
            OpenApiParameter(
                "Idempotent-Replayed",
                str,
                OpenApiParameter.HEADER,
                response=[201],
                enum=["true"],
                description="Present when the answer is the stored one of an earlier request with the same key.",
            ),
        ],
        responses={
            201: ActionResultOutput,
            **error_responses(
                "GamesActionsCreate",
                {
                    400: (*INVALID_BODY, *ACTION_CODES),
                    403: (ErrorCode.NOT_SEATED, ErrorCode.NOT_YOUR_TURN, ErrorCode.SEAT_PLAYED_BY_BOT),
                    **GAME_NOT_FOUND,
                    409: (
                        ErrorCode.VERSION_CONFLICT,
                        ErrorCode.GAME_NOT_STARTED,
                        ErrorCode.GAME_FINISHED,
                        ErrorCode.GAME_CANCELLED,
                    ),
                    422: (ErrorCode.IDEMPOTENCY_KEY_REUSED, ErrorCode.INVALID_PREARRANGED_SHUFFLE),
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Make your decision. Answers the new version and the log entries it added, as you may see them.

        With an `Idempotency-Key`, a request sent again while the first still runs waits for it and gets its
        answer (or, if the first failed, is applied itself); a request that failed, the database gone or the
        server stopped included, leaves the key free, so its retry is applied once."""
        query(request, NoQuery)
        key = idempotency_key(request)
        body = validated(ActionInput, request.data)
        result = action_submit_idempotent(user=request.user, game_id=game_id, body=body, idempotency_key=key)
        headers = {"Idempotent-Replayed": "true"} if result.replayed else {}
        return Response(render(ActionResultOutput, result.to_json()), status=status.HTTP_201_CREATED, headers=headers)


class EventListView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_events_list",
        parameters=[EventQuery],
        responses={
            200: EventPageOutput,
            **error_responses("GamesEventsList", {400: (ErrorCode.INVALID,), **GAME_NOT_FOUND}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The log after `after` (default 0), at most `limit` entries (default 100, at most 500)."""
        params = query(request, EventQuery)
        page = selectors.game_events(
            selectors.game_get(game_id), request.user, after=params["after"], limit=params["limit"]
        )
        return Response(render(EventPageOutput, page))


class MyTurnsView(APIView):
    @extend_schema(
        tags=["me"],
        operation_id="me_turns_list",
        parameters=[
            IF_NONE_MATCH,
            ETAG,
        ],
        responses={
            200: TurnOutput(many=True),
            304: OpenApiResponse(description="Not modified: no turn came or went and no deadline moved."),
            **error_responses("MeTurnsList", {400: (ErrorCode.INVALID,)}, 401, *NO_BODY),
        },
    )
    def get(self, request: Request) -> Response:
        """Your games where the decision is yours, the most urgent first. Send the `ETag` back in `If-None-Match`
        to get a cheap 304 while nothing changed (`seconds_left` counting down is no change)."""
        query(request, NoQuery)
        remember_poller(request)
        # Taken before the turns are read (games/selectors/versions.py); None without a shared cache.
        etag = versions.turns_etag(request.user)
        if etag is not None and not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag, "Vary": "Authorization"})
        turns = selectors.my_turns(request.user)
        if etag is None:
            etag = selectors.my_turns_etag(turns)
            if not_modified(request, etag):
                return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag, "Vary": "Authorization"})
        return Response(TurnOutput(turns, many=True).data, headers={"ETag": etag, "Vary": "Authorization"})
