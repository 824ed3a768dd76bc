"""Long calls under load and faults: Ctrl-C, bounded memory, exceptions in parallel regions.

Timing bounds are deliberately loose (CI machines are noisy): what matters
is that an interrupted call returns at all, and leaves no thread behind.
"""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

import numpy as np
import pytest

import pyd2ke
from pyd2ke import D2KE, RandomStringEmbedding, RandomWarpingSeries, _core
from pyd2ke.distances import pairwise_distances

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals and /proc")

# A shell that starts a job in the background (as CI runners may) sets SIGINT
# to "ignore" for it, and Python then installs no handler: Ctrl-C would be
# lost. The tests restore Python's usual handler (and so does the child script).
_RESTORE_SIGINT = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"


@pytest.fixture(autouse=True)
def _python_sigint_handler():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _long_rws_transform():
    """A fitted RWS and input whose transform takes far longer than the tests wait
    (one chunk of 2000 long series: a single call into the compiled core)."""
    rng = np.random.default_rng(0)
    X = [rng.normal(size=2000) for _ in range(2000)]
    rws = RandomWarpingSeries(512, max_length=50, gamma=1.0, random_state=0).fit(X[:2])
    return rws, X


def _os_threads():
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else threading.active_count()


def _interrupt_after(seconds):
    sent = []

    def fire():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, fire)
    timer.start()
    return timer, sent


def test_ctrl_c_interrupts_a_long_transform_in_process():
    rws, X = _long_rws_transform()
    rws.transform(X[:40])  # the OpenMP thread pool exists from here on
    python_threads, os_threads = threading.active_count(), _os_threads()
    timer, sent = _interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        rws.transform(X)
    latency = time.perf_counter() - sent[0]
    timer.join()
    assert latency < 10, latency
    assert threading.active_count() == python_threads
    assert _os_threads() == os_threads
    # The estimator still works after the interruption.
    assert np.isfinite(rws.transform(X[:3])).all()


