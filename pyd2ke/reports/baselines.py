"""The exact-distance baselines a random-feature embedding is compared with,
on precomputed distance matrices: 1-NN, k-NN with k chosen by
cross-validation, and the distance-substitution kernels exp(-gamma d) and
exp(-gamma d^2) (the D2KE paper's DSK_RBF) with SVC(kernel="precomputed").

Written once for the ``python -m pyd2ke --task`` runners, ``python -m pyd2ke
reproduce`` and ``benchmarks/``. Computing the distance matrices is left to
the caller, who times it (and may reuse one matrix for several baselines).
"""

from dataclasses import dataclass, field

import numpy as np
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from .grid import best_value, grow, mean_cv_score
from .timing import timed


@dataclass
class BaselineResult:
    """Test accuracy of a baseline, what cross-validation chose, where its
    time went in seconds (the distance matrices not included), and the grid
    each parameter was searched on (grown past its ends when given an axis)."""

    accuracy: float
    chosen: dict
    search_seconds: float = 0.0
    fit_seconds: float = 0.0
    predict_seconds: float = 0.0
    grids: dict = field(default_factory=dict)


def nearest_neighbour_accuracy(D_test, y_train, y_test):
    """1-NN: each test object takes the label of its nearest training object
    (the first one on ties). D_test has one row per test object."""
    predicted = np.asarray(y_train)[np.argmin(D_test, axis=1)]
    return float(np.mean(predicted == np.asarray(y_test)))


def knn_baseline(D_train, y_train, D_test, y_test, ks, cv, k_axis=None):
    """k-NN on exact distances: k among ks by cross-validation (cv) on the
    training matrix D_train (ties go to the middle of the grid; the grid
    grows past its ends along k_axis), then the accuracy on D_test (test
    rows, training columns)."""
    scores, search_seconds = timed(
        grow, lambda k: mean_cv_score(KNeighborsClassifier(k, metric="precomputed"), D_train, y_train, cv), ks, k_axis)
    k = best_value(scores)
    knn, fit_seconds = timed(KNeighborsClassifier(k, metric="precomputed").fit, D_train, y_train)
    accuracy, predict_seconds = timed(knn.score, D_test, y_test)
    return BaselineResult(accuracy, {"k": k}, search_seconds, fit_seconds, predict_seconds, {"k": sorted(scores)})


def distance_substitution_svc(D_train, y_train, D_test, y_test, gamma_factors, Cs, cv, power=1, scale=None,
                              factor_axis=None, C_axis=None):
    """exp(-gamma d^power) + SVC(kernel="precomputed"), a distance-substitution
    kernel: power=1 is the Laplacian form exp(-gamma d), power=2 the Gaussian
    form exp(-gamma d^2) (DSK_RBF of the D2KE paper). gamma is a factor of
    gamma_factors over scale (by default the median training d^power) and C
    one of Cs, both by cross-validation on the training matrix (each grid
    grows past its ends along factor_axis and C_axis when given). The chosen
    dict holds gamma, its factor and C.

    Both are indefinite for most distances; libsvm still trains on them.
    """
    P_train, P_test = np.asarray(D_train, dtype=float) ** power, np.asarray(D_test, dtype=float) ** power
    if scale is None:
        scale = float(np.median(P_train[np.triu_indices(len(P_train), 1)]))
        scale = scale if scale > 0 else 1.0

    def evaluate(factor):
        K = np.exp(-factor / scale * P_train)
        scores = grow(lambda C: mean_cv_score(SVC(kernel="precomputed", C=C), K, y_train, cv), Cs, C_axis)
        C = best_value(scores)
        return {"score": scores[C], "C": C, "C grid": sorted(scores)}

    factors, search_seconds = timed(grow, evaluate, gamma_factors, factor_axis)
    factor = best_value(factors)
    C = factors[factor]["C"]
    gamma = factor / scale
    # The kernel matrices are computed inside the timed calls: they are part
    # of fitting and predicting.
    svc, fit_seconds = timed(lambda: SVC(kernel="precomputed", C=C).fit(np.exp(-gamma * P_train), y_train))
    accuracy, predict_seconds = timed(lambda: svc.score(np.exp(-gamma * P_test), y_test))
    return BaselineResult(accuracy, {"gamma": gamma, "factor": factor, "C": C}, search_seconds, fit_seconds,
                          predict_seconds, {"gamma factor": sorted(factors), "C": factors[factor]["C grid"]})
