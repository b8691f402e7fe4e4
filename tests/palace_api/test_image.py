"""The image the Dockerfile builds holds every app of the project (Docker does not run here, so this reads it).

Given the project's own apps (``INSTALLED_APPS`` entries that are folders of this checkout), then the Dockerfile
copies each of them into the image and ``pyproject.toml`` installs each as a package: an app left out fails the
image at start, where nothing here would see it.
"""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def own_apps() -> set[str]:
    return {app.split(".")[0] for app in settings.INSTALLED_APPS if (ROOT / app.split(".")[0]).is_dir()}


def test_the_dockerfile_copies_every_app_and_pyproject_installs_it() -> None:
    apps = own_apps() | {"palace_api"}
    assert {"games", "players", "chat", "ratings"} <= apps
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\w+) \./\1$", dockerfile, flags=re.MULTILINE))
    # The outbox is no app (its model is abstract), but webhooks and notifications import it.
    assert apps | {"outbox"} <= copied, f"the Dockerfile copies no {sorted(apps | {'outbox'} - copied)}"
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    missing = {app for app in apps | {"outbox"} if not any(fnmatch(app, p) for p in patterns["include"])}
    assert not missing, f"pyproject.toml installs no {sorted(missing)}"
