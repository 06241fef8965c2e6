"""Timing helpers shared by the benchmark scripts (run from this folder)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


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


@dataclass(frozen=True)
class Timing:
    """Seconds per run over repeats: the minimum (least disturbed) and the median."""

    min: float
    median: float

    def per(self, count: int) -> Timing:
        """The same per item, for a run of ``count`` items."""
        return Timing(self.min / count, self.median / count)

    def ratio(self, other: Timing) -> str:
        """``self / other`` as ``min x / median x``: both, since neither alone is robust."""
        return f"{self.min / other.min:.2f}x min, {self.median / other.median:.2f}x median"


def interleaved(repeats: int, runs: dict[str, Callable[[], object]]) -> dict[str, Timing]:
    """Time each run ``repeats`` times, taking turns, so a noisy neighbour hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: Timing(min(t), statistics.median(t)) for name, t in times.items()}
