"""The exact-distance baselines a random-feature embedding is compared with,
on precomputed distance matrices: 1-NN, k-NN with k chosen by
cross-validation, and the distance-substitution kernels exp(-gamma d) and
exp(-gamma d^2) (the D2KE paper's DSK_RBF) with SVC(kernel="precomputed").

Written once for the ``python -m pyd2ke --task`` runners, ``python -m pyd2ke
reproduce`` and ``benchmarks/``. Computing the distance matrices is left to
the caller, who times it (and may reuse one matrix for several baselines).
"""

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from .timing import timed


@dataclass
class BaselineResult:
    """Test accuracy of a baseline, what cross-validation chose, and where its
    time went in seconds (the distance matrices not included)."""

    accuracy: float
    chosen: dict
    search_seconds: float = 0.0
    fit_seconds: float = 0.0
    predict_seconds: float = 0.0


def nearest_neighbour_accuracy(D_test, y_train, y_test):
    """1-NN: each test object takes the label of its nearest training object
    (the first one on ties). D_test has one row per test object."""
    predicted = np.asarray(y_train)[np.argmin(D_test, axis=1)]
    return float(np.mean(predicted == np.asarray(y_test)))


def knn_baseline(D_train, y_train, D_test, y_test, ks, cv):
    """k-NN on exact distances: k among ks by cross-validation (cv) on the
    training matrix D_train (the smallest of the best on ties), then the
    accuracy on D_test (test rows, training columns)."""
    search = GridSearchCV(KNeighborsClassifier(metric="precomputed"), {"n_neighbors": list(ks)}, cv=cv, refit=False)
    _, search_seconds = timed(search.fit, D_train, y_train)
    k = search.best_params_["n_neighbors"]
    knn, fit_seconds = timed(KNeighborsClassifier(k, metric="precomputed").fit, D_train, y_train)
    accuracy, predict_seconds = timed(knn.score, D_test, y_test)
    return BaselineResult(accuracy, {"k": k}, search_seconds, fit_seconds, predict_seconds)


def distance_substitution_svc(D_train, y_train, D_test, y_test, gamma_factors, Cs, cv, power=1, scale=None):
    """exp(-gamma d^power) + SVC(kernel="precomputed"), a distance-substitution
    kernel: power=1 is the Laplacian form exp(-gamma d), power=2 the Gaussian
    form exp(-gamma d^2) (DSK_RBF of the D2KE paper). gamma is a factor of
    gamma_factors over scale (by default the median training d^power) and C
    one of Cs, both by cross-validation on the training matrix. The chosen
    dict holds gamma, its factor and C.

    Both are indefinite for most distances; libsvm still trains on them.
    """
    P_train, P_test = np.asarray(D_train, dtype=float) ** power, np.asarray(D_test, dtype=float) ** power
    if scale is None:
        scale = float(np.median(P_train[np.triu_indices(len(P_train), 1)]))
        scale = scale if scale > 0 else 1.0

    def search():
        best = None
        for factor in gamma_factors:
            grid = GridSearchCV(SVC(kernel="precomputed"), {"C": list(Cs)}, cv=cv, refit=False)
            grid.fit(np.exp(-factor / scale * P_train), y_train)
            if best is None or grid.best_score_ > best[0]:
                best = (grid.best_score_, factor, grid.best_params_["C"])
        return best[1:]

    (factor, C), search_seconds = timed(search)
    gamma = factor / scale
    # The kernel matrices are computed inside the timed calls: they are part
    # of fitting and predicting.
    svc, fit_seconds = timed(lambda: SVC(kernel="precomputed", C=C).fit(np.exp(-gamma * P_train), y_train))
    accuracy, predict_seconds = timed(lambda: svc.score(np.exp(-gamma * P_test), y_test))
    return BaselineResult(accuracy, {"gamma": gamma, "factor": factor, "C": C}, search_seconds, fit_seconds,
                          predict_seconds)
