"""Transform time against the number of objects N and their length L, for
Random String Embedding (R = 256 random strings of length U{1..10}) and
Random Warping Series (R = 256 random series of length U{1..10}, 3 channels,
float32). Prints medians, the ratio of successive times next to the ratio
of sizes, and the fitted log-log slope (1.0 = linear).

    python benchmarks/scaling.py [--method strings|timeseries] [--repeats 5] [--n-jobs 1]
"""

import argparse

import numpy as np

from pyd2ke import RandomStringEmbedding, RandomWarpingSeries
from timing import median_time  # benchmarks/timing.py

PROTEIN = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)


def random_strings(n, length, seed=0):
    rng = np.random.default_rng(seed)
    blob = PROTEIN[rng.integers(0, len(PROTEIN), size=n * length, dtype=np.uint8)].tobytes().decode("ascii")
    return [blob[i * length : (i + 1) * length] for i in range(n)]


def random_series(n, length, seed=0):
    values = np.random.default_rng(seed).standard_normal((n * length, 3), dtype=np.float32)
    return [values[i * length : (i + 1) * length] for i in range(n)]


METHODS = {
    "strings": (
        lambda n_jobs: RandomStringEmbedding(256, sampler="rf", random_state=0, n_jobs=n_jobs).fit(
            random_strings(50, 64, seed=5)),
        random_strings,
        [1000, 10000, 100000],
        10000,
    ),
    "timeseries": (
        lambda n_jobs: RandomWarpingSeries(256, random_state=0, n_jobs=n_jobs, dtype=np.float32).fit(
            random_series(20, 50, seed=5)),
        random_series,
        [100, 1000, 10000],
        1000,
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
    make_model, make_data, n_grid, n_for_l = METHODS[args.method]
    model = make_model(args.n_jobs)
    print(f"{args.method}: R=256, D~U{{1..10}}, n_jobs={args.n_jobs}, median of {args.repeats}")
    sweep("N", n_grid, lambda n: make_data(n, 512), model, args.repeats)
    sweep("L", [128, 512, 2048, 8192], lambda length: make_data(n_for_l, length), model, args.repeats)


if __name__ == "__main__":
    main()
