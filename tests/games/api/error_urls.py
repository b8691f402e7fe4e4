"""A test-only URLconf: the real routes plus views that raise each kind of error (tests/games/api/test_errors.py)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.errors import EngineError, IllegalAction
from palace_api.errors import ConflictError, NotFoundError
from palace_api.urls import handler400, handler403, handler404, handler500
from palace_api.urls import urlpatterns as project_urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


class RaisingApi(APIView):
    """GET raises whatever the URL names."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    errors = {
        "engine": EngineError("not_your_turn", "It is seat 2's turn."),
        "illegal": IllegalAction("insufficient_chips", "You have 3 chips; the bet is 5."),
        "conflict": ConflictError("version_mismatch", "The game moved on.", version=7),
        "missing": NotFoundError("game_not_found", "No such game."),
        "bug": RuntimeError("a bug"),
    }

    def get(self, request: Request, kind: str) -> Response:
        raise self.errors[kind]


def django_view_raising(exc: Exception):
    def view(request: HttpRequest) -> HttpResponse:
        raise exc

    return view


urlpatterns = [
    path("api/test/raise/<str:kind>/", RaisingApi.as_view()),
    path("api/test/django-403/", django_view_raising(PermissionDenied())),
    path("api/test/django-400/", django_view_raising(SuspiciousOperation("no"))),
    path("api/test/django-500/", django_view_raising(RuntimeError("a bug"))),
    path("test/django-500/", django_view_raising(RuntimeError("a bug"))),
    path("", include(project_urlpatterns)),
]
