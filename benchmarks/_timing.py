"""Timing helpers shared by the benchmark scripts (run from this folder)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(repeats: int, run: Callable[[], object]) -> float:
    """Median seconds of ``repeats`` runs: robust to a noisy neighbour."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def seconds(run: Callable[[], object]) -> float:
    """Seconds of one run."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start
