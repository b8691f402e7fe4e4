#!/usr/bin/env python3
"""The one developer entry point of Palace API. Needs only Python 3.11 and its standard library.

    python3 palace.py run                  serve Palace API with a Celery worker and beat (Ctrl-C stops them)
    python3 palace.py test [pytest args]   lint, check import boundaries, run the tests
    python3 palace.py manage COMMAND ...   a manage.py command with the run command's local settings
    python3 palace.py screenshots          refresh the README's pictures (docs/screenshots/) from the browser tests

The first run makes .venv/ beside this file and installs the project into it with its test extra; later runs
reinstall only when pyproject.toml has changed (a hash of it is kept in .venv/).
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".palace-pyproject.sha256"


def say(message: str) -> None:
    print(f"palace: {message}", flush=True)


def run(argv: Sequence[str]) -> int:
    return subprocess.call(list(argv), cwd=ROOT)  # noqa: S603  (our own fixed commands)


def venv_python() -> Path:
    return BIN / ("python.exe" if os.name == "nt" else "python")


def pyproject_hash() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> int:
    """Make .venv if missing; install the project if pyproject.toml changed since the last install."""
    if not venv_python().exists():
        say(f"creating {VENV.relative_to(ROOT)}/ with {sys.executable}")
        code = run([sys.executable, "-m", "venv", str(VENV)])
        if code:
            return code
    wanted = pyproject_hash()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return 0
    say("installing the project: pip install -e '.[test]'")
    pip = [str(venv_python()), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off"]
    code = run([*pip, "-e", ".[test]"])
    if code:
        return code
    STAMP.write_text(wanted + "\n")
    return 0


def run_steps(steps: Sequence[tuple[str, Sequence[str]]]) -> int:
    """Run each step in order; stop at the first that fails and return its exit code."""
    for label, argv in steps:
        say(label)
        code = run(argv)
        if code:
            say(f"{label}: failed with exit code {code}")
            return code
    return 0


def local_environment() -> None:
    """What a local run assumes unless the environment says otherwise: DEBUG on (WhiteNoise serves static files
    from the apps' folders, and the settings accept the fixed development key instead of requiring SECRET_KEY),
    and webhooks may reach receivers on loopback."""
    os.environ.setdefault("DEBUG", "true")
    # Webhooks to a receiver on this machine (loopback only) are allowed in a local run.
    os.environ.setdefault("WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128")


def command_manage(args: Sequence[str]) -> int:
    """``manage.py`` with the run command's environment, so ``play_demo`` or ``changepassword`` work beside it."""
    code = ensure_venv()
    if code:
        return code
    local_environment()
    return run([str(venv_python()), "manage.py", *args])


def pytest_workers() -> int:
    """How many pytest-xdist workers ``palace.py test`` starts: one more than the cores this process may run on.

    Many tests wait on a process of their own (a live server, a browser, a worker, a database brought back), and a
    worker per core leaves its core idle meanwhile (the README's "Tests" paragraph gives the times measured).
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores + 1


PYTEST_OPTIONS = ("-n", str(pytest_workers()), "--dist", "loadgroup", "--durations=15")
"""A process per core and one more (``pytest_workers``); the tests of one live server share it on one worker
(loadgroup); the slowest tests listed, so that every run shows where the suite's time goes (it must stay under 12
minutes on 2 cores)."""


def command_test(pytest_args: Sequence[str]) -> int:
    code = ensure_venv()
    if code:
        return code
    # Settings refuse to start without SECRET_KEY when DEBUG is false (the default); tests need no real one.
    os.environ.setdefault("SECRET_KEY", "palace-tests-only-not-secret")
    return run_steps(
        [
            ("ruff check .", [str(BIN / "ruff"), "check", "."]),
            ("ruff format --check .", [str(BIN / "ruff"), "format", "--check", "."]),
            ("lint-imports", [str(BIN / "lint-imports")]),
            ("mypy games/engine", [str(BIN / "mypy"), "games/engine"]),
            (f"pytest -n {PYTEST_OPTIONS[1]}", [str(venv_python()), "-m", "pytest", *PYTEST_OPTIONS, *pytest_args]),
        ]
    )


def command_verify(files: Sequence[str]) -> int:
    """``tools/verify_palace.py``: check game exports (README, "Provably fair shuffles"); no Django, no venv."""
    return run([sys.executable, str(ROOT / "tools" / "verify_palace.py"), *files])


def command_screenshots(pytest_args: Sequence[str]) -> int:
    """Refresh the README's pictures (``docs/screenshots/``) by running the browser tests that take them; a plain
    test run writes its screenshots to a temporary folder instead."""
    code = ensure_venv()
    if code:
        return code
    os.environ.setdefault("SECRET_KEY", "palace-tests-only-not-secret")
    os.environ["PALACE_SCREENSHOTS"] = str(ROOT / "docs" / "screenshots")
    return run([str(venv_python()), "-m", "pytest", "-p", "no:cacheprovider", "tests/system/browser", *pytest_args])


BACKGROUND = ("webhooks",)
"""Services of the run command started at a lower CPU priority (niceness ``BACKGROUND_NICENESS``)."""
BACKGROUND_NICENESS = 10
AUTOGROUP = Path("/proc/self/autogroup")


def lower_priority(niceness: int = BACKGROUND_NICENESS) -> None:
    """Lower the calling process's CPU priority, as the ``preexec_fn`` of a child that starts a session of its
    own: niceness ``niceness``, on Linux the ``SCHED_IDLE`` policy, and the same niceness for its session's
    scheduling group. Each step the system refuses is skipped; none raises.

    - A niced process keeps its CPU until its time slice ends (about a millisecond) when a game's process wakes
      up; an idle-policy one gives it up at once. A move wakes processes dozens of times (each database or broker
      round trip), so that slice showed in every move. Threads inherit the policy.
    - Linux's autogroup scheduling (``kernel.sched_autogroup_enabled``, on in most distributions) shares the CPU
      between sessions first and applies a niceness only inside a session: a niced service alone in its session
      would get as much CPU as the games, unless its session's group is niced too.
    """
    os.nice(niceness)
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            pass  # a sandbox that forbids it: the niceness still applies
    for _ in range(10):
        try:
            AUTOGROUP.write_text(str(niceness))
        except BlockingIOError:  # EAGAIN: the kernel takes one such change per 100 ms from an unprivileged user
            time.sleep(0.1)
        except OSError:
            return  # no autogroup (another OS, a kernel without it): the niceness alone applies
        else:
            return


def run_services(python: str, port: str) -> dict[str, list[str]]:
    """The run command's processes by name, each a command line (``{py}`` is the venv's Python, ``{port}`` the
    web port); ``BACKGROUND`` names those started at a lower CPU priority."""
    lines = {
        # ASGI: an open live stream waits on uvicorn's event loop instead of holding a worker. WhiteNoise serves
        # static files, as runserver did. Open streams get 5 s to end when stopped.
        "web": "{py} -m uvicorn palace_api.asgi:application --host 127.0.0.1 --port {port}"
        " --timeout-graceful-shutdown 5",
        "worker": "{py} -m celery -A palace_api worker -l INFO -c 2 -n palace-{port}@%h",
        # Webhook deliveries wait on other people's servers: threads of a worker of their own (README, Webhooks).
        "webhooks": "{py} -m celery -A palace_api worker -Q webhooks -P threads -c 8 -l INFO -n webhooks-{port}@%h",
        # The search bot's moves and game reviews (the "slow" queue): one process of its own, so a 250 ms search
        # never holds the worker a basic bot's move or a turn timeout waits for (README, Bot levels).
        "slow": "{py} -m celery -A palace_api worker -Q slow -c 1 -l INFO -n slow-{port}@%h",
        "beat": "{py} -m celery -A palace_api beat -l INFO -s {schedule}",
    }
    schedule = str(VENV / f"celerybeat-schedule-{port}")
    # Split before filling in, so a path with a space stays one argument.
    return {
        name: [part.format(py=python, port=port, schedule=schedule) for part in line.split()]
        for name, line in lines.items()
    }


def command_run(args: Sequence[str]) -> int:
    """Migrate, make a staff user if none, declare the task queue, then serve until Ctrl-C: web server, Celery
    worker and beat."""
    code = ensure_venv()
    if code:
        return code
    port = os.environ.get("PORT", "8000")
    local_environment()
    python = str(venv_python())
    code = run_steps(
        [
            ("migrate", [python, "manage.py", "migrate", "--noinput"]),
            ("ensure_staff", [python, "manage.py", "ensure_staff"]),
            ("prepare_broker", [python, "manage.py", "prepare_broker"]),
        ]
    )
    if code:
        return code
    return supervise(
        run_services(python, port),
        ready=f"Palace runs: http://127.0.0.1:{port}/ (play in a browser), "
        f"http://127.0.0.1:{port}/api/docs/ (API docs)",
    )


def supervise(services: dict[str, list[str]], *, ready: str) -> int:
    """Start each service, then wait until Ctrl-C, SIGTERM or one of them stops; stop the rest (SIGTERM, then
    SIGKILL after 15 s in all). Returns the exit code: 0 when stopped by a signal."""
    children: dict[str, subprocess.Popen[bytes]] = {}

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)  # stopped by a supervisor: stop the children too
    # Started in the background of a script (`palace.py run &`) a process inherits SIGINT ignored; Ctrl-C or
    # `kill -INT` should stop the run all the same.
    signal.signal(signal.SIGINT, interrupt)
    try:
        for name, argv in services.items():
            say(f"starting {name}")
            # A session of its own: Ctrl-C reaches us alone, and we stop each child in order.
            # The delivery worker yields the CPU to the games: a flood of webhooks must not slow a move.
            nice = lower_priority if name in BACKGROUND else None
            children[name] = subprocess.Popen(  # noqa: S603
                argv,
                cwd=ROOT,
                start_new_session=True,
                preexec_fn=nice,
            )
        say(ready)
        say("Ctrl-C stops the web server, the worker and beat")
        while True:
            for name, child in children.items():
                if child.poll() is not None:
                    say(f"{name} stopped with exit code {child.returncode}; stopping the rest")
                    return child.returncode or 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        say("stopping")
        return 0
    finally:
        stop(children.values())


def stop(children: Iterable[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each child still running, then SIGKILL whichever has not ended 15 s later. A second Ctrl-C (or a
    supervisor's SIGTERM passed on twice) while they stop changes nothing: the 15 s bound ends it anyway."""
    children = list(children)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


