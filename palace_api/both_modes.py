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

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest
from django.http.response import HttpResponseBase
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
