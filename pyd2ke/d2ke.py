"""D2KE: random features from any distance (Wu et al., "D2KE: From Distance
to Kernel and Embedding").

Features for R random objects w_1..w_R and a distance d:

    soft:   Z[i, j] = exp(-gamma * d(x_i, w_j)) / sqrt(R)
    direct: Z[i, j] = d(x_i, w_j) / sqrt(R)

so that Z Z' approximates k(x, y) = E_w[phi_w(x) phi_w(y)]. ``D2KEBase`` holds
what every such estimator shares (fit, gamma="auto", chunked parallel
transforms, pickling) and knows no input format: it asks the domain of its
metric (pyd2ke/_domains/) to validate, pack, compute and draw. ``D2KE`` is
the generic transformer; RandomStringEmbedding, RandomWarpingSeries,
RandomSetEmbedding, WordMoversEmbedding and RepresentativeSetEmbedding are
its siblings that fix the metric and the random-object distribution.
"""

from collections.abc import Mapping
from numbers import Real

import numpy as np
from sklearn.utils import check_random_state

from ._auto import inverse_median
from ._base import COUNT, Interval, Pyd2keTransformer, StrOptions, store_parameters, string_input_tags
from ._docstrings import fill_doc
from ._domains import METRICS, check_metric_params, domain_for, fill_metrics_doc
from ._domains.base import soft_or_direct
from ._domains.point_sets import POINT_SETS
from ._domains.series import SERIES
from ._domains.strings import with_default_metric_hint
from ._parallel import chunk_bounds
from ._standardize import feature_statistics, standardize_into
from ._validation import (
    check_choice,
    check_dtype,
    check_finite_output,
    check_gamma,
    check_positive_int,
    effective_n_threads,
    warn_user,
)

# Fit objects whose distances to the random objects set gamma="auto" and the
# standardisation (standardize=True).
_FIT_SAMPLE = 256


