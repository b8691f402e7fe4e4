"""Routes of the notifications API under /api/v1/."""

from django.urls import path

from notifications.api.views import EmailApi

urlpatterns = [
    path("me/email/", EmailApi.as_view(), name="me-email"),
]
