"""Middleware that runs in either of Django's modes, so that under ASGI the whole chain stays on the event loop
and only the (synchronous) view runs in a thread.

Django adapts a middleware that can only run synchronously with a thread hop on each side of it: with the
project's three middlewares and WhiteNoise's sync-only, every request under the ASGI server went from the event
loop to a thread (the outer middlewares), back to the loop (the inner ones) and to a thread again (the view).
Middlewares built on ``BothModes`` (and ``StaticFilesMiddleware``) take the mode of the handler below them, as
Django's own do; the view keeps its one hop, in which the ORM runs as under WSGI (one thread, one connection, its
transactions), so nothing of the ORM's guarantees changes.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware import clickjacking, common, csrf, security
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware

Handler = Callable[[HttpRequest], Any]


class BothModes:
    """A middleware in the mode of ``get_response``: subclasses write ``before(request)`` (a response ends the
    request there; ``None`` goes on) and ``after(request, response, state)`` (``state``: what ``before`` left in
    ``request_state``), both quick and never blocking, so they may run on the event loop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self.__acall__(request)
        early = self.before(request)
        if early is not None:
            return early
        return self.after(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        early = self.before(request)
        if early is not None:
            return early
        return self.after(request, await self.get_response(request))


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise's middleware in either mode: a request for a static file is served in a thread (it opens the
    file); any other goes on in the mode of the handler below, with no hop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Handler | None = None, **kwargs: Any) -> None:
        super().__init__(get_response, **kwargs)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> Any:
        if self.autorefresh:  # DEBUG: a look at the disk per request, as WhiteNoise does
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        return await self.get_response(request)


class OnTheLoop(MiddlewareMixin):
    """Django's ``MiddlewareMixin`` whose hooks run on the event loop under ASGI when they cannot block, instead of
    each hopping to a thread and back (``MiddlewareMixin.__acall__`` hops for ``process_request`` and again for
    ``process_response``: Django's own middlewares made about 13 hops a request, most of an event loop's time per
    request in ``bench_streams``' profiles). A subclass says when a hook could block (``blocks_after``: its
    ``process_response`` would read or write the database); then it runs in a thread as Django runs it."""

    def blocks_after(self, request: HttpRequest) -> bool:
        return False

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        response = response or await self.get_response(request)
        if hasattr(self, "process_response"):
            if self.blocks_after(request):
                response = await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
            else:
                response = self.process_response(request, response)
        return response


class SecurityMiddleware(OnTheLoop, security.SecurityMiddleware):
    """Django's, on the loop: headers and a redirect, no I/O."""


class CommonMiddleware(OnTheLoop, common.CommonMiddleware):
    """Django's, on the loop: the host check, a URL resolution for APPEND_SLASH, Content-Length; no I/O."""


class XFrameOptionsMiddleware(OnTheLoop, clickjacking.XFrameOptionsMiddleware):
    """Django's, on the loop: a header."""


class AuthenticationMiddleware(OnTheLoop, auth.AuthenticationMiddleware):
    """Django's, on the loop: it sets a lazy ``request.user``, read (in the view's thread) only when used."""


class SessionMiddleware(OnTheLoop, sessions.SessionMiddleware):
    """Django's: the session is made lazily (on the loop); saving it is a write, in a thread as Django does, and
    only a session the request touched can need one (the API's token requests never do)."""

    def blocks_after(self, request: HttpRequest) -> bool:
        session = getattr(request, "session", None)
        return session is None or session.accessed


class MessageMiddleware(OnTheLoop, messages.MessageMiddleware):
    """Django's: storing messages may read the session, so only a request that used or added messages stores
    them in a thread; the others have nothing to store."""

    def blocks_after(self, request: HttpRequest) -> bool:
        storage = getattr(request, "_messages", None)
        return storage is not None and (storage.used or storage.added_new)


class CsrfViewMiddleware(OnTheLoop, csrf.CsrfViewMiddleware):
    """Django's: reading the CSRF cookie and setting it are header work, on the loop; checking a token (an unsafe
    method on a view that is not exempt) may read a form body, in a thread as Django does. With
    ``CSRF_USE_SESSIONS`` every hook reads the session: all in threads."""

    def __init__(self, get_response: Handler) -> None:
        super().__init__(get_response)
        if self.async_mode:  # the handler adapts process_view by whether it is a coroutine function
            self.process_view = self._process_view_async  # type: ignore[method-assign]

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if settings.CSRF_USE_SESSIONS:
            return await MiddlewareMixin.__acall__(self, request)
        return await super().__acall__(request)

    async def _process_view_async(
        self, request: HttpRequest, callback: Any, callback_args: Any, callback_kwargs: Any
    ) -> HttpResponseBase | None:
        checks = not (
            getattr(request, "csrf_processing_done", False)
            or getattr(callback, "csrf_exempt", False)
            or request.method in ("GET", "HEAD", "OPTIONS", "TRACE")
        )
        view = functools.partial(csrf.CsrfViewMiddleware.process_view, self)
        if checks or settings.CSRF_USE_SESSIONS:
            return await sync_to_async(view, thread_sensitive=True)(request, callback, callback_args, callback_kwargs)
        return view(request, callback, callback_args, callback_kwargs)
