"""The ASGI application tunes the cyclic garbage collector of the process that serves it (``palace_api/asgi.py``):
what starting made is frozen out of its passes, and full passes are rarer, so that thousands of open streams do
not pause the event loop for a second at a time (``benchmarks/README.md``, bench_streams)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.servers import ROOT, app_env


def test_serving_the_asgi_application_freezes_what_starting_made_and_spaces_full_passes() -> None:
    probe = "import gc, json, palace_api.asgi; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"
    env = app_env(DATABASE_URL="sqlite:///:memory:", CELERY_BROKER_URL="memory://")
    out = subprocess.run(  # noqa: S603 - our own interpreter, a fixed probe
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    threshold, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    assert threshold == [10_000, 20, 100]
    assert frozen > 10_000, "Django's and the apps' objects are frozen"
