"""A finished game's rematch over HTTP (issue 26; README "Rematch"): offer, accept, decline, leave, read. Each
view calls one service or selector and renders the offer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import RematchStatus
from games.selectors import read_models as selectors
from games.selectors.rematch import rematch_json
from games.services.rematch import rematch_answer, rematch_leave, rematch_offer
from palace_api.errors import BODYLESS_POST, GAME_NOT_FOUND, NO_BODY, ErrorCode, NotFoundError, error_responses
from palace_api.serializers import NoQuery, query

TAGS = ["games"]
NOT_FINISHED = (ErrorCode.GAME_IN_PROGRESS, ErrorCode.GAME_CANCELLED)


class RematchOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=RematchStatus.values)
    offered_by = serializers.IntegerField(help_text="The seat that offered it.")
    accepted = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that accepted (bots at once).")
    waiting_for = serializers.ListField(child=serializers.IntegerField(), help_text="Seats yet to answer.")
    answered_by = serializers.IntegerField(allow_null=True, help_text="The seat that declined or left, if any.")
    expires = serializers.DateTimeField(help_text="An open offer lapses then.")
    game = serializers.IntegerField(allow_null=True, help_text="The rematch's id, once every seat accepted.")


def _out(game_id: int, *, code: int = status.HTTP_200_OK) -> Response:
    return Response(RematchOutput(rematch_json(selectors.game_get(game_id))).data, status=code)


class RematchView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_rematch_retrieve",
        responses={
            200: RematchOutput,
            **error_responses(
                "GamesRematchRetrieve",
                {400: (ErrorCode.INVALID,), 404: (*GAME_NOT_FOUND[404], ErrorCode.REMATCH_NOT_FOUND)},
                401,
                *NO_BODY,
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The finished game's rematch offer: who accepted, whom it waits for, and the new game once made."""
        query(request, NoQuery)
        offer = rematch_json(selectors.game_get(game_id))
        if offer is None:
            raise NotFoundError(ErrorCode.REMATCH_NOT_FOUND, "nobody offered a rematch of this game")
        return Response(RematchOutput(offer).data)

    @extend_schema(
        tags=TAGS,
        operation_id="games_rematch_create",
        request=None,
        responses={
            201: RematchOutput,
            **error_responses(
                "GamesRematchCreate",
                {
                    403: (ErrorCode.NOT_SEATED,),
                    **GAME_NOT_FOUND,
                    409: (*NOT_FINISHED, ErrorCode.REMATCH_TAKEN),
                },
                401,
                *BODYLESS_POST,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Offer a rematch of a finished game you played: your seat and every bot accept at once; with no other
        human the rematch starts now (`game`). One offer per game; it lapses after `expires` or when a player
        leaves."""
        rematch_offer(user=request.user, game_id=game_id)
        return _out(game_id, code=status.HTTP_201_CREATED)


def _answer_view(name: str, service: Callable[..., Any], doc: str) -> type[APIView]:
    operation = f"games_rematch_{name}_create"

    class AnswerView(APIView):
        @extend_schema(
            tags=TAGS,
            operation_id=operation,
            request=None,
            description=doc,
            responses={
                200: RematchOutput,
                **error_responses(
                    f"GamesRematch{name.title()}Create",
                    {
                        403: (ErrorCode.NOT_SEATED,),
                        404: (*GAME_NOT_FOUND[404], ErrorCode.REMATCH_NOT_FOUND),
                        409: (*NOT_FINISHED, ErrorCode.REMATCH_CLOSED),
                    },
                    401,
                    *BODYLESS_POST,
                ),
            },
        )
        def post(self, request: Request, game_id: int) -> Response:
            service(user=request.user, game_id=game_id)
            return _out(game_id)

    AnswerView.__name__ = f"Rematch{name.title()}View"
    return AnswerView


def _accept(*, user: Any, game_id: int) -> Any:
    return rematch_answer(user=user, game_id=game_id, accept=True)


def _decline(*, user: Any, game_id: int) -> Any:
    return rematch_answer(user=user, game_id=game_id, accept=False)


RematchAcceptView = _answer_view(
    "accept", _accept, "Accept the open offer; the last acceptance creates the rematch (`game`)."
)
RematchDeclineView = _answer_view("decline", _decline, "Decline the open offer: no rematch of this game.")
RematchLeaveView = _answer_view(
    "leave", rematch_leave, "Leave the finished table: an open offer lapses (`rematch_not_found` if none)."
)
