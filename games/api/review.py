"""A finished game's review over HTTP (issue 23): ask for it, then read it. Each view parses, calls one service or
selector, and renders with the serializers below."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.option_schema import SEAT_NUMBER
from games.models import ReviewStatus
from games.selectors import read_models as selectors
from games.selectors.review import review_get, review_json, review_seat
from games.services.review import review_request
from palace_api.errors import (
    BODY,
    GAME_NOT_FOUND,
    INVALID_BODY,
    NO_BODY,
    ApplicationError,
    ErrorCode,
    ForbiddenError,
    NotFoundError,
    error_responses,
)
from palace_api.serializers import StrictSerializer, query

TAGS = ["games"]
SCORE = "Estimated outcome for the seat, 0 to 1 (Palace: finishing place, 1 = first out; heads-up, the chance to win."
SCORE += " Palace Poker: 0.5 plus the hand's chips won, scaled)."
SEAT_HELP = "The seat to review: yours if omitted; staff may name any."


class ReviewInput(StrictSerializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=SEAT_NUMBER["maximum"], help_text=SEAT_HELP)


class ReviewQuery(StrictSerializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=SEAT_NUMBER["maximum"], help_text=SEAT_HELP)


class ReviewedDecisionOutput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The log entry of the move; the position is the one after `seq - 1`.")
    played = serializers.DictField(help_text="The move played, as an action body.")
    best = serializers.DictField(help_text="The search bot's choice, as an action body.")
    played_score = serializers.FloatField(help_text=SCORE)
    best_score = serializers.FloatField(help_text=SCORE)
    loss = serializers.FloatField(help_text="`best_score - played_score` (0 when the move played was the best).")
    rollouts = serializers.IntegerField(help_text="Games the search played out for this decision.")
    agrees = serializers.BooleanField(help_text="The move played was the search bot's choice.")


class ReviewOutput(serializers.Serializer):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ReviewStatus.values, help_text="`pending` until every decision is done.")
    decisions = serializers.IntegerField(help_text="The seat's decisions to review.")
    reviewed = serializers.IntegerField(help_text="Decisions reviewed so far (forced ones have no row).")
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    rows = ReviewedDecisionOutput(many=True)
    worst = serializers.ListField(
        child=serializers.IntegerField(), help_text="`seq` of the decisions where played and best differ most."
    )


def _seat_or_refuse(game: Any, user: Any, seat: int | None) -> int:
    """The seat whose review the caller reads (``review_seat``), else the refusal ``review_request`` gives."""
    target = review_seat(game, user, seat)
    if target is not None:
        return target
    if seat is None and getattr(user, "is_staff", False):
        raise ApplicationError(ErrorCode.INVALID_SEAT, "name the seat to review")
    raise ForbiddenError(ErrorCode.NOT_SEATED, "only a player of the game reads its review, his own seat")


class ReviewView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_review_create",
        request=ReviewInput,
        responses={
            200: ReviewOutput,
            202: ReviewOutput,
            **error_responses(
                "GamesReviewCreate",
                {
                    400: (*INVALID_BODY, ErrorCode.INVALID_SEAT),
                    403: (ErrorCode.NOT_SEATED,),
                    **GAME_NOT_FOUND,
                    409: (ErrorCode.GAME_IN_PROGRESS, ErrorCode.GAME_CANCELLED),
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Ask for the review of a finished game you played (staff: any seat): the `search` bot goes over each of
        your decisions from your view at that moment (a fraction of a second of search each) and rates the move
        you played against its own. Answers 202 while it runs (read it with GET), 200 once done. Asking again
        starts nothing new: the review is made once per seat."""
        data = ReviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        review, _ = review_request(user=request.user, game_id=game_id, seat=data.validated_data.get("seat"))
        code = status.HTTP_200_OK if review.status == ReviewStatus.DONE else status.HTTP_202_ACCEPTED
        return Response(ReviewOutput(review_json(review)).data, status=code)

    @extend_schema(
        tags=TAGS,
        operation_id="games_review_retrieve",
        parameters=[ReviewQuery],
        responses={
            200: ReviewOutput,
            **error_responses(
                "GamesReviewRetrieve",
                {
                    400: (ErrorCode.INVALID, ErrorCode.INVALID_SEAT),
                    403: (ErrorCode.NOT_SEATED,),
                    404: (ErrorCode.GAME_NOT_FOUND, ErrorCode.REVIEW_NOT_FOUND, ErrorCode.NOT_FOUND),
                },
                401,
                *NO_BODY,
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The review of your seat in this game (staff: `seat`), as far as it has got (`status`, `reviewed`)."""
        params = query(request, ReviewQuery)
        game = selectors.game_get(game_id)
        review = review_get(game, _seat_or_refuse(game, request.user, params.get("seat")))
        if review is None:
            raise NotFoundError(ErrorCode.REVIEW_NOT_FOUND, "nobody asked for this review yet: POST to ask")
        return Response(ReviewOutput(review_json(review)).data)
