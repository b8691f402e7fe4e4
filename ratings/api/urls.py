"""Routes of the ratings API under /api/v1/."""

from django.urls import path, register_converter

from ratings.api import views


class IdConverter:
    """A player or game id: 1 to 18 digits (fits a 64-bit integer); anything else matches no route (404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class LadderConverter:
    """A ladder's name as ladders are named (``games.engine.registry.LADDERS``); which exist, the view says."""

    regex = "[a-z0-9-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "rating_id")
register_converter(LadderConverter, "ladder")

urlpatterns = [
    path("players/<rating_id:player_id>/ratings/", views.PlayerRatingsView.as_view(), name="player-ratings"),
    path(
        "players/<rating_id:player_id>/ratings/history/",
        views.PlayerHistoryView.as_view(),
        name="player-rating-history",
    ),
    path("ratings/<ladder:ladder>/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("games/<rating_id:game_id>/ratings/", views.GameRatingsView.as_view(), name="game-ratings"),
]
