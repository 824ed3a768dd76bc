"""Side by side, in one process: pyd2ke's RSE features against
rapidfuzz.process.cdist with Levenshtein.distance, on the issue's workload
(N = 10000 random protein strings of length L = 512, R = 256 random strings
of length U{1..10}), at 1 and 2 threads. Prints medians of repeated runs and
the speed-up ratio. Then the distance matrix of one collection,
pyd2ke.distances.pairwise_distances(X) against cdist(X, X) (both compute
each pair once), on DNA strings of 50-70 and of 300-600 letters.

    python benchmarks/compare_rapidfuzz.py [--n 10000] [--length 512] [--repeats 7]
"""

import argparse

import numpy as np
from rapidfuzz import __version__ as rapidfuzz_version
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

import pyd2ke
from pyd2ke import RandomStringEmbedding
from pyd2ke.distances import pairwise_distances
from pyd2ke.reports.data import random_strings
from timing import median_time  # benchmarks/timing.py


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--length", type=int, default=512)
    parser.add_argument("--n-components", type=int, default=256)
    parser.add_argument("--max-length", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    X = random_strings(args.n, args.length)  # protein alphabet, seed 0
    print(f"pyd2ke {pyd2ke.__version__} {pyd2ke.build_info()}, rapidfuzz {rapidfuzz_version}")
    print(f"N={args.n} L={args.length} R={args.n_components} D~U{{1..{args.max_length}}}, "
          f"median of {args.repeats} runs")
    for n_jobs in (1, 2):
        rse = RandomStringEmbedding(args.n_components, sampler="rf", max_length=args.max_length,
                                    standardize=False, random_state=0, n_jobs=n_jobs).fit(X[:200])
        W = rse.random_objects_
        Z = rse.transform(X[:50])
        D = process.cdist(W, X[:50], scorer=Levenshtein.distance, workers=n_jobs).T
        assert np.allclose(Z, np.exp(-rse.gamma_ * D) / np.sqrt(len(W)))  # same computation (unstandardised)
        t_ours = median_time(lambda: rse.transform(X), args.repeats)
        t_peer = median_time(lambda: process.cdist(W, X, scorer=Levenshtein.distance, workers=n_jobs),
                             args.repeats)
        cells = args.n * args.length * sum(len(w) for w in W)
        print(f"threads={n_jobs}: pyd2ke RSE transform {t_ours:.4f} s ({cells / t_ours:.3g} cells/s), "
              f"rapidfuzz cdist {t_peer:.4f} s ({cells / t_peer:.3g} cells/s), "
              f"speed-up {t_peer / t_ours:.2f}x")

    compare_pairwise(args.repeats)


def compare_pairwise(repeats):
    """pairwise_distances(X) against cdist(X, X) on random DNA strings."""
    rng = np.random.default_rng(0)
    for n, low, high in ((3000, 50, 70), (300, 300, 600)):
        X = ["".join(rng.choice(list("ACGT"), int(m))) for m in rng.integers(low, high + 1, n)]
        assert np.array_equal(pairwise_distances(X), process.cdist(X, X, scorer=Levenshtein.distance))
        for n_jobs in (1, 2):
            t_ours = median_time(lambda: pairwise_distances(X, n_jobs=n_jobs), repeats)
            t_peer = median_time(lambda: process.cdist(X, X, scorer=Levenshtein.distance, workers=n_jobs), repeats)
            print(f"pairwise {n} strings of {low}-{high}, threads={n_jobs}: pyd2ke {t_ours:.4f} s, rapidfuzz "
                  f"{t_peer:.4f} s, speed-up {t_peer / t_ours:.2f}x")


if __name__ == "__main__":
    main()
