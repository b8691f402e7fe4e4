"""A task for the bot benchmark's baseline: a bare Celery round trip that does nothing but answer."""

from __future__ import annotations

import os

import redis
from celery import shared_task


@shared_task(name="benchmarks.bench_tasks.echo")
def echo(key: str, sent: float) -> None:
    """Push ``sent`` to the Redis list ``key``, where the benchmark waits for it with BLPOP."""
    redis.Redis.from_url(os.environ["BENCH_REDIS_URL"]).rpush(key, sent)
