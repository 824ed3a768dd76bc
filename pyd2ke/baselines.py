"""Baselines the D2KE papers compare against."""

import numpy as np

from ._base import StrOptions, store_parameters
from ._docstrings import fill_doc
from ._domains import METRICS, fill_metrics_doc
from ._validation import check_choice
from .d2ke import D2KEBase


@fill_metrics_doc
@fill_doc
class RepresentativeSetEmbedding(D2KEBase):
    """Representative-set method (RSM): D2KE features with R training objects
    as the "random" objects.

    Z[i, j] = exp(-gamma d(x_i, t_j)) / sqrt(R) (soft) or d(x_i, t_j) / sqrt(R)
    (direct), where t_1..t_R are drawn from the fit data without replacement.
    Equivalent to ``D2KE(metric, sampler="representative")``.

    Parameters
    ----------
    n_components : int, default=256
        Number of representatives R. When the fit data has fewer objects, all
        of them are used (with a warning).
    metric : str, default="levenshtein"
        A built-in distance:

        <the built-in metrics>

    metric_params : dict or None, default=None
        Keyword parameters of the distance, e.g. ``{"window": 5}`` for DTW.
    kernel : {"soft", "direct"}, default="soft"
    gamma : float or "auto", default="auto"
        "auto" uses 1 / median distance between fit objects and representatives.
    <standardize>
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
    <verbose>

    Attributes
    ----------
    <feature_mean_, feature_scale_>
    random_objects_ : list
        The representatives, in the input format.
    representative_indices_ : ndarray of int
        Their indices in the fit data.
    gamma_ : float
    n_components_ : int
    """

    _parameter_constraints = {
        **D2KEBase._parameter_constraints,
        "metric": [StrOptions(set(METRICS))],
        "metric_params": [dict, None],
    }

    def __init__(self, n_components=256, *, metric="levenshtein", metric_params=None, kernel="soft", gamma="auto",
                 standardize=True, random_state=None, n_jobs=None, dtype=np.float64, verbose=0):
        store_parameters(self, locals())

    def _check_params(self):
        if callable(self.metric):
            raise TypeError(f"metric must be a built-in metric's name here, got the callable {self.metric!r}: for "
                            f"a distance function, D2KE(metric=function, sampler='representative') is this "
                            f"estimator")
        check_choice(self.metric, "metric", set(METRICS))
        super()._check_params()

    def _draw_random_objects(self, X, rng):
        return self._draw_representatives(X, rng, self.n_components)