class D2KEBase(Pyd2keTransformer):
    """What every D2KE-family estimator shares: fit validates the data as its
    domain says, draws the random objects and resolves gamma="auto"; each
    transform chunk goes through the domain's compiled engine.

    Subclasses define their parameters and their constraints, ``metric`` (a
    parameter or a class attribute), and ``_draw_random_objects(X, rng)``;
    ``_metric_params()`` when the distance takes parameters other than a
    ``metric_params`` dict; ``_validate`` when their input needs more than
    the domain's check (WordMoversEmbedding's bag of words).
    """

    _parameter_constraints = {
        **Pyd2keTransformer._parameter_constraints,
        "n_components": [COUNT],
        "kernel": [StrOptions({"soft", "direct"})],
        "gamma": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "standardize": ["boolean"],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }
    _fitted_attribute = "random_objects_"

    def _metric_name(self):
        """The built-in metric name, or the Python function."""
        return self.metric

    def _domain(self):
        return domain_for(self._metric_name())

    def _metric_params(self):
        """Keyword parameters of the distance (e.g. DTW's window): the
        ``metric_params`` parameter where the estimator has one."""
        params = getattr(self, "metric_params", None)
        if params is not None and not isinstance(params, Mapping):
            raise TypeError(f"metric_params must be a dict or None, got {type(params).__name__}")
        return dict(params or {})

    def _draw_random_objects(self, X, rng):
        raise NotImplementedError

    def _draw_from_domain(self, X, rng, **params):
        """n_components random objects from the domain's distribution;
        params override its defaults."""
        return self._domain().draw_random_objects(X, self.input_flavour_, self.n_components, rng, **params)

    def _draw_representatives(self, X, rng, n):
        if n > len(X):
            warn_user(f"n_components={n} is larger than the number of fit objects ({len(X)}); "
                      f"using all {len(X)} of them")
            n = len(X)
        self.representative_indices_ = np.sort(rng.choice(len(X), size=n, replace=False))
        return [X[i] for i in self.representative_indices_]

    def _check_params(self):
        check_positive_int(self.n_components, "n_components")
        check_choice(self.kernel, "kernel", {"soft", "direct"})
        check_gamma(self.gamma)
        super()._check_params()
        check_metric_params(self._domain(), self._metric_name(), self._metric_params())

    def _items_are_tables(self):
        return self._domain().items_are_tables

    def _validate(self, X, reset, name="X"):
        """X checked and packed by the domain. reset=True (fit): its flavour
        (str or bytes, channels, dimension) becomes the fitted one;
        reset=False: it must match the fitted one."""
        domain = self._domain()
        encode = getattr(domain, "encode_categories", None)
        if encode is not None:  # graphs with categorical node labels: the fitted vocabulary
            X, vocabulary = encode(X, getattr(self, "node_label_vocabulary_", None), reset, name)
            if reset:
                self.node_label_vocabulary_ = vocabulary
        if not reset:
            X = domain.settle_layout(X, self.input_flavour_)
        try:
            X, flavour = domain.check(X, name, check_dtype(self.dtype))
        except (TypeError, ValueError) as error:
            if "metric" not in self._get_param_names() or self.metric != "levenshtein":
                raise
            raise with_default_metric_hint(error) from None  # D2KE's and RSM's default metric met non-strings
        if reset:
            if not getattr(self, "_layout_known", False):  # set by the aeon and sktime adapters
                domain.check_layout(X, name)
            self.input_flavour_ = flavour
        elif flavour != self.input_flavour_:
            raise domain.flavour_error(name, flavour, self.input_flavour_)
        return X

    def _fit(self, X, y=None, draw=None):
        """Validate X as fit data, draw the random objects with draw(X, rng)
        (default: ``_draw_random_objects``), resolve gamma and the
        standardisation."""
        draw = self._draw_random_objects if draw is None else draw
        for attr in ("_engine", "representative_indices_"):
            self.__dict__.pop(attr, None)  # stale state of an earlier fit
        X = self._validate(X, reset=True)
        rng = check_random_state(self.random_state)
        self.random_objects_ = draw(X, rng)
        self.n_components_ = len(self.random_objects_)
        # Both read the distances of one sample of fit objects; none is drawn
        # when neither needs it (explicit gamma, standardize=False).
        d = self._sample_distances(X, rng) if self.gamma == "auto" or self.standardize else None
        self.gamma_ = inverse_median(d) if self.gamma == "auto" else float(self.gamma)
        if self.standardize:
            if len(X) == 1:
                warn_user("fit on one object: standardize=True takes each feature's mean and one common scale "
                          "from the fit objects, and one object has no spread (scale 1.0 used, its own features "
                          "all 0); fit on more objects, or pass standardize=False")
            features = np.empty_like(d)
            soft_or_direct(d, self.gamma_, self.kernel, features)
            self.feature_mean_, self.feature_scale_, spread = feature_statistics(features, check_dtype(self.dtype))
            if not spread and len(X) > 1:
                warn_user("standardize=True found no spread in the fit objects' features: every object is about "
                          "as far from each random object as every other, so the features are all but constant "
                          "(scale 1.0 used). The objects may all be alike, or far from the random objects: "
                          + self._domain().far_from_random_hint)
            self._standardized_kernel = self.kernel
        else:
            self.feature_mean_ = self.feature_scale_ = None
        return self

    def _sample_distances(self, X, rng):
        """Distances between up to _FIT_SAMPLE fit objects and the random objects."""
        if len(X) > _FIT_SAMPLE:
            pick = rng.choice(len(X), _FIT_SAMPLE, replace=False)
            pick = np.sort(pick)
            X = X.take(pick) if hasattr(X, "take") else [X[i] for i in pick]
            X = self._validate(X, reset=False)
        return self._distances(X)

    def _engine_for_transform(self):
        # Built once per precision and distance parameters, which may change
        # after fit (set_params(dtype=...) needs no refit).
        dtype, params = check_dtype(self.dtype), self._metric_params()
        key = (np.dtype(dtype).str, repr(sorted(params.items())))
        cached = self.__dict__.get("_engine")
        if cached is None or cached[0] != key:
            engine = self._domain().make_engine(self._metric_name(), self.random_objects_, params, dtype)
            cached = (key, engine)
            self._engine = cached
        return cached[1]

    def _distances(self, X):
        engine = self._engine_for_transform()
        n_threads = effective_n_threads(self.n_jobs)
        out = np.empty((len(X), len(self.random_objects_)), dtype=np.float64)
        check = not self._always_finite()
        for start, stop in chunk_bounds(X):
            engine.distances_into(X[start:stop], out[start:stop], n_threads)
            if check:
                check_finite_output(out[start:stop], "X", start, arithmetic=check_dtype(self.dtype))
        return out

    def _check_input(self, X):
        """Lists are checked and packed a chunk at a time (O(chunk) memory
        above the output); other inputs are checked whole. Their flavour
        must be the fit data's."""
        fitted = self.__dict__.get("_standardized_kernel", self.kernel)
        if getattr(self, "feature_mean_", None) is not None and self.kernel != fitted:
            raise ValueError(f"kernel is {self.kernel!r}, but the standardisation was fitted on {fitted!r} "
                             "features: fit again after changing kernel (or use standardize=False)")
        if self._domain().is_packable_list(X):
            return list(X), lambda part: self._validate(part, reset=False)
        return self._validate(X, reset=False), None

    def _transform_chunk(self, X, out):
        """The engine's features of X, standardised when fitted so."""
        engine = self._engine_for_transform()
        engine.features_into(X, self.gamma_, self.kernel, out, effective_n_threads(self.n_jobs))
        if getattr(self, "feature_mean_", None) is not None:  # fitted with standardize=True
            standardize_into(out, self.feature_mean_, self.feature_scale_, effective_n_threads(self.n_jobs))
        return out

    def _check_output(self, Z, start):
        if not self._always_finite():
            super()._check_output(Z, start)

    def _always_finite(self):
        metric = self._domain().metrics.get(self._metric_name())
        return metric is not None and metric.always_finite

    @property
    def _n_features_out(self):
        return self.n_components_

    def __getstate__(self):
        # The compiled engine is a cache; it is rebuilt from random_objects_.
        state = super().__getstate__()
        state.pop("_engine", None)
        return state

    def __sklearn_tags__(self):
        tags = string_input_tags(super().__sklearn_tags__())
        tags.requires_fit = True
        try:
            domain = self._domain()
        except ValueError:  # an unknown metric: fit says so
            return tags
        tags.input_tags.string = domain.takes_strings
        tags.input_tags.three_d_array = domain in (SERIES, POINT_SETS)  # (n_objects, rows, columns) arrays
        return tags