# name -> (usage line, one-line help, function taking the remaining arguments and returning an exit code)
COMMANDS: dict[str, tuple[str, str, Callable[[Sequence[str]], int]]] = {
    "run": (
        "run",
        "migrate, create a staff user if none, serve on 127.0.0.1:$PORT (8000) with a Celery worker and beat",
        command_run,
    ),
    "manage": (
        "manage COMMAND [ARGS]",
        "a manage.py command (play_demo, changepassword...) with the local settings of run",
        command_manage,
    ),
    "screenshots": (
        "screenshots",
        "refresh the README's pictures in docs/screenshots/ from the browser tests",
        command_screenshots,
    ),
    "verify": (
        "verify FILE...",
        "check game exports: commitments, every shuffle re-derived, every card replayed",
        command_verify,
    ),
    "test": (
        "test [pytest args]",
        "ruff, import boundaries, then pytest (a worker per core and one more); extra arguments go to pytest",
        command_test,
    ),
}


def usage() -> str:
    lines = ["usage: python3 palace.py COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {line:<24} {text}" for line, text, _ in COMMANDS.values()]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(usage())
        return 0
    if not argv or argv[0] not in COMMANDS:
        print(usage(), file=sys.stderr)
        return 2
    return COMMANDS[argv[0]][2](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
