"""D2KE: random features from any distance (Wu et al., "D2KE: From Distance
to Kernel and Embedding").

Features for R random objects w_1..w_R and a distance d:

    soft:   Z[i, j] = exp(-gamma * d(x_i, w_j)) / sqrt(R)
    direct: Z[i, j] = d(x_i, w_j) / sqrt(R)

so that Z Z' approximates k(x, y) = E_w[phi_w(x) phi_w(y)]. ``D2KE`` is the
generic transformer; the domain classes (RandomStringEmbedding,
RandomWarpingSeries, RandomSetEmbedding, WordMoversEmbedding,
RepresentativeSetEmbedding) are specialisations that fix the metric and the
random-object distribution. Fitting, gamma="auto", chunked parallel
transforms and pickling live here only.
"""

import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._chunks import check_chunk, chunk_bounds
from ._metrics import check_metric_params, get_metric
from ._validation import (
    check_choice,
    check_dtype,
    check_finite_output,
    check_gamma,
    check_positive_int,
    effective_n_threads,
)

# Objects whose distances to the random objects set gamma="auto".
_AUTO_GAMMA_SAMPLE = 256
# Metrics whose inputs (series, sets, documents) are packed into one
# contiguous copy before the compiled core sees them.
_PACKED_METRICS = ("dtw", "hausdorff", "modified_hausdorff", "emd")


def _default_random_objects(metric, X, flavour, n, rng):
    """R random objects from the metric's domain distribution, default parameters."""
    if metric == "levenshtein":
        from .strings import draw_random_strings

        return draw_random_strings(X, n, rng, "rf", 10, flavour)
    if metric == "dtw":
        from .timeseries import draw_random_series

        return draw_random_series(X.channels, n, rng, 1, 10, 1.0)
    if metric in ("hausdorff", "modified_hausdorff"):
        from .sets import draw_random_sets

        return draw_random_sets(X.dim, n, rng, 3, 15)
    if metric == "emd":
        from .documents import draw_random_documents

        return draw_random_documents(X.dim, n, rng, 1, 6, "sphere", None)
    raise ValueError(
        f"sampler='random' needs a built-in metric with a random-object distribution; "
        f"metric={metric!r} has none: use sampler='representative' or a callable"
    )


def _report_progress(name, done, total, seconds):
    """One stderr line per transform chunk (verbose > 0)."""
    print(f"{name}.transform: {done}/{total} objects ({100 * done / max(total, 1):.0f}%), {seconds:.1f} s",
          file=sys.stderr, flush=True)


