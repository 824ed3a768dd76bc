"""Input validation shared by every estimator and distance function.

Each checker turns user input into the exact form the compiled core takes and
raises ValueError/TypeError naming the argument (and the item index) when it
cannot.
"""

import numbers

import numpy as np

from . import _core


def check_strings(X, name="X"):
    """A non-empty list of str, or of bytes (not mixed), from any iterable.

    Returns ``(strings, is_bytes)``.
    """
    if isinstance(X, (str, bytes, bytearray)):
        raise TypeError(
            f"{name} must be a sequence of strings, got a single {type(X).__name__}; "
            f"wrap it in a list: [{name}]"
        )
    if isinstance(X, np.ndarray):
        if X.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got an array of shape {X.shape}")
        X = X.tolist()
    elif not isinstance(X, list):
        try:
            X = list(X)
        except TypeError:
            raise TypeError(
                f"{name} must be a sequence of str or bytes, got {type(X).__name__}"
            ) from None
    if len(X) == 0:
        raise ValueError(f"{name} is empty: at least one string is required")
    types = set(map(type, X))
    if types == {str}:
        return X, False
    if types == {bytes}:
        return X, True
    # Subclasses (numpy.str_, numpy.bytes_) are fine; bytearray and others are not.
    first_kind = None
    for i, item in enumerate(X):
        if isinstance(item, str):
            kind = "str"
        elif isinstance(item, bytes):
            kind = "bytes"
        else:
            raise TypeError(
                f"{name}[{i}] is {type(item).__name__}, expected str or bytes"
            )
        if first_kind is None:
            first_kind = kind
        elif kind != first_kind:
            raise TypeError(
                f"{name} mixes str and bytes ({name}[{i}] is {kind}, earlier items are "
                f"{first_kind}); pass all str or all bytes"
            )
    return X, first_kind == "bytes"


def check_positive_int(value, name, minimum=1):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def check_real(value, name, *, positive=False, non_negative=False):
    """A finite real number (not bool), optionally > 0 or >= 0; returned as float."""
    sign = "positive and " if positive else "non-negative and " if non_negative else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        kind = "positive" if positive else "non-negative" if non_negative else "finite"
        raise TypeError(f"{name} must be a {kind} number, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or (positive and value <= 0) or (non_negative and value < 0):
        raise ValueError(f"{name} must be {sign}finite, got {value!r}")
    return value


def check_positive_real(value, name):
    return check_real(value, name, positive=True)


def check_non_negative_real(value, name):
    return check_real(value, name, non_negative=True)


def check_gamma(gamma, name="gamma"):
    """'auto' or a positive finite number."""
    if isinstance(gamma, str):
        if gamma != "auto":
            raise ValueError(f"{name} must be 'auto' or a positive number, got {gamma!r}")
        return gamma
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, numbers.Real):
        raise TypeError(f"{name} must be 'auto' or a positive number, got {gamma!r}")
    return check_positive_real(gamma, name)


def check_choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


def check_dtype(dtype, name="dtype"):
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{name} must be numpy.float32 or numpy.float64, got {dtype!r}") from None
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"{name} must be numpy.float32 or numpy.float64, got {dt}")
    return dt


def effective_n_threads(n_jobs, name="n_jobs"):
    """Threads for the compiled core, following scikit-learn's convention.

    None and -1: every core OpenMP may use (OMP_NUM_THREADS is honoured);
    a positive n: n threads; -2, -3, ...: all but 1, 2, ... cores; 0: error.
    """
    available = max(1, _core.max_threads())
    if n_jobs is None:
        return available
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"{name} must be None or an integer, got {n_jobs!r}")
    if n_jobs == 0:
        raise ValueError(f"{name} == 0 is not allowed; use None, -1 or a positive integer")
    if n_jobs < 0:
        return max(1, available + 1 + int(n_jobs))
    return int(n_jobs)


def check_series(X, name="X", dtype=np.float64):
    """A non-empty list of time series, each shaped (length,) or (length, channels).

    Lengths may differ; channel counts may not. Returns a PackedSeries of
    `dtype` (float32 or float64). Raises ValueError naming the series index for
    empty series, NaN/inf values, 3-D arrays and mixed channel counts, and
    TypeError for non-numeric data.
    """
    from ._series import PackedSeries

    if isinstance(X, PackedSeries):
        return X.astype(dtype)
    if isinstance(X, np.ndarray) and X.dtype != object:
        if X.ndim == 3:  # equal-length collection (n_series, length, channels)
            X = list(X)
        elif X.ndim == 2:  # equal-length univariate collection (n_series, length)
            X = list(X)
        else:
            raise ValueError(
                f"{name} must be a list of series or an array of shape (n_series, length[, channels]), "
                f"got an array of shape {X.shape}"
            )
    elif isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of time series, got {type(X).__name__}")
    else:
        try:
            X = list(X)
        except TypeError:
            raise TypeError(f"{name} must be a sequence of time series, got {type(X).__name__}") from None
    if len(X) == 0:
        raise ValueError(f"{name} is empty: at least one series is required")
    series = []
    channels = None
    for i, s in enumerate(X):
        if isinstance(s, (str, bytes)):
            raise TypeError(f"{name}[{i}] is {type(s).__name__}, expected a numeric array")
        a = np.asarray(s)
        if a.dtype == object or not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
            raise TypeError(f"{name}[{i}] has dtype {a.dtype}, expected a numeric array")
        if np.issubdtype(a.dtype, np.complexfloating):
            raise TypeError(f"{name}[{i}] is complex; DTW needs real values")
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
    packed = PackedSeries.from_list(series, dtype)
    finite = np.isfinite(packed.values).all(axis=1)
    if not finite.all():
        step = int(np.argmin(finite))
        i = int(np.searchsorted(packed.offsets, step, side="right") - 1)
        raise ValueError(f"{name}[{i}] contains NaN or infinity (at step {step - packed.offsets[i]})")
    return packed


def check_window(window, name="window"):
    """None (no window) or a non-negative integer; returned as -1 for None."""
    if window is None:
        return -1
    if isinstance(window, (bool, np.bool_)) or not isinstance(window, numbers.Integral):
        raise TypeError(f"{name} must be None or a non-negative integer, got {window!r}")
    if window < 0:
        raise ValueError(f"{name} must be >= 0 (or None for no window), got {window}")
    return int(window)


def check_finite_output(out, name="X", offset=0):
    """Raise ValueError if a computed block holds NaN or infinity.

    Finite inputs can still overflow: distances between values near the
    float64 (or float32) limit, or projections of them. Row r of `out` comes
    from item `offset + r` of the input called `name`.
    """
    values = out.data if hasattr(out, "data") and not isinstance(out, np.ndarray) else out
    if values.size == 0 or np.isfinite(values).all():
        return out
    finite = np.isfinite(out).all(axis=1) if isinstance(out, np.ndarray) and out.ndim == 2 else None
    where = f" ({name}[{offset + int(np.argmin(finite))}])" if finite is not None else ""
    raise ValueError(
        f"the result overflowed to infinity or NaN{where}: the values of {name} are too large for "
        f"{np.asarray(values).dtype} arithmetic; rescale the input"
    )
