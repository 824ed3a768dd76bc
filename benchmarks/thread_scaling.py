"""Thread scaling of every transform: time at 1..n threads, speed-up and the
serial fraction it implies (issue 29).

    python benchmarks/thread_scaling.py [--threads 1 2 4 8 16] [--repeats 3] [--scale 1.0] [--only RSE ESP ...]

Each transform is fitted once, then its ``transform`` is timed with
``n_jobs`` set to each thread count in turn (median of --repeats rounds,
each timing every count once, after one untimed run; each output is freed
after the clock stops, since freeing it is the caller's work, later). The
serial fraction is measured, at 1 thread, as the share of the transform's time spent outside parallel
regions (the core's parallel loops and the blocks Python runs on threads,
as counted by ``pyd2ke._parallel.parallel_seconds``): the part no thread
count shortens.
Amdahl's estimate from the speed-up S at n threads, (n / S - 1) / (n - 1),
is printed beside it; it is larger wherever the parallel part itself scales
below n (memory bandwidth, clock speed with more cores busy). --scale
multiplies every input size (1.0 takes 0.3-1 s per transform at 1 thread on
a 2-core x86-64 machine with AVX-512; on a 16-core machine 2.0 keeps every
transform above 0.1 s at 16 threads). Beside every transform: its output's
size, the time to allocate and touch as many bytes (numpy.ones on one
thread: the page faults of a fresh output), the same on the most threads
(each writing its own rows of a fresh array), and the ratio of the
transform's time at the most threads to the faster of the two; near 1,
the output, not the arithmetic, bounds the transform there.
"""

import argparse
import statistics
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import pyd2ke
from pyd2ke import _core
from pyd2ke._blas import one_blas_thread
from pyd2ke._parallel import parallel_seconds
from pyd2ke.reports.data import random_documents, random_series, random_sets, random_strings, random_vectors


