"""Schemathesis against the live app: every operation of /api/schema/, every check, with a player's token and
with a staff token, bounded in examples per operation and in time. Any failure (a 500, an answer that does
not fit its documented schema or status, a schema-valid request refused where the schema is the only judge,
an invalid one accepted ...) fails the test with Schemathesis's report.

Also: the served schema is valid OpenAPI 3 (openapi-spec-validator)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from openapi_spec_validator import validate

from tests.live import LiveApp, live_app

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = 10
SECONDS = 20

# One live server for the module: its tests run on one xdist worker (palace.py test: --dist loadgroup).
pytestmark = pytest.mark.xdist_group("schemathesis")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> LiveApp:
    # No worker: bots seated by the generated requests only queue their turns.
    with live_app(tmp_path_factory.mktemp("schemathesis"), worker=False) as app:
        yield app


def schemathesis(app: LiveApp, token: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).with_name("st")),
        "--config-file",
        str(CONFIG),
        "run",
        f"{app.url}/api/schema/?format=json",
        "--checks",
        "all",
        "--max-examples",
        str(EXAMPLES),
        "--workers",
        "1",
        "--request-timeout",
        "20",
        *arguments,
    ]
    env = {**os.environ, "PALACE_TOKEN": token}
    return subprocess.run(  # noqa: S603  (our own command)
        # In the live server's directory: the CLI keeps a cache (.schemathesis/) where it runs.
        command,
        env=env,
        cwd=app.log.parent,
        capture_output=True,
        text=True,
        timeout=SECONDS * 4 + 120,
        check=False,
    )


def test_the_served_schema_is_valid_openapi(served: LiveApp) -> None:
    schema = httpx.get(f"{served.url}/api/schema/?format=json", timeout=30).json()
    validate(schema)
    assert schema["openapi"].startswith("3.")


@pytest.mark.parametrize("who", ["player", "staff"])
def test_every_operation_passes_every_check(served: LiveApp, who: str) -> None:
    """Logging out revokes the token of the request, which would turn the rest of the run into 401s: it has a
    run of its own below."""
    token = served.player_token(f"schemathesis-{who}") if who == "player" else served.staff_token()
    done = schemathesis(served, token, "--max-time", str(SECONDS), "--exclude-operation-id", "auth_logout")
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-3000:]
    selected, total = map(int, re.search(r"(\d+) selected / (\d+) total", done.stdout).groups())
    # Every operation but logging out (below). The event streams run with follow=false (schemathesis.toml): a
    # followed stream never ends by itself, and tests/system/streams/ reads them whole.
    assert selected == total - 1 and total > 20, done.stdout[-3000:]


def test_logging_out_passes_every_check(served: LiveApp) -> None:
    done = schemathesis(served, served.player_token("schemathesis-logout"), "--include-operation-id", "auth_logout")
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-3000:]
    assert re.search(r"\b1 selected / \d+ total", done.stdout), done.stdout[-3000:]
