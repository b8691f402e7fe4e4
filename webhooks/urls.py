"""Routes of the webhooks API under /api/v1/me/webhooks/."""

from django.urls import path

from webhooks.api.views import WebhookDeliveriesApi, WebhookDetailApi, WebhookListCreateApi, WebhookPingApi

urlpatterns = [
    path("me/webhooks/", WebhookListCreateApi.as_view(), name="webhooks"),
    path("me/webhooks/<int:webhook_id>/", WebhookDetailApi.as_view(), name="webhook"),
    path("me/webhooks/<int:webhook_id>/ping/", WebhookPingApi.as_view(), name="webhook-ping"),
    path("me/webhooks/<int:webhook_id>/deliveries/", WebhookDeliveriesApi.as_view(), name="webhook-deliveries"),
]
