"""The pages mails link to (``notifications.views``), under /email/; the API's routes are in ``api/urls.py``."""

from django.urls import path

from notifications.views import confirm_view, unsubscribe_view

urlpatterns = [
    path("email/confirm/<str:token>/", confirm_view, name="email-confirm"),
    path("email/unsubscribe/<str:token>/", unsubscribe_view, name="email-unsubscribe"),
]
