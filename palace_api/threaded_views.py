"""Django's ASGI handler with the synchronous views run in a pool of threads rather than all in one.

Django runs every synchronous view of an ASGI process in one thread (``sync_to_async(thread_sensitive=True)``), so
a process serves one view at a time, its database round trips included: with the two workers the Dockerfile
runs, two actions in flight at most, each waiting on its statements and its commit while the CPU idles. Here a
view runs in a thread of the event loop's pool, so the waits of several requests overlap.

What the ORM guarantees stays as it is: a view runs from start to end in one thread, with that thread's own
connection (from the pool, ``DATABASE_POOL_MAX_SIZE``), and its transactions (``transaction.atomic`` in the
services) are that connection's. Django closes a request's connections on ``request_started`` and
``request_finished`` in the thread of its signals, which is not the view's: the view's thread does it itself,
before and after the view, so each request takes a working connection and gives it back (to the pool) when done.
Everything else (middleware, the view's exception handling and rendering) runs where Django runs it.

And where Django runs the rest of a request's synchronous work (its signals, the middlewares that are synchronous
only, closing the response): Django's handler opens a ``ThreadSensitiveContext`` per request, in which asgiref
starts a thread of its own for that work, and another to join it when the request ends: two threads started per
request (``benchmarks/README.md``, bench_streams: a thousand pollers made them the event loop's largest cost after
the sockets). Here that work runs in asgiref's one long-lived thread per process instead, as under Django's ASGI
handler before per-request contexts: each piece is short (no view runs there), so it queues briefly at worst.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import close_old_connections


def _with_own_connections(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return view(*args, **kwargs)
        finally:
            close_old_connections()

    return run


class ThreadedViewsASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose synchronous views run in the event loop's thread pool, and whose other synchronous
    work runs in one long-lived thread rather than a new one per request (module docstring)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # as Django's own __call__
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    def make_view_atomic(self, view: Callable[..., Any]) -> Callable[..., Any]:
        wrapped = super().make_view_atomic(view)
        if iscoroutinefunction(wrapped):
            return wrapped
        in_pool = sync_to_async(_with_own_connections(wrapped), thread_sensitive=False)

        async def view_in_pool(request: Any, *args: Any, **kwargs: Any) -> Any:
            return await in_pool(request, *args, **kwargs)

        return view_in_pool
