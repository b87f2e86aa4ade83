"""Helpers shared by the benchmarks."""

import platform
import statistics
import time
from collections.abc import Callable


def machine() -> str:
    import os

    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def timed(fn: Callable[[], object], *, repeat: int = 3) -> float:
    """Median wall time of `repeat` runs, in seconds."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]
