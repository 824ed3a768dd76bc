"""Random String Embedding: transform time against the number of strings N
and their length L (R = 256 random strings of length U{1..10}, 1 thread).
Prints medians, the ratio of successive times next to the ratio of sizes,
and the fitted log-log slope (1.0 = linear).

    python benchmarks/scaling_strings.py [--repeats 5] [--n-jobs 1]
"""

import argparse
import statistics
import time

import numpy as np

from pyd2ke import RandomStringEmbedding

PROTEIN = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)


def random_strings(n, length, seed=0):
    rng = np.random.default_rng(seed)
    blob = PROTEIN[rng.integers(0, len(PROTEIN), size=n * length)].tobytes().decode("ascii")
    return [blob[i * length : (i + 1) * length] for i in range(n)]


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def sweep(name, sizes, make, rse, repeats):
    times = []
    for size in sizes:
        X = make(size)
        times.append(median_time(lambda: rse.transform(X), repeats))
        del X
    print(f"\n{name:>6}  time (s)  ratio  size ratio")
    for i, (size, t) in enumerate(zip(sizes, times)):
        ratio = "" if i == 0 else f"{t / times[i - 1]:5.2f}  {size / sizes[i - 1]:5.1f}"
        print(f"{size:>6}  {t:8.4f}  {ratio}")
    slope = np.polyfit(np.log(sizes), np.log(times), 1)[0]
    print(f"log-log slope in {name}: {slope:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    rse = RandomStringEmbedding(256, sampler="rf", max_length=10, random_state=0, n_jobs=args.n_jobs)
    rse.fit(random_strings(50, 64, seed=5))
    print(f"R=256, D~U{{1..10}}, n_jobs={args.n_jobs}, median of {args.repeats}")
    sweep("N", [1000, 10000, 100000], lambda n: random_strings(n, 512), rse, args.repeats)
    sweep("L", [128, 512, 2048, 8192], lambda length: random_strings(10000, length), rse, args.repeats)


if __name__ == "__main__":
    main()
