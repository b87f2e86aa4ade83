"""Helpers shared by the benchmarks."""

import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


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


@dataclass(frozen=True)
class Row:
    """One line of the table `make bench` writes into docs/PERFORMANCE.md.

    `value` is the figure as measured (text, with its unit); `ratio` is the figure over its baseline measured in
    the same run (None when the figure has no baseline, as a count or a share); `met` is None when the row has
    no target of its own.
    """

    figure: str
    value: str
    ratio: float | None = None
    target: str = ""
    met: bool | None = None


def settle_after_load() -> None:
    """VACUUM ANALYZE the benchmark's database after its bulk load, before any clock starts.

    A real table is read long after its rows were written, and autovacuum has long since set the visibility map
    and the planner's statistics by then; a table loaded a moment ago has neither. Without the visibility map an
    index-only scan visits the heap for every row it returns (PostgreSQL cannot tell the row is visible to
    all), so a covering index reads as no better than a plain one, and each first read of a fresh row also
    writes its hint bits. ANALYZE alone gave the statistics and not the map; this gives both, as autovacuum
    would have. VACUUM cannot run inside a transaction: call this outside any atomic block.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def sec(seconds: float) -> str:
    return f"{seconds:.2f} s"
