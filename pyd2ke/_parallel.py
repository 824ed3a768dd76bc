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
import time
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from contextvars import ContextVar

import scipy.sparse as sp

from . import _core
from ._blas import one_blas_thread
from ._validation import check_positive_int

# (max_items, max_symbols) of a chunk.
_LIMITS = ContextVar("pyd2ke_chunk_limits", default=(4096, 1 << 22))
# (owner thread, {n_threads: pool}) inside reused_threads().
_POOLS = ContextVar("pyd2ke_thread_pools", default=None)
# Threads of the estimator call in progress, for work below it that has no
# n_jobs of its own (packing its input); None outside one: every core.
_THREADS = ContextVar("pyd2ke_threads", default=None)


@contextmanager
def chunking(max_items=4096, max_symbols=1 << 22):
    """Chunk size of transforms and pairwise_distances inside the ``with`` block.

    Inputs are processed in chunks of at most ``max_items`` objects and about
    ``max_symbols`` symbols (characters, time steps, points); the memory a
    call needs above its output is O(chunk). The defaults suit every
    estimator; larger chunks save little time and cost memory. Transforms
    that need no memory per chunk (HashedRandomFourier on dense rows,
    RandomMaclaurin without ``inner``) run as one chunk.

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
    """(start, stop) pairs that cover objects in order: the items of a list or
    ragged container, or the rows of a matrix (dense or scipy.sparse)."""
    max_items, max_symbols = _LIMITS.get()
    shape = getattr(objects, "shape", None)
    if shape is not None and len(shape) == 2:  # a row's symbols: its stored values
        n, total = shape[0], (objects.nnz if sp.issparse(objects) else objects.size)
    else:
        n = len(objects)
        try:
            total = objects.total_size() if hasattr(objects, "total_size") else _total_length(objects)
        except TypeError:  # objects without a length (generic D2KE): count them
            total = n
    mean = max(1.0, total / max(n, 1))
    step = int(max(1, min(max_items, max_symbols // mean)))
    return [(start, min(n, start + step)) for start in range(0, n, step)]


def _total_length(objects):
    """The summed lengths of a list's items: a list of strings in one pass of
    the core, anything else by Python."""
    if isinstance(objects, list) and objects and isinstance(objects[0], (str, bytes)):
        kind, total, _, _ = _core.text_list_info(objects)
        if kind:
            return total
    return sum(map(len, objects))


@contextmanager
def using_threads(n_threads):
    """Inside the block, current_threads() is n_threads: an estimator's
    fit or transform sets it from its n_jobs."""
    token = _THREADS.set(n_threads)
    try:
        yield
    finally:
        _THREADS.reset(token)


def current_threads():
    """Threads for work that has no n_jobs of its own (see using_threads)."""
    n_threads = _THREADS.get()
    return max(1, _core.max_threads()) if n_threads is None else n_threads


@contextmanager
def errors_named_from(start, name="X"):
    """Work on a chunk that starts at item `start` of the input called `name`:
    a ValueError or TypeError naming ``X[i]`` of the chunk is raised again
    naming ``X[start + i]``, the index into the whole input. Other exception
    types (a user's metric's own) pass unchanged."""
    try:
        yield
    except (ValueError, TypeError) as error:
        if start == 0 or type(error) not in (ValueError, TypeError):
            raise
        pattern = r"\b" + re.escape(name) + r"\[(\d+)\]"
        message = re.sub(pattern, lambda m: f"{name}[{int(m.group(1)) + start}]", str(error))
        if message == str(error):
            raise
        raise type(error)(message) from None


@contextmanager
def reused_threads():
    """Inside the block, run_blocks calls of this thread share their pools:
    a transform in many chunks starts its threads once, not per chunk. The
    pools are shut down at the end of the block."""
    pools = {}
    token = _POOLS.set((threading.get_ident(), pools))
    try:
        yield
    finally:
        _POOLS.reset(token)
        for pool in pools.values():
            pool.shutdown(wait=True)


# Output values (features) a thread is given at least by the cheap dense
# transforms: RandomMaclaurin and HashedRandomFourier compute 128 features
# of a row in about 0.13 us, and a second thread paid off only from about
# 4096 rows (one thread / two: 0.33 / 0.52 ms for 2048 rows, 0.56 / 0.66
# for 4096, 1.07 / 0.98 for 8192; 0.14 / 0.66 ms for 300 rows before any
# such floor).
THREAD_VALUES = 1 << 19

# Seconds spent in run_blocks outside the core's own parallel loops (which
# the core counts itself): see parallel_seconds.
_PYTHON_REGION_SECONDS = [0.0]


def parallel_seconds():
    """Seconds spent so far inside parallel regions: the core's parallel
    loops and the blocks Python runs on threads. A transform's time outside
    them, at one thread, is its serial part (benchmarks/thread_scaling.py).
    Meaningful at one thread: concurrent regions add up their wall times."""
    from . import _core

    return _core.parallel_region_seconds() + _PYTHON_REGION_SECONDS[0]


def run_blocks(work, starts, n_threads):
    """work(start, stop_event) for every start, on up to n_threads threads.

    On an error or Ctrl-C in the caller, blocks not started yet are cancelled
    and stop_event is set (long blocks may poll it), so the call returns
    promptly and leaves no thread running.
    """
    from . import _core

    t0, core0 = time.perf_counter(), _core.parallel_region_seconds()
    try:
        _run_blocks(work, starts, n_threads)
    finally:
        # Core loops inside the blocks are counted by the core.
        _PYTHON_REGION_SECONDS[0] += (time.perf_counter() - t0) - (_core.parallel_region_seconds() - core0)


def _run_blocks(work, starts, n_threads):
    stop_event = threading.Event()
    if n_threads <= 1 or len(starts) <= 1:
        for start in starts:
            work(start, stop_event)
        return
    # The calling thread takes starts too, from the same queue as n_threads - 1
    # pool threads: one thread fewer to start (thread starts were most of a
    # small transform's time).
    helpers = min(n_threads, len(starts)) - 1
    queue, taking = iter(starts), threading.Lock()

    def drain():
        try:
            while not stop_event.is_set():
                with taking:
                    start = next(queue, None)
                if start is None:
                    return
                work(start, stop_event)
        except BaseException:
            stop_event.set()  # the others take no more
            raise

    owner, pools = _POOLS.get() or (None, None)
    shared = owner == threading.get_ident()  # never in a pool's own worker: no deadlock
    if shared and helpers not in pools:
        pools[helpers] = ThreadPoolExecutor(max_workers=helpers)
    pool = pools[helpers] if shared else ThreadPoolExecutor(max_workers=helpers)
    futures = []
    try:
        futures.extend(pool.submit(drain) for _ in range(helpers))
        drain()
        for future in futures:
            future.result()
    finally:
        stop_event.set()
        if not shared:
            pool.shutdown(wait=True, cancel_futures=True)
        else:  # the pool stays for the next chunk, with none of this call's work left on it
            for future in futures:
                future.cancel()
            wait(futures)


def row_blocks(n, max_rows, n_threads, multiple=8):
    """(start, stop) blocks that cover n rows: as few as keep each within
    max_rows, but a multiple of n_threads of them, their sizes multiples of
    `multiple` (but the last) that differ by at most `multiple`. A chunk's
    last round of blocks then keeps every thread busy: RandomMaclaurin's 19
    blocks of a 4096-row chunk left one of two threads idle for a block's
    time at the end of every chunk."""
    units = -(-n // multiple)
    needed = -(-n // max_rows)
    n_blocks = min(units, -(-needed // n_threads) * n_threads)
    size, longer = divmod(units, max(1, n_blocks))
    bounds, start = [], 0
    for b in range(n_blocks):
        stop = min(n, start + (size + (b < longer)) * multiple)
        bounds.append((start, stop))
        start = stop
    return bounds


def run_row_blocks(work, bounds, n_threads, make_state=None, min_rows=1):
    """work(start, stop, state) for every (start, stop) of `bounds`, on up to
    n_threads threads, with BLAS limited to one thread.

    Each thread takes the next block not yet taken, in the order of bounds
    (a thread that drew long blocks takes fewer: a fixed share per thread
    left the others waiting), and, when make_state is given, calls it once
    for a state of its own (buffers it reuses from block to block); state is
    None otherwise. Errors and Ctrl-C stop the remaining blocks (see
    run_blocks). A thread gets min_rows rows at least: starting one and
    handing it work costs about 0.2-0.3 ms, the time cheap rows take by
    the thousand.
    """
    rows = bounds[-1][1] - bounds[0][0] if bounds else 0
    n_workers = max(1, min(n_threads, len(bounds), rows // max(1, min_rows)))
    blocks, taking = iter(bounds), threading.Lock()

    def worker(w, stop_event):
        state = make_state() if make_state is not None else None
        while not stop_event.is_set():
            with taking:
                block = next(blocks, None)
            if block is None:
                return
            work(*block, state)

    with one_blas_thread():
        run_blocks(worker, range(n_workers), n_workers)


def all_rows_finite(A, n_threads):
    """Whether every value of the C-contiguous float matrix A is finite,
    checked ~1 MB of rows at a time on n_threads Python threads. The
    transforms that check this run their blocks on Python threads next: an
    OpenMP region here left its threads spinning for milliseconds on the
    cores those need (RandomMaclaurin's first 4096 rows took 13-17 ms on
    two threads instead of 8)."""
    rows = max(1, (1 << 20) // max(1, A.strides[0]))
    if n_threads <= 1 or A.shape[0] <= rows:  # one block's work: no threads to start
        return _core.all_finite(A, 1)
    finite = []  # one flag per block (list.append is atomic)
    run_row_blocks(lambda start, stop, state: finite.append(_core.all_finite(A[start:stop], 1)),
                   row_blocks(A.shape[0], rows, n_threads, multiple=1), n_threads)
    return all(finite)
