"""``bench_http``'s rounds (``--rounds``) and CPU readings."""

from __future__ import annotations

import os
import time

from benchmarks.bench_http import CPU_GROUPS, PhaseResult, cpu_probe


def test_rounds_of_a_phase_pool_their_seconds_requests_and_cpu() -> None:
    first = PhaseResult("ours", 1, 2.0, posts=[0.010, 0.030], accepted=2, rejected=0, gets=[0.005], cpu={"redis": 0.5})
    second = PhaseResult("ours", 1, 3.0, posts=[0.020, 0.040, 0.050], accepted=2, rejected=1, gets=[], cpu={})
    both = first.pooled(second)
    assert (both.duration, both.accepted, both.rejected) == (5.0, 4, 1)
    assert both.rate == 0.8  # 4 accepted in 5 s, not the mean of the rounds' rates (1.0 and 0.67)
    assert both.post_ms(0.5) == 30.0 and both.post_ms(0.99) == 50.0  # over the five POSTs of both rounds
    assert both.gets == [0.005] and (first.duration, first.accepted) == (2.0, 2)  # the rounds are left as they were
    assert both.cpu_ms("redis") == 125.0 and both.cpu_ms("postgres") == 0.0  # 0.5 s over 4 actions


def test_the_cpu_probe_counts_a_server_tree_and_this_process() -> None:
    read = cpu_probe([os.getpid()])  # this process as the "server": its CPU counts there and as the clients'
    before = read()
    assert set(before) == set(CPU_GROUPS) and all(seconds >= 0 for seconds in before.values())
    spin_until = time.process_time() + 0.2
    while time.process_time() < spin_until:
        pass
    after = read()
    for group in ("servers", "clients"):
        assert 0.1 <= after[group] - before[group] <= 5, group
