"""Routes of the ratings pages: the leaderboards, at /ratings/."""

from django.urls import path

from ratings import views

urlpatterns = [
    path("ratings/", views.leaderboards, name="leaderboards"),
    path("ratings/<str:ladder>/", views.leaderboards, name="leaderboard-page"),
]
