"""Views of the players API: each parses its input, calls one service or selector, and serializes the result."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from palace_api.errors import error_responses
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
        responses={201: PlayerRegisterOutputSerializer, **error_responses(400, 409, 415, 429)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
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
        responses={200: StaffTokenOutputSerializer, **error_responses(400, 415, 429)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
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
        responses={204: OpenApiResponse(description="Revoked."), **error_responses(401, 429)},
    )
    def post(self, request: Request) -> Response:
        token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="The account of this request's token",
        responses={200: MeOutputSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
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
