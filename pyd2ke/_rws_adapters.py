"""What the aeon and sktime adapters of RandomWarpingSeries share (pyd2ke.aeon,
pyd2ke.sktime): their parameters, the RWS they fit and the classifier
pipeline. Each adapter only turns its framework's collections into pyd2ke's
(length, channels) series."""

import numpy as np
from sklearn.base import clone
from sklearn.linear_model import RidgeClassifierCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from .timeseries import RandomWarpingSeries


def rws_of(adapter):
    """The RandomWarpingSeries an adapter's parameters describe (float32 arithmetic)."""
    return RandomWarpingSeries(adapter.n_components, max_length=adapter.max_length, derivative=adapter.derivative,
                               local=adapter.local, random_state=adapter.random_state, n_jobs=adapter.n_jobs,
                               dtype=np.float32)


def classifier_pipeline(adapter):
    """RWS, StandardScaler and the adapter's estimator (RidgeClassifierCV over
    alphas 1e-3..1e3 when None), as in aeon's MiniRocketClassifier."""
    estimator = (RidgeClassifierCV(alphas=np.logspace(-3, 3, 10)) if adapter.estimator is None
                 else clone(adapter.estimator))
    return make_pipeline(rws_of(adapter), StandardScaler(), estimator)
