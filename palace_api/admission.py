"""Admission: at most ``settings.WEB_REQUESTS_IN_FLIGHT`` requests of a web process inside Django at once.

Under ASGI, Django runs each request's synchronous part (the middleware, the views) in a thread of its own, and
nothing bounds how many: a thousand pollers arriving together made a thousand threads per process, all wanting
one of the pool's connections and the interpreter's lock, and each request took seconds of wall time and many
times its CPU. Here the requests past the bound wait on the event loop, costing nothing, and go in as others come
out, so the threads inside stay few and each request runs at its own speed.

A request holds its place until its answer starts (``http.response.start``), not until its body ends: a live
stream (``text/event-stream``) starts its answer at once and then waits on the event loop, holding no thread,
so it holds no place either.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Admission:
    """ASGI middleware: ``limit`` HTTP requests at most between their arrival and the start of their answer."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._places: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self._places is None:  # made in the server's event loop, on its first request
            self._places = asyncio.Semaphore(self.limit)
        places = self._places
        await places.acquire()
        held = True

        async def started(message: Message) -> None:
            nonlocal held
            if held and message["type"] == "http.response.start":
                held = False
                places.release()
            await send(message)

        try:
            await self.app(scope, receive, started)
        finally:
            if held:
                places.release()
