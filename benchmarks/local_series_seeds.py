"""RandomWarpingSeries with and without its local features on the nine
z-normalised UCR/UEA datasets aeon ships, over several random draws:
R=1024, StandardScaler + RidgeClassifierCV (MiniRocket's classifier), test
accuracy per seed and the mean (docs/results_timeseries.md, issue 28).
Needs the timeseries-compare extra (aeon).

    python benchmarks/local_series_seeds.py [--seeds 0 1 2] [--n-jobs 2]
"""

import argparse

import numpy as np
from sklearn.linear_model import RidgeClassifierCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pyd2ke import RandomWarpingSeries
from pyd2ke.reports.timeseries_panel import load_aeon

DATASETS = ["ACSF1", "OSULeaf", "ArrowHead", "GunPoint", "ItalyPowerDemand", "JapaneseVowels", "BasicMotions",
            "PickupGestureWiimoteZ", "UnitTest"]
SETTINGS = {"auto": "auto", "0": 0.0}


def accuracy(local, seed, n_jobs, X_train, y_train, X_test, y_test):
    model = make_pipeline(RandomWarpingSeries(1024, local=local, random_state=seed, n_jobs=n_jobs),
                          StandardScaler(), RidgeClassifierCV(alphas=np.logspace(-3, 3, 10)))
    return model.fit(X_train, y_train).score(X_test, y_test)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--n-jobs", type=int, default=None)
    args = parser.parse_args()
    means = {name: [] for name in SETTINGS}
    print("| dataset | " + " | ".join(f"local={name}" for name in SETTINGS) + " |")
    print("|---" * (len(SETTINGS) + 1) + "|")
    for dataset in DATASETS:
        X_train, y_train, X_test, y_test, _, _ = load_aeon(dataset)
        cells = []
        for name, local in SETTINGS.items():
            scores = [accuracy(local, seed, args.n_jobs, X_train, y_train, X_test, y_test) for seed in args.seeds]
            means[name].append(np.mean(scores))
            cells.append(f"{np.mean(scores):.3f} ({', '.join(f'{s:.3f}' for s in scores)})")
        print(f"| {dataset} | " + " | ".join(cells) + " |", flush=True)
    print(f"| mean of {len(DATASETS)} | " + " | ".join(f"{np.mean(v):.3f}" for v in means.values()) + " |")


if __name__ == "__main__":
    main()
