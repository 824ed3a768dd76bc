"""Pickled size of every fitted estimator at two training-set sizes.

A fitted pyd2ke estimator holds its random objects, seeds and a few numbers,
so its pickle (what Dask ships to each worker) must not grow with the number
of fit objects N. The estimator configurations are the test suite's
(tests/cases.py); the sizes include a transform, so no cache may be pickled.

    python benchmarks/pickle_sizes.py [--sizes 200 2000]
"""

import argparse
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cases import CASES  # noqa: E402


def pickled_size(make, data, n):
    X = data(n, seed=n)
    estimator = make(0, 1).fit(X)
    estimator.transform(X[:10])
    return len(pickle.dumps(estimator))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 2000])
    args = parser.parse_args()
    # The fit data's own pickle, for scale: an estimator holding it would be this big.
    header = ["estimator"] + [f"N={n} (bytes)" for n in args.sizes] + ["ratio last/first",
                                                                      f"fit data N={args.sizes[-1]} (bytes)"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, (make, data) in CASES.items():
        sizes = [pickled_size(make, data, n) for n in args.sizes]
        data_size = len(pickle.dumps(data(args.sizes[-1], seed=args.sizes[-1])))
        print(f"| {name} | " + " | ".join(map(str, sizes)) + f" | {sizes[-1] / sizes[0]:.3f} | {data_size} |")


if __name__ == "__main__":
    main()
