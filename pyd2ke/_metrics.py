"""The distances the compiled core computes, by name.

Each metric knows how to validate its objects and how to build a batch
engine: the compiled object that holds a fixed set of objects (random objects,
or the Y of pairwise_distances) and computes distances or D2KE features from
every input object to all of them, in parallel, without the GIL.
"""

import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _core
from ._chunks import run_blocks
from ._validation import check_documents, check_objects, check_point_sets, check_series, check_strings, check_window
from .sketches import EspDistanceEngine


@dataclass(frozen=True)
class Metric:
    name: str
    # check(X, name, dtype) -> (canonical objects, flavour); the flavour tells
    # apart inputs a metric accepts but cannot mix (str vs bytes, channel counts).
    check: Callable
    # make_engine(objects, params, dtype) -> object with distances_into / features_into
    make_engine: Callable
    # Names of the keyword parameters the metric takes (e.g. DTW's window).
    params: tuple
    # flavour_error(name, got, expected) -> exception for input whose flavour
    # differs from the fit data's (or, in pairwise_distances, from X's).
    flavour_error: Callable
    # True when distances and features cannot overflow whatever the input
    # (edit distances are whole numbers no larger than the longer string), so
    # callers may skip the pass over the output that looks for inf and NaN.
    always_finite: bool = False


def _check_strings(X, name, dtype):
    return check_strings(X, name)


def _levenshtein_engine(strings, params, dtype):
    return _core.LevenshteinBatch(list(strings))


def _string_flavour_error(name, got, expected):
    kinds = {False: "str", True: "bytes"}
    return TypeError(
        f"{name} holds {kinds[got]}, but {kinds[expected]} was expected (as in X or the fit data): "
        "str and bytes are not compared with each other"
    )


