"""Time series: a list of arrays of shape (length,) or (length, channels),
lengths free, one channel count; compared by dynamic time warping (Euclidean
ground cost across channels, summed along the path, optional Sakoe-Chiba
window); random series of Gaussian values."""

import numbers

import numpy as np

from .. import _core
from .._ragged import Ragged
from .._validation import as_list, real_array
from .base import Metric, RaggedDomain

# Random series: lengths uniform on {MIN_LENGTH..MAX_LENGTH}, values N(0, SCALE^2).
MIN_LENGTH, MAX_LENGTH, SCALE = 1, 10, 1.0


def check_series(X, name="X", dtype=np.float64):
    """A non-empty list of time series, each shaped (length,) or (length, channels).

    Lengths may differ; channel counts may not. Returns a Ragged of `dtype`
    (float32 or float64) whose rows are time steps. Raises ValueError naming
    the series index for empty series, NaN/inf values, 3-D arrays and mixed
    channel counts, and TypeError for non-numeric data.
    """
    if isinstance(X, Ragged):
        return X.astype(dtype)
    if isinstance(X, np.ndarray) and X.dtype != object and X.ndim not in (2, 3):
        raise ValueError(
            f"{name} must be a list of series or an array of shape (n_series, length[, channels]), "
            f"got an array of shape {X.shape}"
        )
    # An array (n_series, length[, channels]) is an equal-length collection.
    X = as_list(X, name, "time series", item="series")
    series = []
    channels = None
    for i, s in enumerate(X):
        a = real_array(s, f"{name}[{i}]", "DTW needs real values")
        if a.ndim == 1:
            a = a[:, None]
        elif a.ndim != 2:
            raise ValueError(f"{name}[{i}] has {a.ndim} dimensions; a series is (length,) or (length, channels)")
        if a.shape[0] == 0:
            raise ValueError(f"{name}[{i}] is empty: a series needs at least one step")
        if a.shape[1] == 0:
            raise ValueError(f"{name}[{i}] has no channels")
        if channels is None:
            channels = a.shape[1]
        elif a.shape[1] != channels:
            raise ValueError(f"{name}[{i}] has {a.shape[1]} channels, but {name}[0] has {channels}")
        series.append(a)
    return Ragged.pack(series, dtype).check_finite(name, "step")


def check_window(window, name="window"):
    """None (no window) or a non-negative integer; returned as -1 for None."""
    if window is None:
        return -1
    if isinstance(window, (bool, np.bool_)) or not isinstance(window, numbers.Integral):
        raise TypeError(f"{name} must be None or a non-negative integer, got {window!r}")
    if window < 0:
        raise ValueError(f"{name} must be >= 0 (or None for no window), got {window}")
    return int(window)


class DtwEngine:
    """A DtwBatch of the right precision, taking checked series."""

    def __init__(self, series, window, dtype):
        packed = check_series(series, "series", dtype)
        cls = _core.DtwBatch32 if np.dtype(dtype) == np.float32 else _core.DtwBatch64
        self._dtype = np.dtype(dtype)
        self._batch = cls(packed.values, packed.offsets, check_window(window))

    def distances_into(self, X, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.distances_into(X.values, X.offsets, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.features_into(X.values, X.offsets, gamma, kernel, out, n_threads)


def draw_random_series(channels, n, rng, min_length=MIN_LENGTH, max_length=MAX_LENGTH, scale=SCALE):
    """n random series: lengths U{min_length..max_length}, values N(0, scale^2)."""
    lengths = rng.randint(min_length, max_length + 1, size=n)
    return [rng.normal(0.0, scale, size=(d, channels)) for d in lengths]


class SeriesDomain(RaggedDomain):
    name = "time series"
    metrics = {"dtw": Metric("dtw", params=("window",))}
    sampler_defaults = {"min_length": MIN_LENGTH, "max_length": MAX_LENGTH, "scale": SCALE}

    def check_ragged(self, X, name, dtype):
        return check_series(X, name, dtype)

    def flavour_error(self, name, got, expected):
        return ValueError(
            f"{name} has series of {got} channels, but {expected} were expected (as in X or the fit data)"
        )

    def check_params(self, metric, params):
        if "window" in params:
            check_window(params["window"])
        return params

    def make_engine(self, metric, objects, params, dtype):
        return DtwEngine(objects, params.get("window"), dtype)

    def draw_random_objects(self, X, flavour, n, rng, **params):
        return draw_random_series(flavour, n, rng, **{**self.sampler_defaults, **params})


SERIES = SeriesDomain()