class D2KE(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Random features from any distance (D2KE).

    Parameters
    ----------
    metric : str or callable, default="levenshtein"
        A built-in distance, computed by the compiled core in parallel:
        "levenshtein" (strings), "dtw" (time series), "hausdorff" and
        "modified_hausdorff" (sets of vectors), "emd" (documents as
        (word vectors, weights) pairs) — see
        ``pyd2ke.distances.pairwise_distances`` for the input formats. Or
        any Python function ``d(a, b) -> float >= 0``: the slow path, one
        Python call per (object, random object) pair, split over n_jobs
        threads (which run in parallel only if ``d`` releases the GIL).
    sampler : "random", "representative" or callable, default=None
        How the R random objects are drawn. "random": the metric's domain
        distribution with its default parameters (random strings of length
        U{1..10} over the fit alphabet; Gaussian series of length U{1..10};
        sets of U{3..15} points on the unit sphere; documents of U{1..6}
        words on the unit sphere). "representative": R fit objects without
        replacement (the RSM baseline). A callable ``sampler(random_state,
        n) -> list of n objects`` draws them itself (random_state is a
        numpy RandomState). None means "random" for built-in metrics and
        "representative" for callables.
    n_components : int, default=128
        Number of random objects R (= number of output features).
    metric_params : dict or None, default=None
        Keyword parameters of a built-in distance, e.g. ``{"window": 5}``.
    kernel : {"soft", "direct"}, default="soft"
    gamma : float or "auto", default="auto"
        "auto" uses 1 / median distance between (up to 256) fit objects and
        the random objects.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type, and for the numeric metrics the arithmetic precision.
    verbose : int, default=0
        When > 0, ``transform`` reports its progress over the objects to
        stderr, one line per chunk (useful for large N).

    Attributes
    ----------
    random_objects_ : list
        The random objects, in the input format.
    representative_indices_ : ndarray of int
        With sampler="representative": their indices in the fit data.
    gamma_ : float
    n_components_ : int

    Examples
    --------
    >>> from pyd2ke import D2KE
    >>> hamming = lambda a, b: sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
    >>> Z = D2KE(metric=hamming, n_components=2, random_state=0).fit_transform(["abc", "abd", "xyz"])
    >>> Z.shape
    (3, 2)
    """

    def __init__(
        self,
        metric="levenshtein",
        sampler=None,
        n_components=128,
        *,
        metric_params=None,
        kernel="soft",
        gamma="auto",
        random_state=None,
        n_jobs=None,
        dtype=np.float64,
        verbose=0,
    ):
        self.metric = metric
        self.sampler = sampler
        self.n_components = n_components
        self.metric_params = metric_params
        self.kernel = kernel
        self.gamma = gamma
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.dtype = dtype
        self.verbose = verbose

    # Specialisations override these three.
    def _metric_name(self):
        return self.metric

    def _metric_params(self):
        """Keyword parameters of the distance (e.g. DTW's window)."""
        return dict(self.metric_params or {})

    def _draw_random_objects(self, X, rng):
        sampler = self.sampler
        if not (callable(sampler) or sampler in (None, "random", "representative")):
            raise ValueError(f"sampler must be 'random', 'representative', None or a callable, got {sampler!r}")
        if sampler is None:
            sampler = "representative" if callable(self.metric) else "random"
        if sampler == "representative":
            return self._draw_representatives(X, rng, self.n_components)
        if sampler == "random":
            return _default_random_objects(self.metric, X, self.input_flavour_, self.n_components, rng)
        objects = sampler(rng, self.n_components)
        try:
            objects = list(objects)
        except TypeError:
            raise TypeError(f"sampler must return a list of objects, got {type(objects).__name__}") from None
        if len(objects) != self.n_components:
            raise ValueError(f"sampler returned {len(objects)} objects, but n_components={self.n_components}")
        metric = get_metric(self._metric_name())
        _, flavour = metric.check(objects, "sampler output", check_dtype(self.dtype))
        if flavour != self.input_flavour_:
            raise metric.flavour_error("sampler output", flavour, self.input_flavour_)
        return objects

    def _draw_representatives(self, X, rng, n):
        if n > len(X):
            warnings.warn(
                f"n_components={n} is larger than the number of fit objects ({len(X)}); "
                f"using all {len(X)} of them",
                UserWarning,
            )
            n = len(X)
        self.representative_indices_ = np.sort(rng.choice(len(X), size=n, replace=False))
        return [X[i] for i in self.representative_indices_]

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
        for attr in ("input_flavour_", "_engine", "representative_indices_"):
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
            pick = np.sort(pick)
            X = X.take(pick) if hasattr(X, "take") else [X[i] for i in pick]
            X, _ = self._check_objects(X)
        d = self._distances(X)
        median = float(np.median(d))
        # A subnormal median would give gamma = inf (and NaN features at d = 0).
        return min(1.0 / median, np.finfo(np.float64).max) if median > 0 else 1.0

    def _engine_for_transform(self):
        # Built once per precision and distance parameters, which may change
        # after fit (set_params(dtype=...) needs no refit).
        dtype, params = check_dtype(self.dtype), self._metric_params()
        key = (np.dtype(dtype).str, repr(sorted(params.items())))
        cached = self.__dict__.get("_engine")
        if cached is None or cached[0] != key:
            metric = get_metric(self._metric_name())
            cached = (key, metric.make_engine(self.random_objects_, params, dtype))
            self._engine = cached
        return cached[1]

    def _distances(self, X):
        engine = self._engine_for_transform()
        n_threads = effective_n_threads(self.n_jobs)
        out = np.empty((len(X), self.n_components_), dtype=np.float64)
        check = not get_metric(self._metric_name()).always_finite
        for start, stop in chunk_bounds(X):
            engine.distances_into(X[start:stop], out[start:stop], n_threads)
            if check:
                check_finite_output(out[start:stop], "X", start)
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
        dtype = check_dtype(self.dtype)
        n_threads = effective_n_threads(self.n_jobs)
        engine = self._engine_for_transform()
        items = self._items_to_pack_by_chunks(X)
        if items is None:
            X, _ = self._check_objects(X)
            n, bounds = len(X), chunk_bounds(X)
        else:
            n, bounds = len(items), chunk_bounds(items)
        out = np.empty((n, self.n_components_), dtype=dtype)
        check = not get_metric(self._metric_name()).always_finite
        t0 = time.perf_counter()
        for start, stop in bounds:
            if items is None:
                chunk = X[start:stop]
            else:
                chunk = check_chunk(lambda part: self._check_objects(part)[0], items, start, stop)
            engine.features_into(chunk, self.gamma_, self.kernel, out[start:stop], n_threads)
            if check:
                check_finite_output(out[start:stop], "X", start)
            if self.verbose:
                _report_progress(type(self).__name__, stop, n, time.perf_counter() - t0)
        return out

    def _items_to_pack_by_chunks(self, X):
        """X as a list when it is a sequence of series, sets or documents that
        the metric would pack into one contiguous copy; None otherwise (strings
        need no copy, packed input is packed already). Such lists are checked
        and packed a chunk at a time, so a transform needs O(chunk) memory
        above its output."""
        if self._metric_name() not in _PACKED_METRICS or not isinstance(X, (list, tuple)):
            return None
        if isinstance(X, tuple) and len(X) == 2 and sp.issparse(X[1]):  # (embeddings, bag of words)
            return None
        if len(X) == 0:
            return None  # the whole-input check reports it
        return list(X)

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
