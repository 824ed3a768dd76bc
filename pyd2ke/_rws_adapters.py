"""What the aeon and sktime adapters of RandomWarpingSeries share (pyd2ke.aeon,
pyd2ke.sktime): their parameters, the RWS they fit and the classifier
pipeline. Each adapter only turns its framework's collections into pyd2ke's
(length, channels) series."""

import numpy as np
from sklearn.base import clone
from sklearn.linear_model import RidgeClassifierCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ._base import store_parameters
from ._domains.series import SeriesLayoutWarning
from ._validation import warn_user
from .timeseries import RandomWarpingSeries

# The tags both frameworks name alike; each adapter adds its own.
TAGS = {
    "capability:multivariate": True,
    "capability:unequal_length": True,
    "capability:multithreading": True,
}


def as_steps(X, case_steps):
    """A collection as a list of pyd2ke's (length, channels) series: a 3-D
    array (n_cases, n_channels, n_timepoints) transposed at once, or a list
    whose cases case_steps turns into (length, channels) float64 arrays. A
    list, not a 3-D array: pyd2ke refuses a 3-D array with more channels
    than steps, which the adapters know to be right."""
    if isinstance(X, np.ndarray):
        return list(np.ascontiguousarray(X.transpose(0, 2, 1), dtype=np.float64))
    return [np.ascontiguousarray(case_steps(case)) for case in X]


def warn_if_steps_first(adapter, series):
    """A SeriesLayoutWarning when every case (two or more) has a single time
    point of several channels: the look of (n_cases, n_timepoints, 1) data,
    univariate series in the steps-first layout, which the adapter reads as
    one time point of n_timepoints channels (GunPoint as (50, 150, 1):
    accuracy 0.83 for 0.99). More channels than time points alone is no
    sign: UEA's FaceDetection has 144 channels of 62 time points."""
    if len(series) >= 2 and series[0].shape[1] > 1 and max(len(s) for s in series) == 1:
        framework = type(adapter).__module__.rsplit(".", 1)[-1]
        warn_user(f"every case of X has a single time point ({series[0].shape[1]} channels). {framework}'s layout "
                  f"is (n_cases, n_channels, n_timepoints): if X is (n_cases, n_timepoints, n_channels), pass "
                  f"X.transpose(0, 2, 1)", SeriesLayoutWarning)


def rws_of(adapter):
    """The RandomWarpingSeries an adapter's parameters describe (float32
    arithmetic), told that its series' layout is known: the adapter made
    them (length, channels), so more channels than steps is no sign of a
    misread (no SeriesLayoutWarning; a flag on the instance, not a warnings
    filter, which threads would share)."""
    rws = RandomWarpingSeries(adapter.n_components, max_length=adapter.max_length, derivative=adapter.derivative,
                              local=adapter.local, random_state=adapter.random_state, n_jobs=adapter.n_jobs,
                              dtype=np.float32)
    rws._layout_known = True
    return rws


def classifier_pipeline(adapter):
    """RWS, StandardScaler and the adapter's estimator (RidgeClassifierCV over
    alphas 1e-3..1e3 when None), as in aeon's MiniRocketClassifier."""
    estimator = (RidgeClassifierCV(alphas=np.logspace(-3, 3, 10)) if adapter.estimator is None
                 else clone(adapter.estimator))
    return make_pipeline(rws_of(adapter), StandardScaler(), estimator)


class TransformerAdapter:
    """The parameters and fit of both RWS transformers: the framework's base
    class comes after it, and the class sets ``_steps``, the function that
    turns its framework's collection into pyd2ke's series."""

    def __init__(self, n_components=1024, max_length="auto", derivative=True, random_state=None, n_jobs=1,
                 local="auto"):
        store_parameters(self, locals())
        super().__init__()

    def _fit(self, X, y=None):
        series = self._steps(X)
        warn_if_steps_first(self, series)
        self.rws_ = rws_of(self).fit(series)
        return self


class ClassifierAdapter:
    """The parameters, fit and predict of both RWS classifiers (as
    TransformerAdapter)."""

    def __init__(self, n_components=2048, max_length="auto", derivative=True, estimator=None, random_state=None,
                 n_jobs=1, local="auto"):
        store_parameters(self, locals())
        super().__init__()

    def _fit(self, X, y):
        series = self._steps(X)
        warn_if_steps_first(self, series)
        self.pipeline_ = classifier_pipeline(self).fit(series, y)
        return self

    def _predict(self, X):
        return self.pipeline_.predict(self._steps(X))
