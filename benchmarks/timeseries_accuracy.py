"""RWS accuracy on JapaneseVowels and BasicMotions (published UEA splits),
parameters chosen by cross-validation on the training part only, next to
1-NN with the exact DTW distance.

    python benchmarks/timeseries_accuracy.py [--n-components 512]
"""

import argparse
import time
import warnings

from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.svm import LinearSVC

from pyd2ke import RandomWarpingSeries, znormalize
from pyd2ke.datasets import load_basic_motions, load_japanese_vowels
from pyd2ke.distances import pairwise_distances
from pyd2ke.reports.baselines import nearest_neighbour_accuracy

GRID = {
    "functiontransformer__func": [None, znormalize],
    "randomwarpingseries__max_length": [10, 25],
    "randomwarpingseries__kernel": ["soft", "direct"],
    "linearsvc__C": [1e-2, 1e-1, 1.0],
}


def rws_search(data, n_components, folds):
    pipe = make_pipeline(
        FunctionTransformer(),
        RandomWarpingSeries(n_components, random_state=0),
        StandardScaler(),
        LinearSVC(),
    )
    gs = GridSearchCV(pipe, GRID, cv=StratifiedKFold(folds, shuffle=True, random_state=0))
    t0 = time.perf_counter()
    gs.fit(data.X_train, data.y_train)
    return gs, gs.score(data.X_test, data.y_test), time.perf_counter() - t0


def one_nn(data):
    t0 = time.perf_counter()
    D = pairwise_distances(data.X_test, data.X_train, metric="dtw")
    return nearest_neighbour_accuracy(D, data.y_train, data.y_test), time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-components", type=int, default=512)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    print("| dataset | method | parameters (CV on train) | CV accuracy | test accuracy | time s |")
    print("|---|---|---|---|---|---|")
    for name, loader, folds in [("JapaneseVowels", load_japanese_vowels, 5), ("BasicMotions", load_basic_motions, 4)]:
        data = loader()
        gs, acc, seconds = rws_search(data, args.n_components, folds)
        p = gs.best_params_
        params = (f"z-norm={p['functiontransformer__func'] is not None}, "
                  f"D_max={p['randomwarpingseries__max_length']}, kernel={p['randomwarpingseries__kernel']}, "
                  f"C={p['linearsvc__C']:g}")
        print(f"| {name} | RWS (R={args.n_components}) + LinearSVC | {params} | {gs.best_score_:.4f} | "
              f"{acc:.4f} | {seconds:.1f} |", flush=True)
        acc, seconds = one_nn(data)
        print(f"| {name} | 1-NN DTW (exact) | - | - | {acc:.4f} | {seconds:.2f} |", flush=True)


if __name__ == "__main__":
    main()
