"""Timing helper shared by the side-by-side benchmark scripts."""

import statistics
import time


def median_time(fn, repeats, warmup=True):
    """Median wall time of `repeats` calls of fn (after one warm-up call)."""
    if warmup:
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
