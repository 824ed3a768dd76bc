"""Exact distances between collections of structured objects."""

import numpy as np

from ._chunks import chunk_bounds
from ._metrics import METRICS, get_metric
from ._validation import check_dtype, effective_n_threads


def pairwise_distances(X, Y=None, metric="levenshtein", n_jobs=None, dtype=np.float64):
    """Distance matrix between the objects of X and Y.

    Parameters
    ----------
    X : sequence of objects (for "levenshtein": str, or bytes, not mixed)
    Y : sequence of objects or None, default=None
        None means Y = X.
    metric : str, default="levenshtein"
        "levenshtein": unit-cost edit distance on code points (str) or bytes.
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The result does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64

    Returns
    -------
    D : ndarray of shape (len(X), len(Y))
    """
    m = get_metric(metric)
    X, flavour_x = m.check(X, "X")
    if Y is None:
        Y, flavour_y = X, flavour_x
    else:
        Y, flavour_y = m.check(Y, "Y")
    if flavour_x != flavour_y:
        raise TypeError("X and Y must hold the same kind of objects (both str or both bytes)")
    dtype = check_dtype(dtype)
    n_threads = effective_n_threads(n_jobs)
    engine = m.make_engine(Y)
    out = np.empty((len(X), len(Y)), dtype=dtype)
    for start, stop in chunk_bounds(X):
        engine.distances_into(X[start:stop], out[start:stop], n_threads)
    return out


__all__ = ["pairwise_distances", "METRICS"]
