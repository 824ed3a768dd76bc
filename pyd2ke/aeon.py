"""Random Warping Series inside aeon: a collection transformer and a
classifier that take aeon's collections as they are.

aeon holds a collection as a 3-D array (n_cases, n_channels, n_timepoints)
or, for unequal lengths, a list of 2-D (n_channels, n_timepoints) arrays.
Both are turned into pyd2ke's layout, (length, channels) per series, inside;
unequal lengths and several channels are taken natively (the tags say so),
with no padding. This module imports aeon: install the extra
(``pip install 'pyd2ke[aeon]'``). ``import pyd2ke`` never imports it.
"""

import numpy as np
from aeon.classification import BaseClassifier
from aeon.transformations.collection import BaseCollectionTransformer

from ._rws_adapters import classifier_pipeline, rws_of

_TAGS = {
    "X_inner_type": ["np-list", "numpy3D"],
    "capability:multivariate": True,
    "capability:unequal_length": True,
    "capability:multithreading": True,
    "algorithm_type": "distance",
}


def _as_steps(X):
    """aeon's cases (n_channels, n_timepoints) as pyd2ke's (length, channels) series."""
    if isinstance(X, np.ndarray):
        return np.ascontiguousarray(X.transpose(0, 2, 1), dtype=np.float64)
    return [np.ascontiguousarray(np.asarray(case, dtype=np.float64).T) for case in X]


class RandomWarpingSeriesTransformer(BaseCollectionTransformer):
    """:class:`pyd2ke.RandomWarpingSeries` as an aeon collection transformer.

    Parameters
    ----------
    n_components : int, default=1024
        Number of random series (= output features).
    max_length : int or "auto", default="auto"
        Longest random series; "auto": a quarter of the median fit length.
    derivative : bool, default=True
        Compare slopes as well as values (derivative channels).
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=1
        Threads (-1: all cores). The output does not depend on it.
    local : float in [0, 1) or "auto", default="auto"
        Share of local features (how well and how often short random shapes
        occur anywhere); "auto": 5/8 when the median fit length is at least
        300 steps, else 0.

    Attributes
    ----------
    rws_ : RandomWarpingSeries
        The fitted pyd2ke estimator (float32 arithmetic, standardised features).
    """

    _tags = {**_TAGS, "output_data_type": "Tabular", "fit_is_empty": False}

    def __init__(self, n_components=1024, max_length="auto", derivative=True, random_state=None, n_jobs=1,
                 local="auto"):
        self.n_components = n_components
        self.max_length = max_length
        self.derivative = derivative
        self.local = local
        self.random_state = random_state
        self.n_jobs = n_jobs
        super().__init__()

    def _fit(self, X, y=None):
        self.rws_ = rws_of(self).fit(_as_steps(X))
        return self

    def _transform(self, X, y=None):
        return self.rws_.transform(_as_steps(X))

    @classmethod
    def _get_test_params(cls, parameter_set="default"):
        return {"n_components": 16, "random_state": 0}


class RandomWarpingSeriesClassifier(BaseClassifier):
    """Random Warping Series features, a StandardScaler and a linear classifier
    (RidgeClassifierCV by default), in the manner of aeon's MiniRocketClassifier,
    for unequal-length and multivariate collections without padding.

    Parameters
    ----------
    n_components : int, default=2048
        Number of random series (= features); more than the transformer's
        1024 because the classifier stands beside the rockets' 10,000.
    max_length : int or "auto", default="auto"
    derivative : bool, default=True
    estimator : scikit-learn classifier or None, default=None
        None: ``RidgeClassifierCV(alphas=np.logspace(-3, 3, 10))``.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=1
    local : float in [0, 1) or "auto", default="auto"

    Attributes
    ----------
    pipeline_ : sklearn.pipeline.Pipeline
        The fitted RWS + scaler + classifier.
    """

    _tags = {**_TAGS}

    def __init__(self, n_components=2048, max_length="auto", derivative=True, estimator=None, random_state=None,
                 n_jobs=1, local="auto"):
        self.n_components = n_components
        self.max_length = max_length
        self.derivative = derivative
        self.local = local
        self.estimator = estimator
        self.random_state = random_state
        self.n_jobs = n_jobs
        super().__init__()

    def _fit(self, X, y):
        self.pipeline_ = classifier_pipeline(self).fit(_as_steps(X), y)
        return self

    def _predict(self, X):
        return self.pipeline_.predict(_as_steps(X))

    def _predict_proba(self, X):
        steps = _as_steps(X)
        if hasattr(self.pipeline_[-1], "predict_proba"):
            return self.pipeline_.predict_proba(steps)
        predicted = self.pipeline_.predict(steps)
        return (predicted[:, None] == np.asarray(self.classes_)[None, :]).astype(np.float64)

    @classmethod
    def _get_test_params(cls, parameter_set="default"):
        return {"n_components": 16, "random_state": 0}


__all__ = ["RandomWarpingSeriesClassifier", "RandomWarpingSeriesTransformer"]
