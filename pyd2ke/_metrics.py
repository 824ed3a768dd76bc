"""The distances the compiled core computes, by name.

Each metric knows how to validate its objects and how to build a batch
engine: the compiled object that holds a fixed set of objects (random objects,
or the Y of pairwise_distances) and computes distances or D2KE features from
every input object to all of them, in parallel, without the GIL.
"""

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _core
from ._validation import check_series, check_strings, check_window


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


METRICS = {
    "levenshtein": Metric("levenshtein", _check_strings, _levenshtein_engine, (), _string_flavour_error),
    "dtw": Metric("dtw", _check_series, _DtwEngine, ("window",), _series_flavour_error),
}


def get_metric(name):
    if not isinstance(name, str) or name not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)}, got {name!r}")
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
