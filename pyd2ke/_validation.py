"""Input validation shared by every estimator and distance function.

Each checker turns user input into the exact form the compiled core takes
(lists of str or bytes; PackedSeries and PackedSets: values, offsets and
weights in one array each) and raises ValueError/TypeError naming the
argument (and the item index) when it cannot. Parameters (counts, reals,
choices, dtypes, n_jobs) and computed outputs (overflow) are checked here too.
"""

import numbers
import os

import numpy as np
import scipy.sparse as sp

from . import _core
from ._sets import PackedSets, segment_sums


def check_strings(X, name="X", allow_empty=True):
    """A non-empty list of str, or of bytes (not mixed), from any iterable.

    Returns ``(strings, is_bytes)``. With allow_empty=False, empty strings are
    errors too (ESP and CGK need a character).
    """
    X, is_bytes = _check_string_list(X, name)
    if not allow_empty:
        for i, s in enumerate(X):
            if len(s) == 0:
                raise ValueError(f"{name}[{i}] is an empty string; ESP and CGK need at least one character")
    return X, is_bytes


def _check_string_list(X, name):
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


def check_objects(X, name="X"):
    """A non-empty list of arbitrary objects (for a Python metric), from any iterable."""
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of objects, got a single {type(X).__name__}")
    try:
        X = list(X)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of objects, got {type(X).__name__}") from None
    if len(X) == 0:
        raise ValueError(f"{name} is empty: at least one object is required")
    return X


# Counts (random objects, lengths, sizes) above this cannot be meant: they
# would exhaust memory or run for days rather than fail.
MAX_COUNT = 1 << 24


