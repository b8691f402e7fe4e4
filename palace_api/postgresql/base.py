"""Django's PostgreSQL backend whose pool never gives a request a connection that a database restart broke, and
hands out new ones as soon as the database is back.

Two behaviours of psycopg_pool under Django 5.2 made requests fail after the database's return:

- a connection idle in the pool during a restart is broken, and nothing notices before a request uses it (one
  503 per such connection). Django's own check (``CONN_HEALTH_CHECKS`` gives the pool
  ``ConnectionPool.check_connection``) does not cure it: after each failed check ``getconn`` sleeps 1 s, 2 s,
  4 s... and takes the next stale connection, so with more than four of them the first request ran out of the
  pool's timeout. Django 5.2 takes no other check (``OPTIONS["pool"]["check"]`` fails with a TypeError).
- a connection that could not be reopened during the outage is retried in the background with pauses that
  double up to ``reconnect_timeout`` (5 minutes by default): after a long outage the pool waited on those pauses,
  so requests waited out their timeout although the database was back.

Here a connection taken from the pool is checked first (one empty query); a failed check drops every broken
connection the pool holds at once (``ConnectionPool.check``). ``palace_api.env`` gives the pool a short
``timeout`` (one wait) and ``reconnect_timeout``; a request waits again and again up to ``pool_wait`` seconds in
all, and each new wait makes the pool open a connection if it has room, so a request waiting when the database
returns gets one within about a second.
"""

from __future__ import annotations

import time
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import PoolTimeout


class DatabaseWrapper(base.DatabaseWrapper):
    """``django.db.backends.postgresql``, with ``OPTIONS["pool"]`` and ``CONN_HEALTH_CHECKS`` off (the pool does
    not check on its own): see the module's docstring. Without a pool it is Django's backend unchanged.

    Raises Django's ``OperationalError`` (as ever) when no working connection comes within ``pool_wait`` seconds:
    the database is down, or every connection is busy.
    """

    pool_wait = 10.0
    """Seconds after which a request waiting for a working connection gives up, at the end of the wait then
    under way (the pool's ``timeout`` is one wait of several)."""

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        deadline = time.monotonic() + self.pool_wait
        broken = 0
        while True:
            try:
                connection = super().get_new_connection(conn_params)
            except PoolTimeout:
                if time.monotonic() >= deadline:
                    raise
                continue
            try:
                pool.check_connection(connection)
            except psycopg.Error:
                # Returned broken, it is closed and replaced; the pool holds at most max_size broken ones, so
                # more failures mean new connections fail too.
                pool.putconn(connection)
                broken += 1
                if broken > pool.max_size:
                    raise
                pool.check()
                continue
            return connection
