"""Time series: a list of arrays of shape (length,) or (length, channels),
lengths free, one channel count; compared by dynamic time warping (Euclidean
ground cost across channels, summed along the path, optional Sakoe-Chiba
window); random series of Gaussian values."""

import numbers
import sys

import numpy as np

from .. import _core
from .._ragged import Ragged
from .._validation import as_list, item_rows, real_array, warn_user
from .base import Metric, RaggedDomain

# Random series: lengths uniform on {MIN_LENGTH..MAX_LENGTH}, values N(0, SCALE^2).
# Lengths 2..10 as the D2KE paper says ("random time series of length uniform
# in [2, 10]"); until issue 22 they were 1..10. A length-1 random series is a
# constant: DTW to it is sum_t ||x_t - c||, a statistic of the values that
# ignores their order, so it spends a feature on no shape. Measured (issue 22,
# the nine z-normalised datasets of `python -m pyd2ke timeseries`, R=256,
# max_length=10, ridge, 3-fold CV repeated twice on the training parts only):
# mean CV accuracy 0.771 with lengths 2..10 against 0.762 with 1..10: better
# on 4 datasets, worse on 4, one tie, the mean carried by ACSF1 (0.540 vs
# 0.475), the other differences within CV noise (at most 0.033). No
# measurement favours 1, so the paper's range is the default.
MIN_LENGTH, MAX_LENGTH, SCALE = 2, 10, 1.0


def check_series(X, name="X", dtype=np.float64):
    """A non-empty list of time series, each shaped (length,) or (length, channels).

    Lengths may differ; channel counts may not. A 3-D array is (n_series,
    length, channels) and is refused when it has more channels than steps
    (aeon's (n_cases, n_channels, n_timepoints), read the other way round).
    Returns a Ragged of `dtype`
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
    if isinstance(X, np.ndarray) and X.ndim == 3 and X.shape[2] > X.shape[1]:
        # aeon and sktime hold (n_cases, n_channels, n_timepoints): read as
        # pyd2ke's layout it would silently swap steps and channels.
        n, a, b = X.shape
        raise ValueError(
            f"{name} is an array of shape {X.shape}: in pyd2ke's layout (n_series, length, channels) that is "
            f"{n} series of {a} steps with {b} channels, more channels than steps. If it is aeon's or sktime's "
            f"layout (n_cases, n_channels, n_timepoints), pass {name}.transpose(0, 2, 1); if it really has more "
            f"channels than steps, pass a list of (length, channels) arrays"
        )
    # An array (n_series, length[, channels]) is an equal-length collection.
    pandas = sys.modules.get("pandas")  # pyd2ke does not need it: only a user's pandas data has its index
    long_format = pandas is not None and isinstance(getattr(X, "index", None), pandas.MultiIndex)
    X = as_list(X, name, "time series", item="series", rows_of="time step")
    packed = Ragged.pack_arrays(X, dtype, name, "step")  # plain arrays: packed by the core
    if packed is not None:
        return packed
    series = []
    channels = None
    for i, s in enumerate(X):
        a = real_array(s, f"{name}[{i}]", "DTW needs real values")
        if a.ndim == 0:
            fix = (f"{name} looks like a long-format panel (a MultiIndex of instance and time, as aeon's and sktime's "
                   f"pd-multiindex): pass one array per series, e.g. [g.to_numpy() for _, g in "
                   f"{name}.groupby(level=0)], or use the adapters of pyd2ke.aeon or pyd2ke.sktime" if long_format
                   else f"if {name} is one series, pass [{name}]")
            raise ValueError(f"{name}[{i}] is a single number, not a series: {fix}")
        a = item_rows(a, f"{name}[{i}]", "a series is (length,) or (length, channels)",
                      "a series needs at least one step", "has no channels")
        if channels is None:
            channels, first_rows = a.shape[1], a.shape[0]
        elif a.shape[1] != channels:
            # aeon's unequal-length cases (n_channels, n_timepoints) share their rows, not their columns.
            hint = (f"; every series so far has {first_rows} rows: if they are aeon's or sktime's (n_channels, "
                    f"n_timepoints) cases, pass [x.T for x in {name}] (pyd2ke reads (length, channels))"
                    if all(s.shape[0] == first_rows for s in series) and a.shape[0] == first_rows else "")
            raise ValueError(f"{name}[{i}] has {a.shape[1]} channels, but {name}[0] has {channels}{hint}")
        series.append(a)
    return Ragged.pack(series, dtype).check_finite(name, "step")


class SeriesLayoutWarning(UserWarning):
    """Every series has more channels than steps: the look of aeon's or
    sktime's (n_channels, n_timepoints) cases read as (length, channels)."""


