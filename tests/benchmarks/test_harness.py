"""The benchmarks' shared helpers (``benchmarks.harness``)."""

from __future__ import annotations

import math

from benchmarks.harness import percentile


def test_percentile_is_the_nearest_rank() -> None:
    """The smallest value with at least ``q`` of the values at or below it (rank ``ceil(q * n)``)."""
    values = [float(value) for value in range(1, 151)]  # 1..150
    assert percentile(values, 0.5) == 75.0
    assert percentile(values, 0.99) == 149.0  # ceil(148.5)
    assert percentile([float(value) for value in range(1, 161)], 0.99) == 159.0  # ceil(158.4): rounding gives 158
    assert percentile(values, 0.999) == 150.0
    assert percentile(values, 0.0) == 1.0
    assert percentile(list(reversed(values)), 0.25) == 38.0  # ceil(37.5)
    assert percentile([7.0], 0.99) == 7.0
    assert math.isnan(percentile([], 0.5))
