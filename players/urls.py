"""Routes of the players API under /api/v1/."""

from django.urls import path

from players.api.views import LogoutApi, MeApi, PlayerRegisterApi, StaffTokenApi

urlpatterns = [
    path("players/", PlayerRegisterApi.as_view(), name="player-register"),
    path("auth/token/", StaffTokenApi.as_view(), name="auth-token"),
    path("auth/logout/", LogoutApi.as_view(), name="auth-logout"),
    path("me/", MeApi.as_view(), name="me"),
]
