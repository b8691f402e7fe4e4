"""Routes of the games API under /api/v1/."""

from django.urls import path

from games.api import views

urlpatterns = [
    path("games/", views.GameListCreateView.as_view(), name="games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/seats/", views.SeatCreateView.as_view(), name="game-seats"),
    path("games/<int:game_id>/actions/", views.ActionCreateView.as_view(), name="game-actions"),
    path("games/<int:game_id>/events/", views.EventListView.as_view(), name="game-events"),
    path("me/turns/", views.MyTurnsView.as_view(), name="my-turns"),
]
