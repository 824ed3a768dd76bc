"""Random Warping Series inside sktime: a panel transformer and a classifier
that take sktime's panels as they are.

sktime hands equal-length panels over as 3-D arrays (n_instances,
n_channels, n_timepoints) and unequal-length ones as lists of DataFrames
(n_timepoints, n_channels); both become pyd2ke's (length, channels) series
inside. This module imports sktime: install the extra
(``pip install 'pyd2ke[sktime]'``). ``import pyd2ke`` never imports it.
"""

import numpy as np
import pandas as pd
from sktime.classification.base import BaseClassifier
from sktime.transformations.base import BaseTransformer

from ._docstrings import fill_doc
from ._rws_adapters import TAGS, ClassifierAdapter, TransformerAdapter, as_steps

_TAGS = {
    # df-list first: sktime converts a panel whose own mtype is not listed
    # to the first one, and only a list holds unequal lengths.
    "X_inner_mtype": ["df-list", "numpy3D"],
    **TAGS,
    "capability:random_state": True,
    "authors": "pyd2ke developers",
}


def _as_steps(X):
    """sktime's panel (numpy3D or df-list) as pyd2ke's (length, channels) series."""
    return as_steps(X, lambda frame: frame.to_numpy(dtype=np.float64))


class RandomWarpingSeriesTransformer(TransformerAdapter, BaseTransformer):
    """:class:`pyd2ke.RandomWarpingSeries` as an sktime transformer: each
    series (instance) becomes one row of ``n_components`` features.

    Parameters
    ----------
    n_components : int, default=1024
    max_length : int or "auto", default="auto"
    derivative : bool, default=True
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=1
    local : float in [0, 1) or "auto", default="auto"
        Share of local features; "auto": 5/8 when the median fit length is
        at least 300 steps, else 0 (see RandomWarpingSeries).

    Attributes
    ----------
    rws_ : RandomWarpingSeries
        The fitted pyd2ke estimator.

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke.sktime import RandomWarpingSeriesTransformer
    >>> X = np.random.default_rng(0).normal(size=(6, 2, 30))  # (instances, channels, timepoints)
    >>> RandomWarpingSeriesTransformer(n_components=8, random_state=0).fit_transform(X).shape
    (6, 8)
    """

    _tags = {
        **_TAGS,
        "scitype:transform-input": "Series",
        "scitype:transform-output": "Primitives",
        "scitype:instancewise": True,
        "y_inner_mtype": "None",
        "fit_is_empty": False,
        "requires_y": False,
    }
    _steps = staticmethod(_as_steps)

    def _transform(self, X, y=None):
        Z = self.rws_.transform(_as_steps(X))
        return pd.DataFrame(Z, columns=[f"rws{j}" for j in range(Z.shape[1])])

    @classmethod
    def get_test_params(cls, parameter_set="default"):
        return [{"n_components": 8, "random_state": 0}, {"n_components": 4, "derivative": False, "random_state": 1}]


@fill_doc
class RandomWarpingSeriesClassifier(ClassifierAdapter, BaseClassifier):
    """RWS features, a StandardScaler and a linear classifier
    (RidgeClassifierCV by default), for unequal-length and multivariate
    panels without padding (as :class:`pyd2ke.aeon.RandomWarpingSeriesClassifier`).

    Parameters
    ----------
    n_components : int, default=2048
    <the RWS classifier's max_length to local>

    Attributes
    ----------
    pipeline_ : sklearn.pipeline.Pipeline

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke.sktime import RandomWarpingSeriesClassifier
    >>> X = np.random.default_rng(0).normal(size=(8, 1, 30))
    >>> y = np.array([0, 1] * 4)
    >>> RandomWarpingSeriesClassifier(n_components=8, random_state=0).fit(X, y).predict(X).shape
    (8,)
    """

    _tags = {**_TAGS, "capability:predict_proba": False}
    _steps = staticmethod(_as_steps)

    @classmethod
    def get_test_params(cls, parameter_set="default"):
        return [{"n_components": 8, "random_state": 0}, {"n_components": 4, "derivative": False, "random_state": 1}]


__all__ = ["RandomWarpingSeriesClassifier", "RandomWarpingSeriesTransformer"]
