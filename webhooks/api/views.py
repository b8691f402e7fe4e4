"""Views of the webhooks API under /api/v1/me/webhooks/: each parses, calls one service or selector, renders."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from palace_api.errors import (
    BODY,
    BODYLESS_POST,
    INVALID_BODY,
    NO_BODY,
    ErrorCode,
    error_responses,
    no_content_responses,
)
from palace_api.serializers import query
from webhooks.api.serializers import (
    AttemptOutput,
    DeliveriesQuery,
    EndpointCreatedOutput,
    EndpointCreateInput,
    EndpointOutput,
    PingOutput,
    attempt_row,
    endpoint_row,
)
from webhooks.selectors.endpoints import WEBHOOK_NOT_FOUND, endpoint_of, endpoints_of, recent_attempts
from webhooks.services.endpoints import WEBHOOK_LIMIT, endpoint_create, endpoint_delete, endpoint_ping
from webhooks.services.url_guard import FORBIDDEN_URL, INVALID_URL, UNRESOLVABLE_URL

TAGS = ["me"]
# not_found: a path whose id is no number (``/me/webhooks/x/``); webhook_not_found: none of yours has that id.
WEBHOOK_MISSING = {404: (WEBHOOK_NOT_FOUND, ErrorCode.NOT_FOUND)}


class WebhookListCreateApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Your webhooks",
        responses={200: EndpointOutput(many=True), **error_responses("MeWebhooksList", {}, 401, *NO_BODY)},
    )
    def get(self, request: Request) -> Response:
        return Response(EndpointOutput([endpoint_row(row) for row in endpoints_of(request.user)], many=True).data)

    @extend_schema(
        tags=TAGS,
        summary="Register a webhook",
        description=(
            "Deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with "
            "the secret in this answer, which is shown this once only. URLs must be http(s) on a public address: "
            "400 webhook_url_forbidden for loopback, private, link-local or metadata addresses."
        ),
        request=EndpointCreateInput,
        responses={
            201: EndpointCreatedOutput,
            **error_responses(
                "MeWebhooksCreate",
                {
                    # The service's invalid_webhook_events never reaches a client: the serializer refuses an
                    # empty or unknown event first (invalid).
                    400: (*INVALID_BODY, INVALID_URL, FORBIDDEN_URL, UNRESOLVABLE_URL),
                    409: (WEBHOOK_LIMIT,),
                },
                401,
                *BODY,
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = EndpointCreateInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        endpoint, secret = endpoint_create(user=request.user, **serializer.validated_data)
        body = EndpointCreatedOutput(endpoint_row(endpoint, secret=secret)).data
        return Response(body, status=status.HTTP_201_CREATED)


class WebhookDetailApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Remove a webhook",
        request=None,
        responses=no_content_responses("Removed.", "MeWebhooksDestroy", WEBHOOK_MISSING, 401, *NO_BODY),
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        endpoint_delete(user=request.user, endpoint_id=webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookPingApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Send a webhook.ping",
        description="Queues one signed webhook.ping, also to a disabled webhook; one that succeeds enables it again.",
        request=None,
        responses={202: PingOutput, **error_responses("MeWebhooksPingCreate", WEBHOOK_MISSING, 401, *BODYLESS_POST)},
    )
    def post(self, request: Request, webhook_id: int) -> Response:
        message = endpoint_ping(user=request.user, endpoint_id=webhook_id)
        return Response(PingOutput({"webhook_id": message.msg_id}).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveriesApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="A webhook's last delivery attempts",
        parameters=[DeliveriesQuery],
        responses={
            200: AttemptOutput(many=True),
            **error_responses(
                "MeWebhooksDeliveriesList", {400: (ErrorCode.INVALID,), **WEBHOOK_MISSING}, 401, *NO_BODY
            ),
        },
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        # Through query(): from a QueryDict, DRF would read an empty ?limit= as none given (the default).
        params = query(request, DeliveriesQuery)
        endpoint = endpoint_of(request.user, webhook_id)
        attempts = recent_attempts(endpoint, limit=params["limit"])
        return Response(AttemptOutput([attempt_row(row) for row in attempts], many=True).data)
