"""RSE accuracy on StatLog DNA (published 2000/1186 split) against R, D_max
and the sampler. For every configuration the SVM's C is chosen by 3-fold
cross-validation on the training part only; the test part is used once.

    python benchmarks/dna_accuracy.py [--n-components 8192] [--sweep-r]
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

C_GRID = [1e-4, 1e-3, 1e-2]


def evaluate(data, n_components, sampler, max_length, kernel="soft"):
    pipe = make_pipeline(
        RandomStringEmbedding(n_components, sampler=sampler, max_length=max_length, kernel=kernel, random_state=0),
        StandardScaler(),
        LinearSVC(),
    )
    search = GridSearchCV(pipe, {"linearsvc__C": C_GRID}, cv=StratifiedKFold(3, shuffle=True, random_state=0))
    t0 = time.perf_counter()
    search.fit(data.X_train, data.y_train)
    accuracy = search.score(data.X_test, data.y_test)
    return search.best_params_["linearsvc__C"], search.best_score_, accuracy, time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-components", type=int, default=8192)
    parser.add_argument("--samplers", default="rf,rfd,ss,bss")
    parser.add_argument("--max-lengths", default="10,30,60")
    parser.add_argument("--sweep-r", action="store_true", help="also sweep R for ss, D_max=60")
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    data = load_statlog_dna()
    print("| sampler | D_max | R | kernel | C (CV) | CV accuracy | test accuracy | search time s |")
    print("|---|---|---|---|---|---|---|---|")
    configs = [(s, int(d), args.n_components) for s in args.samplers.split(",") for d in args.max_lengths.split(",")]
    if args.sweep_r:
        configs += [("ss", 60, r) for r in (256, 1024, 4096) if r != args.n_components]
    for sampler, max_length, r in configs:
        C, cv, acc, seconds = evaluate(data, r, sampler, max_length)
        print(f"| {sampler} | {max_length} | {r} | soft | {C:g} | {cv:.4f} | {acc:.4f} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
