"""How work is split: chunks of a long input, and blocks on threads.

Each chunk is one call into the compiled core with the GIL released; between
chunks Python runs, so Ctrl-C interrupts a long transform promptly, and the
packed copy an engine may need stays O(chunk). Dense paths (BLAS products
and numpy maps, which release the GIL) run blocks of rows on n_jobs Python
threads, each with single-threaded BLAS: BLAS and OpenMP threads never fight
over the cores, and a row's result does not depend on the thread count.
"""

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar

from ._blas import one_blas_thread
from ._validation import check_positive_int

# (max_items, max_symbols) of a chunk.
_LIMITS = ContextVar("pyd2ke_chunk_limits", default=(4096, 1 << 22))


@contextmanager
def chunking(max_items=4096, max_symbols=1 << 22):
    """Chunk size of transforms and pairwise_distances inside the ``with`` block.

    Inputs are processed in chunks of at most ``max_items`` objects and about
    ``max_symbols`` symbols (characters, time steps, points); the memory a
    call needs above its output is O(chunk). The defaults suit every
    estimator; larger chunks save little time and cost memory.

    >>> import pyd2ke
    >>> with pyd2ke.chunking(max_items=256):
    ...     pass  # transforms here work on at most 256 objects at a time
    """
    limits = (check_positive_int(max_items, "max_items", maximum=None),
              check_positive_int(max_symbols, "max_symbols", maximum=None))
    token = _LIMITS.set(limits)
    try:
        yield
    finally:
        _LIMITS.reset(token)


def chunk_bounds(objects):
    """(start, stop) pairs that cover objects in order."""
    max_items, max_symbols = _LIMITS.get()
    n = len(objects)
    try:
        total = objects.total_size() if hasattr(objects, "total_size") else sum(map(len, objects))
    except TypeError:  # objects without a length (generic D2KE): count them
        total = n
    mean = max(1.0, total / max(n, 1))
    step = int(max(1, min(max_items, max_symbols // mean)))
    return [(start, min(n, start + step)) for start in range(0, n, step)]


def check_chunk(check, items, start, stop, name="X"):
    """check(items[start:stop]), for inputs checked and packed a chunk at a
    time; errors name the index into the whole input, not into the chunk."""
    try:
        return check(items[start:stop])
    except (ValueError, TypeError) as error:
        if start == 0:
            raise
        pattern = r"\b" + re.escape(name) + r"\[(\d+)\]"
        message = re.sub(pattern, lambda m: f"{name}[{int(m.group(1)) + start}]", str(error))
        raise type(error)(message) from None


def run_blocks(work, starts, n_threads):
    """work(start, stop_event) for every start, on up to n_threads threads.

    On an error or Ctrl-C in the caller, blocks not started yet are cancelled
    and stop_event is set (long blocks may poll it), so the call returns
    promptly and leaves no thread running.
    """
    stop_event = threading.Event()
    if n_threads <= 1 or len(starts) <= 1:
        for start in starts:
            work(start, stop_event)
        return
    pool = ThreadPoolExecutor(max_workers=n_threads)
    try:
        for future in [pool.submit(work, start, stop_event) for start in starts]:
            future.result()
    finally:
        stop_event.set()
        pool.shutdown(wait=True, cancel_futures=True)


def run_row_blocks(work, bounds, n_threads, make_state=None):
    """work(start, stop, state) for every (start, stop) of `bounds`, on up to
    n_threads threads, with BLAS limited to one thread.

    Each thread takes the blocks bounds[w::n_workers] in order and, when
    make_state is given, calls it once for a state of its own (buffers it
    reuses from block to block); state is None otherwise. Errors and Ctrl-C
    stop the remaining blocks (see run_blocks).
    """
    n_workers = max(1, min(n_threads, len(bounds)))

    def worker(w, stop_event):
        state = make_state() if make_state is not None else None
        for start, stop in bounds[w::n_workers]:
            if stop_event.is_set():
                return
            work(start, stop, state)

    with one_blas_thread():
        run_blocks(worker, range(n_workers), n_workers)
