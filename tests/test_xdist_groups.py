"""``palace.py test`` runs pytest-xdist with ``--dist loadgroup``: the tests of one ``xdist_group`` (one live server,
one module's random games) go to one worker, which runs their module fixtures once. xdist does it by adding
``@<group>`` to each marked test's node id on the worker; pytest 9.2 stopped reading the attribute xdist sets, and
the groups were silently split over both workers (pyproject.toml pins pytest below 9.2 for it)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from xdist.remote import WorkerInteractor

GROUP = "probe"


@pytest.mark.xdist_group(GROUP)
def test_the_worker_hook_puts_the_group_name_in_the_node_id(request) -> None:
    item = request.node
    before = item.nodeid
    loadgroup = SimpleNamespace(getvalue=lambda name: name == "loadgroup")
    try:
        # xdist's own hook, as each worker runs it after collection under --dist loadgroup (it reads no other state).
        WorkerInteractor.pytest_collection_modifyitems(None, config=loadgroup, items=[item])
        renamed = item.nodeid
    finally:
        item._nodeid = before
    assert renamed == f"{before}@{GROUP}", "xdist's group did not reach the node id: --dist loadgroup splits groups"
