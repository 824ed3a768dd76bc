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
from functools import partial

import numpy as np

from pyd2ke import RandomSetEmbedding, RandomStringEmbedding, RandomWarpingSeries, WordMoversEmbedding
from pyd2ke.reports.data import random_documents, random_series, random_sets, random_strings
from pyd2ke.reports.scaling import loglog_slope
from timing import median_time  # benchmarks/timing.py

# Each method's data maker (n, length): float32 series of 3 channels, sets
# of float32 unit vectors in R^128, documents of words in R^50.
MAKE_DATA = {
    "strings": random_strings,
    "timeseries": partial(random_series, channels=3, dtype=np.float32),
    "sets": partial(random_sets, dim=128, dtype=np.float32),
    "documents": partial(random_documents, dim=50),
}
SMALL_N, LARGE_N = [100, 1000, 10000], [1000, 10000, 100000]
SHORT_L, LONG_L = [16, 64, 256, 1024], [128, 512, 2048, 8192]

# method: (unfitted model for n_jobs, (n, length) of its fit data, N grid,
# L for the N sweep, L grid, N for the L sweep)
METHODS = {
    "strings": (lambda n_jobs: RandomStringEmbedding(256, sampler="rf", max_length=10, random_state=0, n_jobs=n_jobs),
                (50, 64), LARGE_N, 512, LONG_L, 10000),
    "timeseries": (lambda n_jobs: RandomWarpingSeries(256, max_length=10, derivative=False, random_state=0, n_jobs=n_jobs,
                                                      dtype=np.float32),
                   (20, 50), SMALL_N, 512, LONG_L, 1000),
    "sets": (lambda n_jobs: RandomSetEmbedding(128, random_state=0, n_jobs=n_jobs, dtype=np.float32),
             (10, 20), SMALL_N, 64, SHORT_L, 1000),
    "documents": (lambda n_jobs: WordMoversEmbedding(128, random_state=0, n_jobs=n_jobs),
                  (10, 20), SMALL_N, 64, SHORT_L, 100),
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
    print(f"log-log slope in {name}: {loglog_slope(sizes, times):.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", choices=sorted(METHODS), default="strings")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    make_model, fit_size, n_grid, l_for_n, l_grid, n_for_l = METHODS[args.method]
    make_data = MAKE_DATA[args.method]
    model = make_model(args.n_jobs).fit(make_data(*fit_size, seed=5))
    print(f"{args.method}: R={model.n_components_}, n_jobs={args.n_jobs}, median of {args.repeats}")
    sweep("N", n_grid, lambda n: make_data(n, l_for_n), model, args.repeats)
    sweep("L", l_grid, lambda length: make_data(n_for_l, length), model, args.repeats)


if __name__ == "__main__":
    main()
