"""Routes of the games API under /api/v1/."""

from django.urls import path

from games.api import lifecycle, streams, views

urlpatterns = [
    path("games/", views.GameListCreateView.as_view(), name="games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/seats/", views.SeatCreateView.as_view(), name="game-seats"),
    path("games/<int:game_id>/actions/", views.ActionCreateView.as_view(), name="game-actions"),
    path("games/<int:game_id>/events/", views.EventListView.as_view(), name="game-events"),
    path("games/<int:game_id>/stream/", streams.GameStreamView.as_view(), name="game-stream"),
    path("me/turns/", views.MyTurnsView.as_view(), name="my-turns"),
    path("games/<int:game_id>/resign/", lifecycle.ResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/seats/mine/", lifecycle.MySeatView.as_view(), name="game-seat-mine"),
    path("games/<int:game_id>/cancel/", lifecycle.CancelView.as_view(), name="game-cancel"),
    path("me/games/", lifecycle.MyGamesView.as_view(), name="my-games"),
    path("me/stream/", streams.MyStreamView.as_view(), name="my-stream"),
    path("me/stream-token/", streams.StreamTokenView.as_view(), name="my-stream-token"),
]