def test_ctrl_c_interrupts_a_long_transform_in_a_subprocess():
    script = _RESTORE_SIGINT + textwrap.dedent(
        """
        import numpy as np
        from pyd2ke import RandomWarpingSeries
        rng = np.random.default_rng(0)
        X = [rng.normal(size=2000) for _ in range(2000)]
        rws = RandomWarpingSeries(512, max_length=50, gamma=1.0, random_state=0).fit(X[:2])
        print("ready", flush=True)
        rws.transform(X)
        print("finished", flush=True)
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONPATH": ""})
    try:
        assert process.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.perf_counter()
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
        latency = time.perf_counter() - sent
    finally:
        process.kill()
    assert latency < 10, latency
    assert "finished" not in stdout
    assert process.returncode != 0
    assert "KeyboardInterrupt" in stderr, stderr


def test_ctrl_c_interrupts_a_python_metric_on_threads():
    """The slow path (a Python metric on n_jobs threads) stops promptly too."""

    def slow(a, b):
        time.sleep(0.001)  # releases the GIL, as a metric in compiled code would
        return abs(a - b)

    d2ke = D2KE(metric=slow, n_components=8, gamma=1.0, n_jobs=2, random_state=0).fit(list(range(8)))
    python_threads = threading.active_count()
    timer, sent = _interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        d2ke.transform(list(range(20000)))  # 160000 calls: minutes
    latency = time.perf_counter() - sent[0]
    timer.join()
    assert latency < 10, latency
    assert threading.active_count() == python_threads


def test_python_metric_exception_on_threads_is_reraised():
    class MetricError(Exception):
        pass

    def failing(a, b):
        if a == 57:
            raise MetricError("no distance for 57")
        return float(abs(a - b))

    d2ke = D2KE(metric=failing, n_components=4, gamma=1.0, n_jobs=2, random_state=0).fit(list(range(10)))
    with pytest.raises(MetricError, match="no distance for 57"):
        d2ke.transform(list(range(200)))
    with pytest.raises(MetricError):
        pairwise_distances(list(range(100)), metric=failing, n_jobs=2)


def test_exception_inside_an_openmp_region_is_reraised():
    """An error raised by the C++ core inside the parallel loop (here a document
    whose weights are all zero, past the Python checks) comes back as ValueError."""
    rng = np.random.default_rng(0)
    batch = _core.EmdBatch64(rng.normal(size=(6, 3)), np.ones(6), np.array([0, 3, 6], dtype=np.int64))
    n = 500
    values = rng.normal(size=(2 * n, 3))
    weights = np.ones(2 * n)
    weights[2 * 400 : 2 * 400 + 2] = 0.0  # document 400, in some thread's block
    offsets = np.arange(0, 2 * n + 1, 2, dtype=np.int64)
    out = np.empty((n, 2))
    for _ in range(3):
        with pytest.raises(ValueError, match="weights are all zero"):
            batch.distances_into(values, weights, offsets, out, 2)


def _peak_memory_script(n, max_items):
    # VmHWM (peak RSS) of this process, reset to the current RSS just before
    # the transform (ru_maxrss would not do: it survives fork + exec, so it
    # starts at the parent's size).
    return textwrap.dedent(
        f"""
        import numpy as np
        import pyd2ke
        from pyd2ke import RandomStringEmbedding

        def status(key):
            with open("/proc/self/status") as f:
                return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key))

        X = ["ACGT"[i % 4] + "ACGTTGCA"[: 3 + i % 5] + str(i % 97) for i in range({n})]
        rse = RandomStringEmbedding(8, random_state=0, n_jobs=1, dtype=np.float32).fit(X[:1000])
        rse.transform(X[:10])
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = status("VmRSS:")
        with pyd2ke.chunking(max_items={max_items}):
            Z = rse.transform(X)
        print(before, status("VmHWM:"), Z.nbytes)
        """
    )


def _extra_memory(n, max_items):
    """Peak RSS of a transform above (memory before it + its output), in bytes."""
    result = subprocess.run([sys.executable, "-c", _peak_memory_script(n, max_items)], capture_output=True,
                            text=True, cwd=tempfile.gettempdir(), timeout=300,
                            env={**os.environ, "PYTHONPATH": ""})
    assert result.returncode == 0, result.stderr
    before, peak, output = map(int, result.stdout.split())
    return max(0, peak - before - output)


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux /proc")
def test_transform_memory_is_bounded_by_the_chunk():
    n = 200_000
    chunked = _extra_memory(n, 4096)
    whole = _extra_memory(n, n)
    # One chunk holds a view per string (tens of bytes each); 4096-item chunks
    # hold a few hundred kilobytes.
    assert chunked < 4 << 20, chunked
    assert whole > chunked


def test_chunking_parameters():
    X = ["ab", "abc", "b"] * 5
    rse = RandomStringEmbedding(4, random_state=0).fit(X)
    Z = rse.transform(X)
    with pyd2ke.chunking(max_items=1, max_symbols=1):
        assert np.array_equal(rse.transform(X), Z)
    with pytest.raises(ValueError, match="max_items"):
        with pyd2ke.chunking(max_items=0):
            pass


def test_series_sets_and_documents_are_checked_and_packed_by_chunks():
    """Lists of series, sets and documents are packed a chunk at a time (O(chunk)
    memory); the result does not change, and errors name the index in X."""
    from pyd2ke import RandomSetEmbedding, WordMoversEmbedding

    rng = np.random.default_rng(3)
    series = [rng.normal(size=(rng.integers(3, 20), 2)) for _ in range(40)]
    sets = [rng.normal(size=(rng.integers(1, 9), 3)) for _ in range(40)]
    docs = [(s, rng.random(len(s)) + 0.1) for s in sets]
    for estimator, X in [(RandomWarpingSeries(8, random_state=0), series),
                         (RandomSetEmbedding(8, random_state=0), sets),
                         (WordMoversEmbedding(8, random_state=0), docs)]:
        estimator.fit(X)
        whole = estimator.transform(X)
        with pyd2ke.chunking(max_items=7):
            assert np.array_equal(estimator.transform(X), whole)
            bad = list(X)
            bad[30] = np.full((4, 3), np.nan) if not isinstance(X[0], tuple) else (np.full((4, 3), np.nan), np.ones(4))
            if estimator.__class__ is RandomWarpingSeries:
                bad[30] = np.full((4, 2), np.nan)
            with pytest.raises(ValueError, match=r"X\[30\] contains NaN"):
                estimator.transform(bad)


def test_density_features_are_checked_and_packed_by_chunks():
    from pyd2ke import DensityKernelFeatures

    rng = np.random.default_rng(4)
    sets = [rng.normal(size=(rng.integers(5, 30), 2)) for _ in range(30)]
    est = DensityKernelFeatures("js", n_components=16, random_state=0).fit(sets)
    whole = est.transform(sets)
    with pyd2ke.chunking(max_items=4):
        assert np.array_equal(est.transform(sets), whole)
        bad = list(sets)
        bad[21] = np.zeros((3, 3))
        with pytest.raises(ValueError, match=r"X\[21\]"):
            est.transform(bad)
