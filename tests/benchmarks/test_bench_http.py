"""``bench_http``'s rounds (``--rounds``): a phase measured in several rounds counts as one."""

from __future__ import annotations

from benchmarks.bench_http import PhaseResult


def test_rounds_of_a_phase_pool_their_seconds_and_requests() -> None:
    first = PhaseResult("ours", 1, 2.0, posts=[0.010, 0.030], accepted=2, rejected=0, gets=[0.005])
    second = PhaseResult("ours", 1, 3.0, posts=[0.020, 0.040, 0.050], accepted=2, rejected=1, gets=[])
    both = first.pooled(second)
    assert (both.duration, both.accepted, both.rejected) == (5.0, 4, 1)
    assert both.rate == 0.8  # 4 accepted in 5 s, not the mean of the rounds' rates (1.0 and 0.67)
    assert both.post_ms(0.5) == 30.0 and both.post_ms(0.99) == 50.0  # over the five POSTs of both rounds
    assert both.gets == [0.005] and (first.duration, first.accepted) == (2.0, 2)  # the rounds are left as they were