def _graphs(n, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        m = int(rng.integers(10, 30))
        A = np.triu((rng.random((m, m)) < 0.2).astype(float), 1)
        out.append((A + A.T, rng.integers(0, 4, m)))
    return out


def _sample_sets(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(loc=rng.uniform(0, 3), size=(int(rng.integers(50, 100)), 2)) for _ in range(n)]


def cases(scale):
    """name -> (unfitted estimator, data); sizes times scale."""
    s = lambda n: max(8, int(n * scale))  # noqa: E731
    return {
        "RSE": (pyd2ke.RandomStringEmbedding(256, sampler="rf", max_length=10, random_state=0),
                random_strings(s(60000), 1024)),
        "RWS": (pyd2ke.RandomWarpingSeries(256, max_length=10, derivative=False, random_state=0, dtype=np.float32),
                random_series(s(30000), 150)),
        "RandomSetEmbedding": (pyd2ke.RandomSetEmbedding(128, random_state=0, dtype=np.float32),
                               random_sets(s(30000), 40, dim=16)),
        "WME": (pyd2ke.WordMoversEmbedding(128, max_words=6, random_state=0), random_documents(s(4000), 30, dim=16)),
        "RGE": (pyd2ke.RandomGraphEmbedding(64, random_state=0), _graphs(s(2500))),
        "density js": (pyd2ke.DensityKernelFeatures("js", n_components=256, random_state=0), _sample_sets(s(4500))),
        "ESP csr": (pyd2ke.ESPVectorizer(), random_strings(s(60000), 300)),
        "ESP sketch": (pyd2ke.ESPVectorizer(output="sketch"), random_strings(s(60000), 300)),
        "CGK": (pyd2ke.CGKEmbedding(random_state=0), random_strings(s(100000), 100)),
        "SFMEDM": (pyd2ke.make_sfmedm(n_components=2048, random_state=0, dtype=np.float32),
                   random_strings(s(16000), 53)),
        "HashedRandomFourier rbf": (pyd2ke.HashedRandomFourier(kernel="rbf", n_components=2048, random_state=0),
                                    random_vectors(s(50000), 128)),
        "RandomMaclaurin": (pyd2ke.RandomMaclaurin(1024, random_state=0), random_vectors(s(100000), 128)),
    }


def set_threads(estimator, n):
    if hasattr(estimator, "steps"):
        for name, step in estimator.steps:
            if "n_jobs" in step.get_params(deep=False):
                estimator.set_params(**{f"{name}__n_jobs": n})
        return estimator
    return estimator.set_params(n_jobs=n)


def transform_seconds(estimator, X, thread_counts, repeats):
    """Median time of transform(X) at each thread count, after one untimed
    run at each. The counts take turns within each of the repeats: a slow
    spell of the machine (runs of 2x on this shared 2-core one) then slows
    every count alike instead of the one being timed. The output is freed
    after the clock stops: freeing it is the caller's work, later (unmapping
    a few hundred MB takes milliseconds)."""
    for n in thread_counts:
        set_threads(estimator, n).transform(X)
    times = {n: [] for n in thread_counts}
    for _ in range(repeats):
        for n in thread_counts:
            set_threads(estimator, n)
            t0 = time.perf_counter()
            Z = estimator.transform(X)
            times[n].append(time.perf_counter() - t0)
            del Z
    return [statistics.median(times[n]) for n in thread_counts]


def serial_fraction(estimator, X, repeats):
    """Median share of a 1-thread transform's time spent outside parallel
    regions (the output freed after the clock stops, as above)."""
    set_threads(estimator, 1)
    fractions = []
    for _ in range(repeats):
        t0, p0 = time.perf_counter(), parallel_seconds()
        Z = estimator.transform(X)
        total, inside = time.perf_counter() - t0, parallel_seconds() - p0
        del Z
        fractions.append(max(0.0, total - inside) / total)
    return statistics.median(fractions)


def output_bytes(Z):
    """Bytes of a transform's output: a dense array, a CSR matrix or ESP sketches."""
    if hasattr(Z, "indptr"):
        return Z.data.nbytes + Z.indices.nbytes + Z.indptr.nbytes
    if hasattr(Z, "offsets"):
        return Z.labels.nbytes + Z.counts.nbytes + Z.offsets.nbytes
    return Z.nbytes


def touch_seconds(n_bytes, repeats, n_threads=1):
    """Allocating and writing n_bytes, the floor of a transform bounded by
    its output (freed after the clock stops, as the transforms' outputs):
    numpy.ones on one thread; on n_threads > 1 the core's parallel loop
    over rows writes a fresh float64 array of as many bytes (each thread
    faults in the pages of its own rows, as the transforms' threads do)."""
    times = []
    rows = max(1, n_bytes // 8 // 1024)
    zeros = np.zeros(1024)
    for _ in range(repeats):
        t0 = time.perf_counter()
        if n_threads == 1:
            touched = np.ones(n_bytes, dtype=np.uint8)
        else:
            touched = np.empty((rows, 1024))
            _core.center_and_scale_into(touched, zeros, 1.0, n_threads)
        times.append(time.perf_counter() - t0)
        del touched
    return statistics.median(times)


def product_roof(thread_counts, repeats, size=256, products=None):
    """Speed-up of float64 matmul throughput at each thread count over one
    thread: the same number of size x size products split evenly over n
    Python threads (numpy releases the GIL inside matmul), one BLAS thread
    each; the median over repeats, the counts interleaved."""
    n_max = max(thread_counts)
    products = products or 48 * n_max
    rng = np.random.default_rng(0)
    operands = [(rng.random((size, size)), rng.random((size, size))) for _ in range(n_max)]

    def work(i, count):
        A, B = operands[i]
        C = np.empty_like(A)
        for _ in range(count):
            np.matmul(A, B, out=C)

    times = {n: [] for n in thread_counts}
    with one_blas_thread(), ThreadPoolExecutor(n_max) as pool:
        for n in thread_counts:  # warm up: threads started, pages touched
            list(pool.map(work, range(n), [1] * n))
        for _ in range(repeats):
            for n in thread_counts:
                counts = [products // n + (i < products % n) for i in range(n)]
                t0 = time.perf_counter()
                list(pool.map(work, range(n), counts))
                times[n].append(time.perf_counter() - t0)
    one = statistics.median(times[1])
    return {n: one / statistics.median(times[n]) for n in thread_counts}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", nargs="+", default=None)
    args = parser.parse_args()
    threads = sorted(set(args.threads) | {1})
    print(f"pyd2ke {pyd2ke.__version__}, SIMD {pyd2ke.build_info()['simd']}; threads {threads}; "
          f"median of {args.repeats}; scale {args.scale}")
    header = ["transform", *[f"{n} thr s" for n in threads], *[f"x{n}" for n in threads[1:]],
              "serial fraction (measured)", f"Amdahl's (from x{threads[-1]})", "output MB",
              "touch output s", f"touch on {threads[-1]} thr s", f"{threads[-1]} thr / touch"]
    print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for name, (estimator, X) in cases(args.scale).items():
        if args.only and name not in args.only:
            continue
        with warnings.catch_warnings():
            # Random data: RSE's short random strings are as far from every one of them (no spread).
            warnings.simplefilter("ignore", UserWarning)
            estimator.fit(X[:200] if name != "density js" else X[:300])
        seconds = transform_seconds(estimator, X, threads, args.repeats)
        n_bytes = output_bytes(estimator.transform(X))
        floor = touch_seconds(n_bytes, args.repeats)
        floor_n = touch_seconds(n_bytes, args.repeats, threads[-1])
        speedups = [seconds[0] / t for t in seconds[1:]]
        n, S = threads[-1], speedups[-1] if speedups else 1.0
        amdahl = (n / S - 1) / (n - 1) if n > 1 else float("nan")
        serial = serial_fraction(estimator, X, args.repeats)
        cells = [name, *[f"{t:.3f}" for t in seconds], *[f"{x:.2f}" for x in speedups], f"{100 * serial:.1f} %",
                 f"{100 * amdahl:.1f} %", f"{n_bytes / 1e6:.0f}", f"{floor:.3f}", f"{floor_n:.3f}",
                 f"{seconds[-1] / min(floor, floor_n):.2f}"]
        print("| " + " | ".join(cells) + " |", flush=True)
    roof = product_roof(threads, max(args.repeats, 5))
    print("\nFloating-point roof (float64 256 x 256 products, one BLAS thread per thread): "
          + ", ".join(f"x{n} {roof[n]:.2f}" for n in threads[1:]))


if __name__ == "__main__":
    main()
