"""Transform time against the number of objects N and their length L, for
Random String Embedding (R = 256 random strings of length U{1..10}),
Random Warping Series (R = 256 random series of length U{1..10}, 3 channels,
float32), RandomSetEmbedding (R = 128 random sets of U{3..15} unit vectors in
R^128, float32; L = set size) and WordMoversEmbedding (R = 128 random
documents of U{1..6} words in R^50; L = words per document). Prints medians,
the ratio of successive times next to the ratio of sizes, and the fitted
log-log slope (1.0 = linear).

    python benchmarks/scaling.py [--method strings|timeseries|sets|documents] [--repeats 5] [--n-jobs 1]

`python -m pyd2ke scaling` is the packaged report (every method, default
parameters, slopes and plots); this script keeps the side-by-side ratios.
"""

import argparse

import numpy as np

from pyd2ke import RandomSetEmbedding, RandomStringEmbedding, RandomWarpingSeries, WordMoversEmbedding
from timing import median_time  # benchmarks/timing.py

PROTEIN = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)


def random_strings(n, length, seed=0):
    rng = np.random.default_rng(seed)
    blob = PROTEIN[rng.integers(0, len(PROTEIN), size=n * length, dtype=np.uint8)].tobytes().decode("ascii")
    return [blob[i * length : (i + 1) * length] for i in range(n)]


def random_series(n, length, seed=0):
    values = np.random.default_rng(seed).standard_normal((n * length, 3), dtype=np.float32)
    return [values[i * length : (i + 1) * length] for i in range(n)]


def random_sets(n, size, seed=0):
    values = np.random.default_rng(seed).standard_normal((n * size, 128), dtype=np.float32)
    values /= np.linalg.norm(values, axis=1, keepdims=True)
    return [values[i * size : (i + 1) * size] for i in range(n)]


def random_documents(n, words, seed=0):
    rng = np.random.default_rng(seed)
    values, weights = rng.standard_normal((n * words, 50)), rng.random(n * words) + 0.1
    return [(values[i * words : (i + 1) * words], weights[i * words : (i + 1) * words]) for i in range(n)]


# method: (fitted model for n_jobs, data maker (n, length), N grid, L for the
# N sweep, L grid, N for the L sweep)
METHODS = {
    "strings": (
        lambda n_jobs: RandomStringEmbedding(256, sampler="rf", random_state=0, n_jobs=n_jobs).fit(
            random_strings(50, 64, seed=5)),
        random_strings,
        [1000, 10000, 100000],
        512,
        [128, 512, 2048, 8192],
        10000,
    ),
    "timeseries": (
        lambda n_jobs: RandomWarpingSeries(256, random_state=0, n_jobs=n_jobs, dtype=np.float32).fit(
            random_series(20, 50, seed=5)),
        random_series,
        [100, 1000, 10000],
        512,
        [128, 512, 2048, 8192],
        1000,
    ),
    "sets": (
        lambda n_jobs: RandomSetEmbedding(128, random_state=0, n_jobs=n_jobs, dtype=np.float32).fit(
            random_sets(10, 20, seed=5)),
        random_sets,
        [100, 1000, 10000],
        64,
        [16, 64, 256, 1024],
        1000,
    ),
    "documents": (
        lambda n_jobs: WordMoversEmbedding(128, random_state=0, n_jobs=n_jobs).fit(random_documents(10, 20, seed=5)),
        random_documents,
        [100, 1000, 10000],
        64,
        [16, 64, 256, 1024],
        100,
    ),
}


def sweep(name, sizes, make, model, repeats):
    times = []
    for size in sizes:
        X = make(size)
        times.append(median_time(lambda: model.transform(X), repeats, warmup=False))
        del X
    print(f"\n{name:>6}  time (s)  ratio  size ratio")
    for i, (size, t) in enumerate(zip(sizes, times)):
        ratio = "" if i == 0 else f"{t / times[i - 1]:5.2f}  {size / sizes[i - 1]:5.1f}"
        print(f"{size:>6}  {t:8.4f}  {ratio}")
    slope = np.polyfit(np.log(sizes), np.log(times), 1)[0]
    print(f"log-log slope in {name}: {slope:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", choices=sorted(METHODS), default="strings")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    make_model, make_data, n_grid, l_for_n, l_grid, n_for_l = METHODS[args.method]
    model = make_model(args.n_jobs)
    print(f"{args.method}: R={model.n_components_}, n_jobs={args.n_jobs}, median of {args.repeats}")
    sweep("N", n_grid, lambda n: make_data(n, l_for_n), model, args.repeats)
    sweep("L", l_grid, lambda length: make_data(n_for_l, length), model, args.repeats)


if __name__ == "__main__":
    main()
