"""The table chat over HTTP (issue 26): read a room, say something, mute a player. Each view parses, calls one
selector or service, and renders."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.models import Room
from chat.selectors import message_json, messages_page, mutes_of, room_rights
from chat.services import MAX_LENGTH, message_post, mute_set
from games.selectors.read_models import game_get
from palace_api.errors import (
    BODY,
    BODYLESS_POST,
    GAME_NOT_FOUND,
    INVALID_BODY,
    NO_BODY,
    PLAYER_NOT_FOUND,
    ErrorCode,
    ForbiddenError,
    error_responses,
    no_content_responses,
)
from palace_api.serializers import NoQuery, StrictSerializer, query

TAGS = ["chat"]
ROOM_HELP = '`players` (the seated players\' room) or `spectators`; see README, "Chat", for who reads and writes.'


class ChatQuery(StrictSerializer):
    room = serializers.ChoiceField(choices=Room.values, help_text=ROOM_HELP)
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=2**63 - 1, help_text="Messages with a larger id."
    )
    limit = serializers.IntegerField(required=False, default=50, min_value=1, max_value=200)


class ChatInput(StrictSerializer):
    room = serializers.ChoiceField(choices=Room.values, help_text=ROOM_HELP)
    # The length is checked by the service after NFC normalisation (message_too_long); this bound only stops a
    # body far over it before any work.
    text = serializers.CharField(
        max_length=4 * MAX_LENGTH, trim_whitespace=False, allow_blank=True, help_text="At most 500 characters."
    )


class AuthorOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MessageOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="Increasing within the site: pass the last one seen as `after`.")
    game = serializers.IntegerField()
    room = serializers.ChoiceField(choices=Room.values)
    author = AuthorOutput()
    text = serializers.CharField(help_text="NFC, as typed: escape it wherever you show it (it may hold `<`).")
    created = serializers.DateTimeField()
    hidden = serializers.BooleanField(required=False, help_text="Staff only: hidden from everyone else.")


class MessagePageOutput(serializers.Serializer):
    results = MessageOutput(many=True)
    more = serializers.BooleanField(help_text="More messages follow: ask again with `after` the last id.")


class ChatView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_chat_list",
        parameters=[ChatQuery],
        responses={
            200: MessagePageOutput,
            **error_responses(
                "GamesChatList",
                {400: (ErrorCode.INVALID,), 403: (ErrorCode.CHAT_FORBIDDEN,), **GAME_NOT_FOUND},
                401,
                *NO_BODY,
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """A room's messages after `after`, oldest first (a page of `limit`). Messages of players you muted and
        messages staff hid are left out. The game's stream sends new ones live as `chat` events."""
        params = query(request, ChatQuery)
        game = game_get(game_id)
        if not room_rights(game, request.user, params["room"]).read:
            raise ForbiddenError(ErrorCode.CHAT_FORBIDDEN, "this room is not yours to read while the game is played")
        page = messages_page(game, request.user, room=params["room"], after=params["after"], limit=params["limit"])
        return Response(MessagePageOutput(page).data)

    @extend_schema(
        tags=TAGS,
        operation_id="games_chat_create",
        request=ChatInput,
        responses={
            201: MessageOutput,
            **error_responses(
                "GamesChatCreate",
                {
                    400: (*INVALID_BODY, ErrorCode.MESSAGE_EMPTY, ErrorCode.MESSAGE_TOO_LONG),
                    403: (ErrorCode.CHAT_FORBIDDEN,),
                    **GAME_NOT_FOUND,
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Say something in a room (at most 500 characters; a few messages every few seconds: 429 `throttled`
        with `Retry-After` beyond). Never part of the game's log: it changes no version and no replay."""
        data = ChatInput(data=request.data)
        data.is_valid(raise_exception=True)
        message = message_post(
            user=request.user, game_id=game_id, room=data.validated_data["room"], text=data.validated_data["text"]
        )
        return Response(MessageOutput(message_json(message)).data, status=status.HTTP_201_CREATED)


class MuteOutput(serializers.Serializer):
    results = AuthorOutput(many=True)


class MutesView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="me_mutes_list",
        responses={200: MuteOutput, **error_responses("MeMutesList", {400: (ErrorCode.INVALID,)}, 401, *NO_BODY)},
    )
    def get(self, request: Request) -> Response:
        """The players you muted: their chat is hidden from you, in every game."""
        query(request, NoQuery)
        return Response(MuteOutput({"results": mutes_of(request.user)}).data)


class MuteView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="me_mutes_update",
        request=None,
        responses=no_content_responses(
            "Muted: you no longer see what the player says (nobody else is told).",
            "MeMutesUpdate",
            {400: (ErrorCode.INVALID,), **PLAYER_NOT_FOUND, 409: (ErrorCode.CANNOT_MUTE_SELF,)},
            401,
            *BODYLESS_POST,
        ),
    )
    def put(self, request: Request, player_id: int) -> Response:
        """Mute a player for yourself. Doing it twice is the same as once."""
        mute_set(user=request.user, player_id=player_id, muted=True)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        tags=TAGS,
        operation_id="me_mutes_destroy",
        responses=no_content_responses(
            "Unmuted (or was not muted).",
            "MeMutesDestroy",
            {400: (ErrorCode.INVALID,), **PLAYER_NOT_FOUND, 409: (ErrorCode.CANNOT_MUTE_SELF,)},
            401,
            *NO_BODY,
        ),
    )
    def delete(self, request: Request, player_id: int) -> Response:
        """Unmute a player."""
        mute_set(user=request.user, player_id=player_id, muted=False)
        return Response(status=status.HTTP_204_NO_CONTENT)
