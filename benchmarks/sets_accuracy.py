"""Accuracy on digit images as SIFT descriptor sets (RandomSetEmbedding)
and on BBC News documents (WordMoversEmbedding), parameters chosen by
cross-validation on the training part only, next to the datasets' baselines.

    python benchmarks/sets_accuracy.py --task sets [--n-components 1024]
    python benchmarks/sets_accuracy.py --task documents [--n-components 2048]
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.cluster import MiniBatchKMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler, normalize
from sklearn.svm import LinearSVC

from pyd2ke import RandomSetEmbedding, WordMoversEmbedding
from pyd2ke.datasets import load_bbc_news, load_digits_sift
from pyd2ke.distances import pairwise_distances
from pyd2ke.reports.baselines import nearest_neighbour_accuracy
from pyd2ke.reports.data import unit_descriptors


def search(pipe, grid, X, y, folds=3):
    gs = GridSearchCV(pipe, grid, cv=StratifiedKFold(folds, shuffle=True, random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        gs.fit(X, y)
    return gs


def run_sets(args):
    data = load_digits_sift()
    rows = []
    pipe = make_pipeline(
        FunctionTransformer(unit_descriptors),
        RandomSetEmbedding(args.n_components, random_state=0, n_jobs=args.n_jobs, dtype=np.float32),
        StandardScaler(),
        LinearSVC(),
    )
    grid = {"randomsetembedding__kernel": ["soft", "direct"], "linearsvc__C": [3e-4, 1e-3, 3e-3]}
    t0 = time.perf_counter()
    gs = search(pipe, grid, data.X_train, data.y_train)
    t_search = time.perf_counter() - t0
    t0 = time.perf_counter()
    model = gs.best_estimator_
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(data.X_train, data.y_train)
    t_fit = time.perf_counter() - t0
    rows.append((f"RandomSetEmbedding R={args.n_components} {gs.best_params_}", gs.best_score_,
                 model.score(data.X_test, data.y_test), t_fit, t_search))

    # 1-NN with the exact modified Hausdorff distance.
    t0 = time.perf_counter()
    Xtr, Xte = unit_descriptors(data.X_train), unit_descriptors(data.X_test)
    D = pairwise_distances(Xte, Xtr, metric="modified_hausdorff", n_jobs=args.n_jobs)
    acc = nearest_neighbour_accuracy(D, data.y_train, data.y_test)
    rows.append(("1-NN modified Hausdorff (exact)", float("nan"), acc, time.perf_counter() - t0, 0.0))

    # SIFT bag of words (k-means codebook of 128 words) + LinearSVC.
    t0 = time.perf_counter()
    km = MiniBatchKMeans(128, random_state=0, n_init=3).fit(np.concatenate(data.X_train))

    def histograms(sets):
        H = np.zeros((len(sets), 128))
        for i, s in enumerate(sets):
            H[i] = np.bincount(km.predict(s), minlength=128)
        return normalize(H)

    gs = search(LinearSVC(), {"C": [0.1, 1, 10]}, histograms(data.X_train), data.y_train)
    rows.append((f"SIFT bag of words k=128 {gs.best_params_}", gs.best_score_,
                 gs.score(histograms(data.X_test), data.y_test), time.perf_counter() - t0, 0.0))
    return rows


def run_documents(args):
    """The embedding is fitted once per configuration on the training part
    (idf, gamma="auto" and the vocabulary sampler use its documents only),
    then C is chosen by 3-fold CV on its training features; the configuration
    with the best CV accuracy is scored on the test part."""
    data = load_bbc_news()
    rows = []
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    best = None
    t_search = time.perf_counter()
    for distribution in ("sphere", "vocabulary"):
        for weighting in ("nbow", "tfidf"):
            t0 = time.perf_counter()
            wme = WordMoversEmbedding(args.n_components, embeddings=data.embeddings, weighting=weighting,
                                      distribution=distribution, random_state=0, n_jobs=args.n_jobs,
                                      dtype=np.float32)
            Z_train = wme.fit_transform(data.bow_train)
            t_fit = time.perf_counter() - t0
            gs = search(make_pipeline(StandardScaler(), LinearSVC()), {"linearsvc__C": [0.01, 0.03, 0.1, 0.3, 1]},
                        Z_train, data.y_train)
            print(f"{distribution:>10} {weighting:>5}: CV {gs.best_score_:.4f} at {gs.best_params_} "
                  f"(embedding {t_fit:.1f} s)", flush=True)
            if best is None or gs.best_score_ > best[0]:
                best = (gs.best_score_, distribution, weighting, wme, gs, t_fit)
    t_search = time.perf_counter() - t_search
    score, distribution, weighting, wme, gs, t_fit = best
    rows.append((f"WordMoversEmbedding R={args.n_components} {distribution} {weighting} {gs.best_params_}", score,
                 gs.score(wme.transform(data.bow_test), data.y_test), t_fit, t_search))

    t0 = time.perf_counter()
    tfidf = TfidfTransformer(sublinear_tf=True).fit(data.bow_train)
    gs = search(LinearSVC(), {"C": [0.1, 1, 10]}, tfidf.transform(data.bow_train), data.y_train)
    rows.append((f"tf-idf + LinearSVC {gs.best_params_}", gs.best_score_,
                 gs.score(tfidf.transform(data.bow_test), data.y_test), time.perf_counter() - t0, 0.0))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=["sets", "documents"], required=True)
    parser.add_argument("--n-components", type=int, default=None, help="R (default: 1024 sets, 2048 documents)")
    parser.add_argument("--n-jobs", type=int, default=None)
    args = parser.parse_args()
    args.n_components = args.n_components or {"sets": 1024, "documents": 2048}[args.task]
    rows = {"sets": run_sets, "documents": run_documents}[args.task](args)
    print(f"\n{'method':<90}  CV acc  test acc  fit s  search s")
    for name, cv, acc, fit, search_time in rows:
        print(f"{name:<90}  {cv:6.4f}  {acc:8.4f}  {fit:5.1f}  {search_time:8.1f}")


if __name__ == "__main__":
    main()
