"""What every D2KE-family transformer shares.

Features for R random objects w_1..w_R and a distance d (Wu et al., D2KE):

    soft:   Z[i, j] = exp(-gamma * d(x_i, w_j)) / sqrt(R)
    direct: Z[i, j] = d(x_i, w_j) / sqrt(R)

Subclasses say which metric they use and how they draw the random objects;
fitting, gamma="auto", chunked parallel transforms and pickling live here.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._chunks import chunk_bounds
from ._metrics import check_metric_params, get_metric
from ._validation import (
    check_choice,
    check_dtype,
    check_gamma,
    check_positive_int,
    effective_n_threads,
)

# Objects whose distances to the random objects set gamma="auto".
_AUTO_GAMMA_SAMPLE = 256


class BaseD2KE(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Base class; use a concrete transformer such as RandomStringEmbedding."""

    def _metric_name(self):
        return self.metric

    def _metric_params(self):
        """Keyword parameters of the distance (e.g. DTW's window)."""
        return {}

    def _draw_random_objects(self, X, rng):  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_params(self):
        check_positive_int(self.n_components, "n_components")
        check_choice(self.kernel, "kernel", {"soft", "direct"})
        check_gamma(self.gamma)
        check_dtype(self.dtype)
        effective_n_threads(self.n_jobs)
        check_metric_params(get_metric(self._metric_name()), self._metric_params())

    def _check_objects(self, X, name="X"):
        metric = get_metric(self._metric_name())
        X, flavour = metric.check(X, name, check_dtype(self.dtype))
        fitted = self.__dict__.get("input_flavour_")
        if fitted is not None and flavour != fitted:
            raise metric.flavour_error(name, flavour, fitted)
        return X, flavour

    def fit(self, X, y=None):
        """Draw the random objects (and resolve gamma="auto") from X.

        Parameters
        ----------
        X : sequence of objects in the metric's input format
        y : ignored

        Returns
        -------
        self
        """
        self._check_params()
        for attr in ("input_flavour_", "_engine"):
            self.__dict__.pop(attr, None)
        X, flavour = self._check_objects(X)
        rng = check_random_state(self.random_state)
        self.input_flavour_ = flavour
        self.random_objects_ = self._draw_random_objects(X, rng)
        self.n_components_ = len(self.random_objects_)
        if self.gamma == "auto":
            self.gamma_ = self._auto_gamma(X, rng)
        else:
            self.gamma_ = float(self.gamma)
        return self

    def _auto_gamma(self, X, rng):
        """1 / median distance between fit objects and random objects."""
        if len(X) > _AUTO_GAMMA_SAMPLE:
            pick = rng.choice(len(X), _AUTO_GAMMA_SAMPLE, replace=False)
            X, _ = self._check_objects([X[i] for i in np.sort(pick)])
        d = self._distances(X)
        median = float(np.median(d))
        return 1.0 / median if median > 0 else 1.0

    def _engine_for_transform(self):
        engine = self.__dict__.get("_engine")
        if engine is None:
            metric = get_metric(self._metric_name())
            engine = metric.make_engine(self.random_objects_, self._metric_params(), check_dtype(self.dtype))
            self._engine = engine
        return engine

    def _distances(self, X):
        engine = self._engine_for_transform()
        n_threads = effective_n_threads(self.n_jobs)
        out = np.empty((len(X), self.n_components_), dtype=np.float64)
        for start, stop in chunk_bounds(X):
            engine.distances_into(X[start:stop], out[start:stop], n_threads)
        return out

    def transform(self, X):
        """Random features of X.

        Parameters
        ----------
        X : sequence of objects in the metric's input format

        Returns
        -------
        Z : ndarray of shape (n_objects, n_components_), C-contiguous
        """
        check_is_fitted(self, "random_objects_")
        X, _ = self._check_objects(X)
        dtype = check_dtype(self.dtype)
        n_threads = effective_n_threads(self.n_jobs)
        engine = self._engine_for_transform()
        out = np.empty((len(X), self.n_components_), dtype=dtype)
        for start, stop in chunk_bounds(X):
            engine.features_into(X[start:stop], self.gamma_, self.kernel, out[start:stop], n_threads)
        return out

    @property
    def _n_features_out(self):
        return self.n_components_

    def __getstate__(self):
        # The compiled engine is a cache; it is rebuilt from random_objects_.
        state = super().__getstate__()
        state.pop("_engine", None)
        return state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.requires_fit = True
        return tags
