"""axe-core in the browser tests: a page must show no serious or critical accessibility violation.

axe-core (Deque, MPL-2.0) comes with the ``axe-playwright-python`` package (MIT), which evaluates its bundled
``axe.min.js`` in the page through Playwright (no script tag, so the Content-Security-Policy is not involved)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

SERIOUS = ("serious", "critical")
"""The impacts that fail a test; minor and moderate ones are reported by axe but left to judgement."""


def assert_accessible(page: Any, where: str) -> None:
    """Run axe-core on ``page`` as it is now; fail with each serious or critical violation, its rule, help and the
    elements concerned (at most five each)."""
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in SERIOUS]
    report = [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["html"][:160] for n in v["nodes"][:5]) for v in bad
    ]
    assert not bad, f"{where}: axe-core found serious violations:\n" + "\n".join(report)
