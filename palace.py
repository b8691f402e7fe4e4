#!/usr/bin/env python3
"""The one developer entry point of Palace API. Needs only Python 3.11 and its standard library.

    python3 palace.py test [pytest args]   lint, check import boundaries, run the tests

The first run makes .venv/ beside this file and installs the project into it with its test extra; later runs
reinstall only when pyproject.toml has changed (a hash of it is kept in .venv/).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
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
            ("pytest -n auto", [str(venv_python()), "-m", "pytest", "-n", "auto", *pytest_args]),
        ]
    )


# name -> (usage line, one-line help, function taking the remaining arguments and returning an exit code)
COMMANDS: dict[str, tuple[str, str, Callable[[Sequence[str]], int]]] = {
    "test": (
        "test [pytest args]",
        "ruff, import boundaries, then pytest -n auto; extra arguments go to pytest",
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
