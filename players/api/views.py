"""Views of the players API: each parses its input, calls one service or selector, and serializes the result."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from palace_api.errors import BODY, BODYLESS_POST, INVALID_BODY, ErrorCode, error_responses
from palace_api.serializers import NoQuery, query
from players.api.serializers import (
    MeOutputSerializer,
    PlayerRegisterInputSerializer,
    PlayerRegisterOutputSerializer,
    StaffTokenInputSerializer,
    StaffTokenOutputSerializer,
)
from players.api.throttling import LoginRateThrottle, RegisterRateThrottle
from players.auth import TokenAuthentication
from players.selectors import player_for_user
from players.services import player_register, staff_token_create, token_revoke

TAGS = ["players"]


class PlayerRegisterApi(APIView):
    # Open, and deaf to any Authorization header: a stale token must not stop anyone from registering.
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (RegisterRateThrottle,)

    @extend_schema(
        tags=TAGS,
        summary="Register a player",
        description="Makes a human player and returns its token, which is shown this once only.",
        request=PlayerRegisterInputSerializer,
        operation_id="players_register",
        responses={
            201: PlayerRegisterOutputSerializer,
            **error_responses(
                "PlayersRegister",
                {
                    400: (*INVALID_BODY, ErrorCode.INVALID_NAME),
                    409: (ErrorCode.NAME_TAKEN,),
                },
                *BODY,
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        query(request, NoQuery)
        serializer = PlayerRegisterInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, token = player_register(name=serializer.validated_data["name"])
        body = PlayerRegisterOutputSerializer({"id": user.pk, "name": user.get_username(), "token": token}).data
        return Response(body, status=status.HTTP_201_CREATED)


class StaffTokenApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (LoginRateThrottle,)

    @extend_schema(
        tags=TAGS,
        summary="Get a staff token",
        description=(
            "Staff accounts only. A wrong password, an unknown user and a user who is not staff all get "
            "400 invalid_credentials."
        ),
        request=StaffTokenInputSerializer,
        operation_id="auth_token_create",
        responses={
            200: StaffTokenOutputSerializer,
            **error_responses(
                "AuthTokenCreate",
                {400: (*INVALID_BODY, ErrorCode.INVALID_CREDENTIALS)},
                *BODY,
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        query(request, NoQuery)
        serializer = StaffTokenInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        instance, token = staff_token_create(**serializer.validated_data)
        user = instance.user
        body = StaffTokenOutputSerializer(
            {
                "token": token,
                "expiry": instance.expiry,
                "user": {"id": user.pk, "name": user.get_username(), "is_staff": user.is_staff},
            }
        ).data
        return Response(body)


class LogoutApi(APIView):
    # Only a token can be revoked: a session-authenticated request is answered 401.
    authentication_classes = (TokenAuthentication,)

    @extend_schema(
        tags=TAGS,
        summary="Revoke the token of this request",
        description="A player's token is its only credential: revoking it abandons the account.",
        request=None,
        operation_id="auth_logout",
        responses={
            204: OpenApiResponse(description="Revoked."),
            **error_responses("AuthLogout", {400: (ErrorCode.INVALID,)}, 401, *BODYLESS_POST),
        },
    )
    def post(self, request: Request) -> Response:
        query(request, NoQuery)
        token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    @extend_schema(
        tags=["me"],
        operation_id="me_retrieve",
        summary="The account of this request's token",
        responses={
            200: MeOutputSerializer,
            **error_responses("MeRetrieve", {400: (ErrorCode.INVALID,)}, 401, 405, 429),
        },
    )
    def get(self, request: Request) -> Response:
        query(request, NoQuery)
        user = request.user
        player = player_for_user(user=user)
        body = MeOutputSerializer(
            {
                "id": user.pk,
                "name": user.get_username(),
                "is_staff": user.is_staff,
                "kind": player.kind if player else None,
            }
        ).data
        return Response(body)
