"""A gunicorn configuration for benchmarks only: each worker's main thread (its event loop, under the uvicorn
workers) profiled with cProfile from its start to its exit, the stats written to
``$BENCH_PROFILE_DIR/worker-<pid>.prof``, and the garbage collector's passes of 5 ms or more (generation, seconds)
to ``worker-<pid>.gc.json``.

``bench_streams --profile DIR`` passes it as ``gunicorn -c``; read the stats with ``python -m pstats``. Only the
loop's thread is profiled: what starves the loop (and so the streams and the gate) is what runs on it; the views'
threads are not.
"""

from __future__ import annotations

import cProfile
import gc
import json
import os
import signal
import sys
import time
from typing import Any

_profile: cProfile.Profile | None = None
_collections: list[tuple[int, float]] = []
"""(generation, seconds) of each of the cyclic garbage collector's passes that took 5 ms or more."""
_started = [0.0]


def _timed_collection(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    took = time.perf_counter() - _started[0]
    if took >= 0.005:
        _collections.append((info["generation"], took))


def post_worker_init(worker: Any) -> None:
    global _profile
    # uvicorn re-raises the stopping signal once it has shut down, with the handler it found in place: this one,
    # so the stats are written before the worker ends (with the default handler it would die at once).
    signal.signal(signal.SIGTERM, _dump_and_exit)
    gc.callbacks.append(_timed_collection)
    _profile = cProfile.Profile()
    _profile.enable()


def _dump_and_exit(signum: int, frame: Any) -> None:
    if _profile is not None:
        _profile.disable()
        _profile.dump_stats(os.path.join(os.environ["BENCH_PROFILE_DIR"], f"worker-{os.getpid()}.prof"))
    with open(os.path.join(os.environ["BENCH_PROFILE_DIR"], f"worker-{os.getpid()}.gc.json"), "w") as out:
        json.dump(_collections, out)
    sys.exit(0)
