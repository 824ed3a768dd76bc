"""Wall-clock timing of one call, as the report rows count it."""

import time


def timed(function, *args, **kwargs):
    """``(function(*args, **kwargs), seconds it took)``."""
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start
