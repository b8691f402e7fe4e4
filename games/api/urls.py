"""Routes of the games API under /api/v1/."""

from django.urls import path, register_converter

from games.api import export, lifecycle, rematch, review, streams, views


class GameIdConverter:
    """A game id: 1 to 18 digits, so it always fits the database's 64-bit integer (a longer number was an
    overflow, a 500, on SQLite); any other path segment matches no route (404 ``not_found``)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(GameIdConverter, "game_id")

urlpatterns = [
    path("games/", views.GameListCreateView.as_view(), name="games"),
    path("games/<game_id:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<game_id:game_id>/seats/", views.SeatCreateView.as_view(), name="game-seats"),
    path("games/<game_id:game_id>/actions/", views.ActionCreateView.as_view(), name="game-actions"),
    path("games/<game_id:game_id>/events/", views.EventListView.as_view(), name="game-events"),
    path("games/<game_id:game_id>/stream/", streams.GameStreamView.as_view(), name="game-stream"),
    path("games/<game_id:game_id>/review/", review.ReviewView.as_view(), name="game-review"),
    path("games/<game_id:game_id>/rematch/", rematch.RematchView.as_view(), name="game-rematch"),
    path("games/<game_id:game_id>/rematch/accept/", rematch.RematchAcceptView.as_view(), name="game-rematch-accept"),
    path("games/<game_id:game_id>/rematch/decline/", rematch.RematchDeclineView.as_view(), name="game-rematch-decline"),
    path("games/<game_id:game_id>/rematch/leave/", rematch.RematchLeaveView.as_view(), name="game-rematch-leave"),
    path("me/turns/", views.MyTurnsView.as_view(), name="my-turns"),
    path("games/<game_id:game_id>/resign/", lifecycle.ResignView.as_view(), name="game-resign"),
    path("games/<game_id:game_id>/seats/mine/", lifecycle.MySeatView.as_view(), name="game-seat-mine"),
    path("games/<game_id:game_id>/cancel/", lifecycle.CancelView.as_view(), name="game-cancel"),
    path("me/games/", lifecycle.MyGamesView.as_view(), name="my-games"),
    path("games/<game_id:game_id>/export/", export.GameExportView.as_view(), name="game-export"),
    path("games/<game_id:game_id>/export/phh/", export.GamePhhView.as_view(), name="game-export-phh"),
    path("me/games/export/", export.MyGamesExportView.as_view(), name="my-games-export"),
    path("me/stream/", streams.MyStreamView.as_view(), name="my-stream"),
    path("me/stream-token/", streams.StreamTokenView.as_view(), name="my-stream-token"),
]
