"""Side by side, in one process: pyd2ke's RWS features against
dtaidistance.dtw_ndim.distance_matrix_fast computing the same N x R DTW
distances (N = 2000 series of 3 channels and length 100..200, R = 256 random
series of length 1..10), at 1 and 2 threads. Prints medians and ratios.

dtaidistance defines multivariate DTW with squared Euclidean costs and a
square root at the end; pyd2ke sums Euclidean costs (ALGORITHMS.md §3). Both
fill the same L x D grid per pair, so the work compared is the same.

    python benchmarks/compare_dtaidistance.py [--repeats 5]
"""

import argparse

import numpy as np
from dtaidistance import __version__ as dtai_version
from dtaidistance import dtw_ndim

import pyd2ke
from pyd2ke import RandomWarpingSeries
from timing import median_time  # benchmarks/timing.py


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--n-components", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = [rng.standard_normal((rng.integers(100, 201), 3)) for _ in range(args.n)]
    print(f"pyd2ke {pyd2ke.__version__} {pyd2ke.build_info()}, dtaidistance {dtai_version}")
    print(f"N={args.n} series (3 channels, length 100..200), R={args.n_components} random series of length 1..10, "
          f"median of {args.repeats}")
    for n_jobs in (1, 2):
        for dtype in (np.float32, np.float64):
            rws = RandomWarpingSeries(args.n_components, max_length=10, derivative=False, random_state=0, n_jobs=n_jobs, dtype=dtype)
            rws.fit(X[:100])
            W = rws.random_objects_
            cells = sum(len(x) for x in X) * sum(len(w) for w in W)
            t_ours = median_time(lambda: rws.transform(X), args.repeats)
            if dtype == np.float32:
                both = X + W
                block = ((0, len(X)), (len(X), len(both)))
                t_peer = median_time(
                    lambda: dtw_ndim.distance_matrix_fast(both, block=block, parallel=n_jobs > 1, compact=True),
                    max(1, args.repeats // 2),
                )
            print(f"threads={n_jobs} RWS dtype={np.dtype(dtype).name}: {t_ours:.4f} s ({cells / t_ours:.3g} cells/s); "
                  f"dtaidistance {t_peer:.4f} s ({cells / t_peer:.3g} cells/s); speed-up {t_peer / t_ours:.1f}x")


if __name__ == "__main__":
    main()
