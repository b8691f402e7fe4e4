"""Views of the notifications API under /api/v1/me/email/: each parses, calls one service or selector, renders."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications.api.serializers import EmailOutput, EmailSetInput, PreferencesInput, email_row
from notifications.selectors import address_of
from notifications.services import email_remove, email_set, preferences_update
from notifications.services.account import INVALID_EMAIL, NO_EMAIL, TOO_MANY_CONFIRMATIONS
from palace_api.errors import BODY, INVALID_BODY, NO_BODY, ErrorCode, error_responses, no_content_responses

TAGS = ["me"]


class EmailApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Your email address and mail preferences",
        responses={200: EmailOutput, **error_responses("MeEmailRetrieve", {}, 401, *NO_BODY)},
    )
    def get(self, request: Request) -> Response:
        return Response(EmailOutput(email_row(address_of(request.user))).data)

    @extend_schema(
        tags=TAGS,
        summary="Set your email address",
        description=(
            "Stores the address unconfirmed and mails it a confirmation link (valid 7 days); no other mail goes "
            "to it until the link is followed (202). The same address again resends the link; an address already "
            "confirmed is left as it is (200). 429 "
            "too_many_confirmations after 5 links in 24 hours."
        ),
        request=EmailSetInput,
        responses={
            200: EmailOutput,
            202: EmailOutput,
            **error_responses(
                "MeEmailCreate",
                {
                    # invalid_email: an address the serializer takes that is no longer one once its domain is
                    # lowercased (a dotted capital I becomes two characters).
                    400: (*INVALID_BODY, INVALID_EMAIL),
                    429: (ErrorCode.THROTTLED, TOO_MANY_CONFIRMATIONS),
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = EmailSetInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = email_set(user=request.user, address=serializer.validated_data["address"])
        code = status.HTTP_200_OK if row.confirmed_at is not None else status.HTTP_202_ACCEPTED
        return Response(EmailOutput(email_row(row)).data, status=code)

    @extend_schema(
        tags=TAGS,
        summary="Turn turn or finished-game mails on or off",
        description="404 no_email before an address is set.",
        request=PreferencesInput,
        responses={
            200: EmailOutput,
            **error_responses("MeEmailPartialUpdate", {400: INVALID_BODY, 404: (NO_EMAIL,)}, 401, *BODY),
        },
    )
    def patch(self, request: Request) -> Response:
        serializer = PreferencesInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = preferences_update(user=request.user, **serializer.validated_data)
        return Response(EmailOutput(email_row(row)).data)

    @extend_schema(
        tags=TAGS,
        summary="Remove your email address",
        request=None,
        responses=no_content_responses(
            "Removed; no mail goes out any more.", "MeEmailDestroy", {404: (NO_EMAIL,)}, 401, *NO_BODY
        ),
    )
    def delete(self, request: Request) -> Response:
        email_remove(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
