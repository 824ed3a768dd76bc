"""RSE accuracy on StatLog DNA (published 2000/1186 split) against the
sampler, D_max and R. In every row the SVM's C (and, with --search, D_max) is
chosen by 3-fold cross-validation on the training part only; the test part
is scored once per row.

    python benchmarks/dna_accuracy.py --samplers ss --max-lengths 60,90,120 --search
    python benchmarks/dna_accuracy.py                       # one row per sampler and D_max
    python benchmarks/dna_accuracy.py --samplers ss --max-lengths 120 --n-components 256,1024,4096,8192
"""

import argparse
import time
import warnings

from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from pyd2ke import RandomStringEmbedding
from pyd2ke.datasets import load_statlog_dna

C_GRID = [3e-4, 1e-3, 3e-3]
MAX_LENGTH_GRID = [10, 30, 60, 90, 120]


def search(data, n_components, sampler, max_lengths, kernel="soft"):
    pipe = make_pipeline(
        RandomStringEmbedding(n_components, sampler=sampler, kernel=kernel, random_state=0),
        StandardScaler(),
        LinearSVC(),
    )
    grid = {"randomstringembedding__max_length": max_lengths, "linearsvc__C": C_GRID}
    gs = GridSearchCV(pipe, grid, cv=StratifiedKFold(3, shuffle=True, random_state=0))
    t0 = time.perf_counter()
    gs.fit(data.X_train, data.y_train)
    accuracy = gs.score(data.X_test, data.y_test)
    best = gs.best_params_
    return (best["randomstringembedding__max_length"], best["linearsvc__C"], gs.best_score_, accuracy,
            time.perf_counter() - t0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-components", default="4096", help="comma-separated values of R")
    parser.add_argument("--samplers", default="rf,rfd,ss,bss")
    parser.add_argument("--max-lengths", default=",".join(map(str, MAX_LENGTH_GRID)))
    parser.add_argument("--search", action="store_true", help="choose D_max among --max-lengths by CV")
    parser.add_argument("--kernel", default="soft")
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    data = load_statlog_dna()
    max_lengths = [int(v) for v in args.max_lengths.split(",")]
    print("| sampler | R | kernel | D_max (CV) | C (CV) | CV accuracy | test accuracy | search time s |")
    print("|---|---|---|---|---|---|---|---|")
    grids = [max_lengths] if args.search else [[m] for m in max_lengths]
    rows = [(s, int(r), g) for r in args.n_components.split(",") for s in args.samplers.split(",") for g in grids]
    for sampler, r, grid in rows:
        d_max, C, cv, acc, seconds = search(data, r, sampler, grid, args.kernel)
        print(f"| {sampler} | {r} | {args.kernel} | {d_max} | {C:g} | {cv:.4f} | {acc:.4f} | {seconds:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