def warn_if_channels_first(packed, name="X"):
    """A SeriesLayoutWarning when every series of the checked `packed` (two
    or more) has more channels than steps. Only a warning, unlike the 3-D
    array that check_series refuses: a list is the way to pass series that
    really are a few wide steps (sequences of word vectors, say)."""
    lengths = packed.lengths()
    # Two series at least: a collection read the wrong way round has many,
    # and one short wide series (a query) is no sign of it.
    if packed.dim > 1 and lengths.size >= 2 and packed.dim > lengths.max():
        steps = f"{lengths[0]} step{'' if lengths[0] == 1 else 's'}"
        warn_user(f"every series of {name} has more channels than steps ({name}[0]: {steps} of {packed.dim} "
                  f"channels). pyd2ke reads a series as (length, channels): if these are aeon's or sktime's "
                  f"(n_channels, n_timepoints) cases, pass [x.T for x in {name}]", SeriesLayoutWarning)
    return packed


# Fit values whose root mean square exceeds this many times the random
# series' scale: DTW then sees their size and offset more than their shape
# (RandomWarpingSeries() on GunPoint, 0.993 as given: 0.960 at +10, 0.847 at
# +100, 0.813 at x10, 0.540 at x100; below the scale it held, 0.987 at x0.01).
_FAR_FROM_RANDOM = 5.0


def warn_if_far_from_random(packed, scale, name="X"):
    """A warning when the fit series' values are far larger than the random
    series' N(0, scale^2) values, by offset or by units."""
    rms = float(np.sqrt(np.mean(np.square(packed.values, dtype=np.float64)))) if packed.values.size else 0.0
    if rms > _FAR_FROM_RANDOM * scale:
        warn_user(f"the values of {name} have root mean square {rms:.3g}, over {_FAR_FROM_RANDOM:g} times the "
                  f"scale of the random series (N(0, scale^2), scale={scale:g}): their distances then measure the "
                  f"values' size and offset more than their shape (on GunPoint, shifting the series by 100 cost 15 "
                  f"points of accuracy). z-normalise the series (pyd2ke.timeseries.znormalize, or aeon's Normalizer "
                  f"before the aeon adapters), or set RandomWarpingSeries' scale near their spread")


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


