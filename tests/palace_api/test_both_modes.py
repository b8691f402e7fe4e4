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
