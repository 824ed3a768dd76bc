"""The MUTAG report's inner cross-validation (pyd2ke/reports/graphs.py)."""

import numpy as np
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import SVC

from pyd2ke.reports import graphs
from pyd2ke.reports.grid import Axis


class _RBF:
    """A graph kernel stand-in on vectors: exp(-width |x - y|^2)."""

    def __init__(self, width=1.0):
        self.width = width

    def fit_transform(self, X):
        self.X_ = np.asarray(X)
        return self.transform(X)

    def transform(self, X):
        X = np.asarray(X)
        return np.exp(-self.width * ((X[:, None, :] - self.X_[None, :, :]) ** 2).sum(-1))


def _points(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)  # XOR quadrants: needs a narrow enough kernel


def test_kernel_fold_chooses_the_setting_and_c_of_the_inner_cv():
    X, y = _points(80, 0)
    X_test, y_test = _points(60, 1)
    accuracy, chosen, seconds = graphs.kernel_fold(_RBF, [{"width": w} for w in (0.1, 1.0)], X, y, X_test, y_test,
                                                   C_grid=(0.1, 1.0, 10.0))
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    scores = {(w, C): np.mean(cross_val_score(SVC(kernel="precomputed", C=C), _RBF(w).fit_transform(X), y, cv=cv))
              for w in (0.1, 1.0) for C in (0.1, 1.0, 10.0)}
    assert scores[(chosen["width"], chosen["C"])] == max(scores.values())
    kernel = _RBF(chosen["width"])
    expected = SVC(kernel="precomputed", C=chosen["C"]).fit(kernel.fit_transform(X), y).score(kernel.transform(X_test),
                                                                                             y_test)
    assert accuracy == expected and seconds >= 0


def test_kernel_fold_grows_the_setting_grid_past_the_end_cv_picked():
    X, y = _points(80, 0)
    X_test, y_test = _points(60, 1)
    axes = {"width": Axis(factor=10, low=1e-4, high=1e4)}
    # 0.01 is far too wide for the quadrants, 0.1 better: CV picks the top,
    # and the grid grows to 1 (better still) and 10 (worse)
    _, chosen, _ = graphs.kernel_fold(_RBF, [{"width": w} for w in (0.01, 0.1)], X, y, X_test, y_test,
                                      C_grid=(1.0, 10.0), axes=axes)
    assert chosen["width"] == 1.0


def test_rge_fold_on_mutag_chooses_inside_its_grown_grids():
    from pyd2ke import RandomGraphEmbedding
    from pyd2ke.datasets import load_mutag

    data = load_mutag()
    X, y = data.graphs, np.asarray(data.y)
    train, test = next(StratifiedKFold(10, shuffle=True, random_state=0).split(np.zeros(len(y)), y))
    make = lambda label_scale: RandomGraphEmbedding(16, label_scale=label_scale, kernel="direct", gamma=1.0,  # noqa
                                                    standardize=False, random_state=0)
    accuracy, chosen, _ = graphs.rge_fold(make, [X[i] for i in train], y[train], [X[i] for i in test], y[test],
                                          axes=graphs.AXES)
    assert 0.5 < accuracy <= 1.0
    assert set(chosen) == {"label_scale", "gamma_factor", "C"}
