"""Splitting long transforms into chunks.

Each chunk is one call into the compiled core with the GIL released; between
chunks Python runs, so Ctrl-C interrupts a long transform promptly, and the
packed copy an engine may need stays O(chunk).
"""

_MAX_ITEMS = 4096
_TARGET_SYMBOLS = 1 << 22


def chunk_bounds(objects):
    """(start, stop) pairs that cover objects in order."""
    n = len(objects)
    try:
        total = objects.total_size() if hasattr(objects, "total_size") else sum(map(len, objects))
    except TypeError:  # objects without a length (generic D2KE): count them
        total = n
    mean = max(1.0, total / max(n, 1))
    step = int(max(1, min(_MAX_ITEMS, _TARGET_SYMBOLS // mean)))
    return [(start, min(n, start + step)) for start in range(0, n, step)]
