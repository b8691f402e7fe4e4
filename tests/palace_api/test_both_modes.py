"""Under ASGI the middleware chain stays on the event loop (``palace_api/both_modes.py``): Django adapts no
middleware of ``settings.MIDDLEWARE`` (each adaptation is a thread hop per request), so the view's own hop is
the only one. Under WSGI the same middlewares run synchronously, as before."""

from __future__ import annotations

import logging

from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.wsgi import WSGIHandler


def adaptations(handler_class: type, settings, caplog) -> list[str]:
    settings.DEBUG = True  # Django names each adaptation at DEBUG only when DEBUG is on
    with caplog.at_level(logging.DEBUG, logger="django.request"):
        handler_class()
    return [record.getMessage() for record in caplog.records if "adapted" in record.getMessage()]


def test_no_middleware_is_adapted_under_asgi(settings, caplog) -> None:
    assert adaptations(ASGIHandler, settings, caplog) == []


def test_no_middleware_is_adapted_under_wsgi(settings, caplog) -> None:
    assert adaptations(WSGIHandler, settings, caplog) == []


def test_a_sync_only_middleware_in_the_chain_would_be_adapted(settings, caplog) -> None:
    """The check can fail: with WhiteNoise's own (sync-only) middleware back, Django adapts around it."""
    settings.MIDDLEWARE = [
        "whitenoise.middleware.WhiteNoiseMiddleware" if "StaticFiles" in path else path for path in settings.MIDDLEWARE
    ]
    assert len(adaptations(ASGIHandler, settings, caplog)) >= 1


def test_static_files_in_async_mode_pass_other_requests_on_with_and_without_autorefresh(settings) -> None:
    """Under ASGI WhiteNoise's wrapper awaits the handler below for a path that is no static file, whether it
    looks at the disk per request (DEBUG's autorefresh) or not: the handler's answer, never a coroutine."""
    import asyncio

    from django.http import HttpResponse
    from django.test import RequestFactory

    from palace_api.both_modes import StaticFilesMiddleware

    async def below(request):
        return HttpResponse("from the view")

    for autorefresh in (True, False):
        settings.WHITENOISE_AUTOREFRESH = autorefresh
        middleware = StaticFilesMiddleware(below)
        answer = asyncio.run(middleware(RequestFactory().get("/api/v1/games/")))
        assert isinstance(answer, HttpResponse) and answer.content == b"from the view", autorefresh