@fill_metrics_doc
@fill_doc
class D2KE(D2KEBase):
    """Random features from any distance (D2KE).

    Parameters
    ----------
    metric : str or callable, default="levenshtein"
        A built-in distance, computed by the compiled core in parallel:

        <the built-in metrics>

        Or any Python function ``d(a, b) -> float >= 0``: the slow path, one
        Python call per (object, random object) pair, split over n_jobs
        threads (which run in parallel only if ``d`` releases the GIL).
    sampler : "random", "representative" or callable, default=None
        How the R random objects are drawn. "random": the metric's domain
        distribution with its default parameters (random strings of length
        U{1..10} over the fit alphabet; Gaussian series of length U{2..10};
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
    <standardize>
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type, and for the numeric metrics the arithmetic precision.
    <verbose>

    Attributes
    ----------
    <feature_mean_, feature_scale_>
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

    _parameter_constraints = {
        **D2KEBase._parameter_constraints,
        "metric": [StrOptions(set(METRICS)), callable],
        "sampler": [StrOptions({"random", "representative"}), callable, None],
        "metric_params": [dict, None],
    }

    def __init__(self, metric="levenshtein", sampler=None, n_components=128, *, metric_params=None, kernel="soft",
                 gamma="auto", standardize=True, random_state=None, n_jobs=None, dtype=np.float64, verbose=0):
        store_parameters(self, locals())

    def _check_params(self):
        sampler = self.sampler
        if not (sampler is None or callable(sampler) or (isinstance(sampler, str)
                                                          and sampler in ("random", "representative"))):
            raise ValueError(f"sampler must be 'random', 'representative', None or a callable, got {sampler!r}")
        super()._check_params()

    def _draw_random_objects(self, X, rng):
        sampler = self.sampler
        if sampler is None:
            sampler = "representative" if callable(self.metric) else "random"
        if sampler == "representative":
            return self._draw_representatives(X, rng, self.n_components)
        if sampler == "random":
            return self._draw_from_domain(X, rng)
        objects = sampler(rng, self.n_components)
        try:
            objects = list(objects)
        except TypeError:
            raise TypeError(f"sampler must return a list of objects, got {type(objects).__name__}") from None
        if len(objects) != self.n_components:
            raise ValueError(f"sampler returned {len(objects)} objects, but n_components={self.n_components}")
        self._validate(objects, reset=False, name="sampler output")
        return objects