def append_derivatives(packed, eps=1e-8):
    """The series of a Ragged with their first derivatives appended as extra
    channels (channels c..2c-1 hold the derivatives of channels 0..c-1).

    The derivative is np.gradient's (central differences inside, one-sided
    at both ends, 0 for a one-step series), then divided by its root mean
    square per series and channel (left as is when that is <= eps), so that
    it weighs about as much as a z-normalised value channel in the Euclidean
    ground cost. It is not centred: a rising and a falling series keep
    derivatives of opposite signs. Same offsets, same dtype; whole-array
    operations, no loop over series.
    """
    values = packed.values[packed.offsets[0]:packed.offsets[-1]]
    offsets = packed.offsets - packed.offsets[0]
    lengths = np.diff(offsets)
    starts, ends = offsets[:-1], offsets[1:] - 1
    x = np.asarray(values, dtype=np.float64)
    # Halved differences cannot overflow; the scale goes with the z-normalisation.
    g = np.zeros_like(x)
    g[1:-1] = 0.25 * x[2:] - 0.25 * x[:-2]
    two = lengths > 1
    g[starts[two]] = 0.5 * x[starts[two] + 1] - 0.5 * x[starts[two]]
    g[ends[two]] = 0.5 * x[ends[two]] - 0.5 * x[ends[two] - 1]
    g[starts[~two]] = 0.0
    # Unit root mean square per series and channel, after dividing by the
    # largest magnitude (squares of values near the float64 limit would
    # overflow). Not centred: the mean slope (a rise or a fall) is kept.
    step = np.repeat(np.arange(len(lengths)), lengths)
    top = np.maximum.reduceat(np.abs(g), starts, axis=0)
    top = np.where(top > 0, top, 1.0)
    g /= top[step]
    rms = np.sqrt(np.add.reduceat(g * g, starts, axis=0) / lengths[:, None])
    g /= np.where(rms * top <= eps, 1.0, rms)[step]
    both = np.ascontiguousarray(np.hstack([x, g]), dtype=values.dtype)
    return Ragged(both, offsets)


class DerivativeEngine:
    """A series engine whose inputs get their derivative channels appended
    (append_derivatives) before the distances; the random series it holds
    have the extra channels already (`channels` values per step). Inputs
    that already have them pass as they are, so a caller that needs the
    augmented series for other work too computes them once."""

    def __init__(self, engine, channels):
        self._engine = engine
        self._channels = channels

    def _augmented(self, X):
        return X if X.values.shape[1] == self._channels else append_derivatives(X)

    def distances_into(self, X, out, n_threads):
        self._engine.distances_into(self._augmented(X), out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        self._engine.features_into(self._augmented(X), gamma, kernel, out, n_threads)


def draw_random_series(channels, n, rng, min_length=MIN_LENGTH, max_length=MAX_LENGTH, scale=SCALE):
    """n random series: lengths U{min_length..max_length}, values N(0, scale^2)."""
    lengths = rng.randint(min_length, max_length + 1, size=n)
    return [rng.normal(0.0, scale, size=(d, channels)) for d in lengths]


class SeriesDomain(RaggedDomain):
    name = "time series"
    items_are_tables = True
    far_from_random_hint = ("the random series are N(0, scale^2), so series far from 0 or in large units are "
                            "about equally far from all of them: z-normalise them (pyd2ke.timeseries.znormalize) "
                            "or set scale to their spread")
    input_format = "an array of shape (length,) or (length, channels); lengths may differ"
    metrics = {"dtw": Metric("dtw", params=("window",), symmetric=True,
                             summary="dynamic time warping with the Euclidean norm across channels as ground cost, "
                                     "summed along the path (no normalisation, no final sqrt); keyword ``window``: "
                                     "None, or a Sakoe-Chiba half-width >= 0, widened to the length difference of "
                                     "each pair so that a path always exists")}
    sampler_defaults = {"min_length": MIN_LENGTH, "max_length": MAX_LENGTH, "scale": SCALE}

    def check_ragged(self, X, name, dtype):
        return check_series(X, name, dtype)

    def settle_layout(self, X, flavour):
        # An array with fewer steps than channels is refused as aeon's layout
        # read the wrong way round, unless the known channel count says it is
        # pyd2ke's (and tslearn's): then its series are read one by one.
        if isinstance(X, np.ndarray) and X.ndim == 3 and X.shape[1] < X.shape[2] == flavour:
            return list(X)
        return X

    def check_layout(self, X, name="X"):
        warn_if_channels_first(X, name)

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
        params = {**self.sampler_defaults, **params}
        warn_if_far_from_random(X, params["scale"])
        return draw_random_series(flavour, n, rng, **params)


SERIES = SeriesDomain()
