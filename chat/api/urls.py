"""Routes of the chat API under /api/v1/ (the game id converter is the games API's)."""

from django.urls import path

import games.api.urls  # noqa: F401  (registers the game_id converter)
from chat.api import views

urlpatterns = [
    path("games/<game_id:game_id>/chat/", views.ChatView.as_view(), name="game-chat"),
    path("me/mutes/", views.MutesView.as_view(), name="my-mutes"),
    path("me/mutes/<int:player_id>/", views.MuteView.as_view(), name="my-mute"),
]
