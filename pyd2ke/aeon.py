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

from ._docstrings import fill_doc
from ._rws_adapters import TAGS, ClassifierAdapter, TransformerAdapter, as_steps

_TAGS = {"X_inner_type": ["np-list", "numpy3D"], **TAGS, "algorithm_type": "distance"}


def _as_steps(X):
    """aeon's cases (n_channels, n_timepoints) as pyd2ke's (length, channels) series."""
    return as_steps(X, lambda case: np.asarray(case, dtype=np.float64).T)


class RandomWarpingSeriesTransformer(TransformerAdapter, BaseCollectionTransformer):
    """:class:`pyd2ke.RandomWarpingSeries` as an aeon collection transformer.

    Parameters
    ----------
    n_components : int, default=1024
        Number of random series (= output features).
    max_length : int or "auto", default="auto"
        Longest random series; "auto": a quarter of the median fit length,
        at least 10 steps (or the median length, if shorter).
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
    _steps = staticmethod(_as_steps)

    def _transform(self, X, y=None):
        return self.rws_.transform(_as_steps(X))

    @classmethod
    def _get_test_params(cls, parameter_set="default"):
        return {"n_components": 16, "random_state": 0}


@fill_doc
class RandomWarpingSeriesClassifier(ClassifierAdapter, BaseClassifier):
    """Random Warping Series features, a StandardScaler and a linear classifier
    (RidgeClassifierCV by default), in the manner of aeon's MiniRocketClassifier,
    for unequal-length and multivariate collections without padding.

    Parameters
    ----------
    n_components : int, default=2048
        Number of random series (= features); more than the transformer's
        1024 because the classifier stands beside the rockets' 10,000.
    <the RWS classifier's max_length to local>

    Attributes
    ----------
    pipeline_ : sklearn.pipeline.Pipeline
        The fitted RWS + scaler + classifier.
    """

    _tags = {**_TAGS}
    _steps = staticmethod(_as_steps)

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
