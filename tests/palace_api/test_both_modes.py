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


def test_static_files_in_async_mode_serve_files_and_pass_other_requests_on_with_and_without_autorefresh(
    settings,
) -> None:
    """Under ASGI WhiteNoise's wrapper serves a static file and awaits the handler below for a path that is no
    static file, whether it looks at the disk per request (DEBUG's autorefresh, the tests' setting) or lists the
    files once (the shipped server): the file or the handler's answer, never a coroutine."""
    import asyncio
    from contextlib import closing
    from pathlib import Path

    from django.contrib.staticfiles import finders
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
        served = asyncio.run(middleware(RequestFactory().get("/static/web/palace.js")))
        assert served.status_code == 200, autorefresh
        with closing(served):
            assert b"".join(served.streaming_content) == Path(finders.find("web/palace.js")).read_bytes()


def _hops(monkeypatch) -> list[str]:
    """Record each hook ``palace_api.both_modes`` sends to a thread, and run it in place (the test's database
    transaction is this thread's)."""
    calls: list[str] = []

    def in_place(function, *, thread_sensitive):
        async def run(*args):
            calls.append(getattr(function, "__name__", None) or function.func.__name__)
            return function(*args)

        return run

    monkeypatch.setattr("palace_api.both_modes.sync_to_async", in_place)
    return calls


def _chain(below):
    """Django's middlewares of ``settings.MIDDLEWARE`` (the project's subclasses), in its order, around ``below``."""
    from palace_api import both_modes

    handler = below
    for middleware in reversed(
        [
            both_modes.SecurityMiddleware,
            both_modes.SessionMiddleware,
            both_modes.CommonMiddleware,
            both_modes.CsrfViewMiddleware,
            both_modes.AuthenticationMiddleware,
            both_modes.MessageMiddleware,
            both_modes.XFrameOptionsMiddleware,
        ]
    ):
        handler = middleware(handler)
    return handler


def test_djangos_middlewares_hop_to_no_thread_for_a_request_that_touches_no_session(monkeypatch) -> None:
    """Given Django's middlewares under ASGI, when a request's view touches neither session nor messages (an API
    request with a token), then no hook leaves the event loop, and every middleware still did its work."""
    import asyncio

    from django.http import HttpResponse
    from django.test import RequestFactory

    calls = _hops(monkeypatch)

    async def below(request):
        return HttpResponse("ok")

    answer = asyncio.run(_chain(below)(RequestFactory().get("/api/v1/games/")))
    assert calls == []
    assert answer["X-Frame-Options"] == "DENY" and answer["X-Content-Type-Options"] == "nosniff"


def test_a_session_the_view_changed_is_saved_from_a_thread(monkeypatch, settings) -> None:
    """Given a view that writes to the session (a page's sign-in), then the session middleware's save (with the
    database's engine, a write) runs in a thread, as Django runs it, and the session is stored (here in a signed
    cookie, so that the test needs no database)."""
    import asyncio

    from django.core import signing
    from django.http import HttpResponse
    from django.test import RequestFactory

    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    calls = _hops(monkeypatch)

    async def below(request):
        request.session["seen"] = True
        return HttpResponse("ok")

    answer = asyncio.run(_chain(below)(RequestFactory().get("/")))
    assert calls == ["process_response"]
    stored = signing.loads(
        answer.cookies["sessionid"].value,
        salt="django.contrib.sessions.backends.signed_cookies",
        serializer=signing.JSONSerializer,
    )
    assert stored == {"seen": True}


def test_a_post_without_its_csrf_token_is_checked_in_a_thread_and_refused(monkeypatch) -> None:
    """The CSRF check of an unsafe method on a view that is not exempt may read a form body: in a thread, and
    still refused (403) without the token; a GET is accepted on the loop."""
    import asyncio

    from django.http import HttpResponse
    from django.test import RequestFactory

    from palace_api.both_modes import CsrfViewMiddleware

    calls = _hops(monkeypatch)

    async def below(request):
        return HttpResponse("ok")

    def view(request):
        return HttpResponse("ok")

    middleware = CsrfViewMiddleware(below)
    get = asyncio.run(middleware.process_view(RequestFactory().get("/"), view, (), {}))
    assert get is None and calls == []
    post = RequestFactory().post("/", {"a": "b"})
    post._dont_enforce_csrf_checks = False
    refused = asyncio.run(middleware.process_view(post, view, (), {}))
    assert refused.status_code == 403 and calls == ["process_view"]