def check_positive_int(value, name, minimum=1, maximum=MAX_COUNT):
    """An integer in [minimum, maximum] (maximum None: no upper bound)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
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
    # More threads than a few per core only add overhead, and millions would
    # abort the OpenMP runtime; the output does not depend on the count.
    return int(min(n_jobs, 4 * max(available, os.cpu_count() or 1)))


def _real_array(a, label, why_real):
    """a as an array of real numbers (or booleans); TypeError naming label otherwise."""
    if isinstance(a, (str, bytes)):
        raise TypeError(f"{label} is {type(a).__name__}, expected a numeric array")
    a = np.asarray(a)
    if a.dtype == object or not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
        raise TypeError(f"{label} has dtype {a.dtype}, expected a numeric array")
    if np.issubdtype(a.dtype, np.complexfloating):
        raise TypeError(f"{label} is complex; {why_real}")
    return a


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
        a = _real_array(s, f"{name}[{i}]", "DTW needs real values")
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


# --- sets of vectors and documents -> PackedSets ------------------------------------


def _as_list(X, name, what):
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of {what}, got {type(X).__name__}")
    if isinstance(X, np.ndarray) and X.dtype != object and X.ndim == 3:
        return list(X)  # equal-size collection (n_items, n_points, dim)
    try:
        X = list(X)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of {what}, got {type(X).__name__}") from None
    if len(X) == 0:
        raise ValueError(f"{name} is empty: at least one item is required")
    return X


def _points(a, label, dim):
    """One item's points as a 2-D real array; dim is the first item's dimension."""
    a = _real_array(a, label, "distances need real coordinates")
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"{label} has {a.ndim} dimensions; expected (n_points, dim)")
    if a.shape[0] == 0:
        raise ValueError(f"{label} is empty: a set needs at least one point")
    if a.shape[1] == 0:
        raise ValueError(f"{label} has points with no coordinates")
    if dim is not None and a.shape[1] != dim:
        raise ValueError(f"{label} has points of dimension {a.shape[1]}, but the first item's are {dim}")
    return a


def _pack(items, weights, dtype, name):
    lengths = np.fromiter((len(a) for a in items), dtype=np.int64, count=len(items))
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    # One pass: the concatenation casts (float64 -> float32 among others).
    values = np.concatenate(items, axis=0, dtype=dtype, casting="unsafe")
    finite = np.isfinite(values).all(axis=1)
    if not finite.all():
        row = int(np.argmin(finite))
        i = int(np.searchsorted(offsets, row, side="right") - 1)
        raise ValueError(f"{name}[{i}] contains NaN or infinity (at point {row - offsets[i]})")
    if weights is not None:
        weights = np.ascontiguousarray(np.concatenate(weights), dtype=np.float64)
        check_document_weights(weights, offsets, name)
    return PackedSets(values, offsets, weights)


def check_document_weights(weights, offsets, name):
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        row = int(np.argmax(bad))
        i = int(np.searchsorted(offsets, row, side="right") - 1)
        raise ValueError(
            f"{name}[{i}] has weight {float(weights[row])!r} (word {row - offsets[i]}); weights must be finite and >= 0"
        )
    empty = np.flatnonzero(segment_sums(weights > 0, offsets) == 0)
    if len(empty):
        raise ValueError(f"{name}[{int(empty[0])}] has only zero weights; a document needs some positive weight")


def check_point_sets(X, name="X", dtype=np.float64):
    """A non-empty list of sets, each an array (n_points, dim) with n_points >= 1.

    Set sizes may differ; dimensions may not. Returns a PackedSets of dtype.
    """
    if isinstance(X, PackedSets):
        if X.weights is not None:
            raise TypeError(f"{name} holds documents (vectors with weights), expected sets of vectors")
        return X.astype(dtype)
    X = _as_list(X, name, "sets of vectors (arrays of shape (n_points, dim))")
    items, dim = [], None
    for i, s in enumerate(X):
        if isinstance(s, tuple):
            raise TypeError(f"{name}[{i}] is a tuple; sets are arrays of shape (n_points, dim)")
        a = _points(s, f"{name}[{i}]", dim)
        dim = a.shape[1]
        items.append(a)
    return _pack(items, None, dtype, name)


def documents_from_bow(embeddings, bow, name="X", dtype=np.float64, word_weights=None):
    """Documents from an embedding matrix (vocabulary, dim) and a bag-of-words
    matrix (n_documents, vocabulary) of counts: document i is the embeddings
    of its non-zero words, weighted by count (times word_weights, e.g. idf)."""
    E = _points(embeddings, "embeddings", None)
    if not np.isfinite(E).all():
        raise ValueError("embeddings contain NaN or infinity")
    if sp.issparse(bow):
        B = sp.csr_matrix(bow, dtype=np.float64)
        # Canonical form (sorted, summed, no stored zeros) is fixed on a copy:
        # csr_matrix may share the caller's arrays.
        if not B.has_canonical_format or not B.data.all():
            B = B.copy()
            B.sum_duplicates()
            B.eliminate_zeros()
    else:
        B = np.asarray(bow)
        if B.ndim != 2 or not np.issubdtype(B.dtype, np.number):
            raise ValueError(f"{name} must be a 2-D (sparse) matrix of word counts, got shape {B.shape}")
        B = sp.csr_matrix(B.astype(np.float64))
        B.eliminate_zeros()
    if B.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one document is required")
    if B.shape[1] != E.shape[0]:
        raise ValueError(
            f"{name} has {B.shape[1]} columns (words), but embeddings has {E.shape[0]} rows; they must match"
        )
    offsets = B.indptr.astype(np.int64)
    weights = B.data.copy()
    if word_weights is not None:
        weights *= word_weights[B.indices]
    check_document_weights(weights, offsets, name)
    # The words these documents use, as a small vocabulary of their own; the
    # word vectors of every occurrence are written out only if needed.
    used, word_ids = np.unique(B.indices, return_inverse=True)
    vocabulary = np.ascontiguousarray(E[used], dtype=dtype)
    return PackedSets(None, offsets, weights, word_ids.astype(np.int64), vocabulary)


def check_documents(X, name="X", dtype=np.float64):
    """Documents as a list of (word vectors (n_words, dim), weights (n_words,))
    pairs, or as a tuple (embeddings, scipy.sparse bag-of-words matrix). Returns a PackedSets
    with weights (not normalised: the EMD normalises each document)."""
    if isinstance(X, PackedSets):
        if X.weights is None:
            raise TypeError(f"{name} holds sets without weights, expected documents")
        return X.astype(dtype)
    if isinstance(X, tuple) and len(X) == 2 and sp.issparse(X[1]):
        return documents_from_bow(X[0], X[1], name, dtype)
    X = _as_list(X, name, "documents ((word vectors, weights) pairs)")
    items, weights, dim = [], [], None
    for i, doc in enumerate(X):
        if not (isinstance(doc, (tuple, list)) and len(doc) == 2):
            raise TypeError(
                f"{name}[{i}] is {type(doc).__name__}; a document is a pair (word vectors, weights)"
            )
        a = _points(doc[0], f"{name}[{i}] vectors", dim)
        dim = a.shape[1]
        w = np.asarray(doc[1])
        if w.dtype == object or not (np.issubdtype(w.dtype, np.number) or w.dtype == bool) or np.iscomplexobj(w):
            raise TypeError(f"{name}[{i}] weights have dtype {w.dtype}, expected real numbers")
        if w.ndim != 1 or len(w) != len(a):
            raise ValueError(
                f"{name}[{i}] has {len(a)} word vectors but weights of shape {w.shape}; one weight per word"
            )
        items.append(a)
        weights.append(w)
    return _pack(items, weights, dtype, name)