class _DtwEngine:
    """A DtwBatch of the right precision, taking PackedSeries."""

    def __init__(self, series, params, dtype):
        packed = check_series(series, "series", dtype)
        window = check_window(params.get("window"))
        cls = _core.DtwBatch32 if np.dtype(dtype) == np.float32 else _core.DtwBatch64
        self._dtype = np.dtype(dtype)
        self._batch = cls(packed.values, packed.offsets, window)

    def distances_into(self, X, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.distances_into(X.values, X.offsets, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.features_into(X.values, X.offsets, gamma, kernel, out, n_threads)


def _check_series(X, name, dtype):
    packed = check_series(X, name, dtype)
    return packed, packed.channels


def _series_flavour_error(name, got, expected):
    return ValueError(
        f"{name} has series of {got} channels, but {expected} were expected (as in X or the fit data)"
    )


class _SetEngine:
    """A SetDistanceBatch (Hausdorff or modified Hausdorff) of the right precision."""

    def __init__(self, sets, metric, dtype):
        packed = check_point_sets(sets, "sets", dtype)
        cls = _core.SetDistanceBatch32 if np.dtype(dtype) == np.float32 else _core.SetDistanceBatch64
        self._dtype = np.dtype(dtype)
        self._batch = cls(packed.values, packed.offsets, metric)

    def distances_into(self, X, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.distances_into(X.values, None, X.offsets, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.features_into(X.values, None, X.offsets, gamma, kernel, out, n_threads)


class _EmdEngine:
    """An EmdBatch; dtype is the precision of the ground distances (the
    transportation problems are always solved in float64)."""

    def __init__(self, documents, params, dtype):
        packed = check_documents(documents, "documents", dtype)
        cls = _core.EmdBatch32 if np.dtype(dtype) == np.float32 else _core.EmdBatch64
        self._dtype = np.dtype(dtype)
        self._batch = cls(packed.values, packed.weights, packed.offsets)

    def distances_into(self, X, out, n_threads):
        X = X.astype(self._dtype)
        if X.word_ids is not None:  # from a bag of words: ground costs once per distinct word
            self._batch.vocabulary_distances_into(X.vocabulary, X.word_ids, X.weights, X.offsets, out, n_threads)
        else:
            self._batch.distances_into(X.values, X.weights, X.offsets, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        X = X.astype(self._dtype)
        if X.word_ids is not None:
            self._batch.vocabulary_features_into(X.vocabulary, X.word_ids, X.weights, X.offsets, gamma, kernel,
                                                 out, n_threads)
        else:
            self._batch.features_into(X.values, X.weights, X.offsets, gamma, kernel, out, n_threads)


def _check_sets(X, name, dtype):
    packed = check_point_sets(X, name, dtype)
    return packed, packed.dim


def _check_documents(X, name, dtype):
    packed = check_documents(X, name, dtype)
    return packed, packed.dim


def _dimension_flavour_error(name, got, expected):
    return ValueError(
        f"{name} has points of dimension {got}, but {expected} was expected (as in X or the fit data)"
    )


class _CallableEngine:
    """Distances from a Python function d(a, b): the slow path. Rows are
    split over threads, which helps only when d releases the GIL (numpy on
    large arrays, compiled code); results do not depend on the thread count."""

    def __init__(self, function, objects):
        self._function = function
        self._objects = list(objects)

    def _rows(self, X, out, begin, end, stop_event=None):
        f, objects = self._function, self._objects
        for i in range(begin, end):
            if stop_event is not None and stop_event.is_set():
                return
            for j, w in enumerate(objects):
                d = f(X[i], w)
                if isinstance(d, (bool, np.bool_)) or not isinstance(d, (numbers.Real, np.floating, np.integer)):
                    raise TypeError(f"metric returned {type(d).__name__} for objects ({i}, {j}); expected a number")
                if not np.isfinite(d) or d < 0:
                    raise ValueError(f"metric returned {d!r} for objects ({i}, {j}); distances must be finite and >= 0")
                out[i, j] = d

    def distances_into(self, X, out, n_threads):
        n = len(X)
        step = max(1, -(-n // (4 * n_threads)))
        run_blocks(lambda b, stop_event: self._rows(X, out, b, min(n, b + step), stop_event),
                   range(0, n, step), n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        d = np.empty(out.shape, dtype=np.float64)
        self.distances_into(X, d, n_threads)
        scale = 1.0 / np.sqrt(out.shape[1])
        out[...] = np.exp(-gamma * d) * scale if kernel == "soft" else d * scale


def _check_any_objects(X, name, dtype):
    return check_objects(X, name), None


def callable_metric(function):
    """A Metric computing distances with the Python function d(a, b)."""
    return Metric(
        getattr(function, "__name__", "callable"),
        _check_any_objects,
        lambda objects, params, dtype: _CallableEngine(function, objects),
        (),
        lambda name, got, expected: ValueError(f"{name} does not match the fit data"),
    )


METRICS = {
    "levenshtein": Metric(
        "levenshtein", _check_strings, _levenshtein_engine, (), _string_flavour_error, always_finite=True
    ),
    "dtw": Metric("dtw", _check_series, _DtwEngine, ("window",), _series_flavour_error),
    "hausdorff": Metric(
        "hausdorff", _check_sets, lambda s, p, dt: _SetEngine(s, "hausdorff", dt), (), _dimension_flavour_error
    ),
    "modified_hausdorff": Metric(
        "modified_hausdorff",
        _check_sets,
        lambda s, p, dt: _SetEngine(s, "modified_hausdorff", dt),
        (),
        _dimension_flavour_error,
    ),
    "emd": Metric("emd", _check_documents, _EmdEngine, (), _dimension_flavour_error),
    "esp": Metric("esp", _check_strings, lambda s, p, dt: EspDistanceEngine(s, p, dt), (), _string_flavour_error),
}


def get_metric(name):
    """The Metric for a built-in name, or a slow-path Metric for a callable."""
    if callable(name) and not isinstance(name, str):
        return callable_metric(name)
    if not isinstance(name, str) or name not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)} or a callable d(a, b), got {name!r}")
    return METRICS[name]


def check_metric_params(metric, params, name="metric_params"):
    """The keyword parameters of `metric`, validated; unknown names are errors."""
    params = {} if params is None else dict(params)
    unknown = set(params) - set(metric.params)
    if unknown:
        raise ValueError(
            f"{name} has {sorted(unknown)}, which metric={metric.name!r} does not take "
            f"(it takes {list(metric.params) or 'none'})"
        )
    if "window" in params:
        check_window(params["window"])
    return params
