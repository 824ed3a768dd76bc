"""Exact distances between collections of structured objects."""

import numpy as np

from ._domains import METRICS, check_metric_params, domain_for
from ._parallel import chunk_bounds
from ._validation import check_dtype, check_finite_output, effective_n_threads


def pairwise_distances(X, Y=None, metric="levenshtein", n_jobs=None, dtype=np.float64, **metric_params):
    """Distance matrix between the objects of X and Y.

    Parameters
    ----------
    X : sequence of objects
        "levenshtein": str, or bytes (not mixed). "dtw": time series, each an
        array of shape (length,) or (length, channels); lengths may differ.
        "hausdorff", "modified_hausdorff": sets of vectors, each an array of
        shape (n_points, dim); sizes may differ, dim may not. "emd":
        documents, each a pair (word vectors (n_words, dim), weights
        (n_words,)), or a tuple (embeddings (vocabulary, dim),
        scipy.sparse bag-of-words matrix (n_documents, vocabulary)).
    Y : sequence of objects or None, default=None
        None means Y = X.
    metric : str or callable, default="levenshtein"
        A callable d(a, b) -> float >= 0 is called once per pair from Python
        (slow; rows are split over n_jobs threads). Built-in names:
        "levenshtein": unit-cost edit distance on code points (str) or bytes.
        "dtw": dynamic time warping with the Euclidean norm across channels as
        ground cost, summed along the path (no normalisation, no final sqrt).
        "hausdorff": ``max(max_a min_b |a - b|, max_b min_a |a - b|)``.
        "modified_hausdorff": the same with means in place of the outer maxima
        (Dubuisson & Jain). "emd": the exact Earth Mover's distance between
        the weight distributions (each normalised to sum 1) with Euclidean
        ground distance, solved in float64 by a transportation simplex.
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The result does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type, and for the numeric metrics also the arithmetic precision
        (for "emd", of the ground distances; the transport is always float64).
    **metric_params
        "dtw": ``window`` (None, or a Sakoe-Chiba half-width >= 0, widened to
        the length difference of each pair so that a path always exists).

    Returns
    -------
    D : ndarray of shape (len(X), len(Y))
    """
    domain = domain_for(metric)
    params = check_metric_params(domain, metric, metric_params, "keyword arguments")
    dtype = check_dtype(dtype)
    X, flavour_x = domain.check(X, "X", dtype)
    if Y is None:
        Y, flavour_y = X, flavour_x
    else:
        Y, flavour_y = domain.check(Y, "Y", dtype)
    if flavour_x != flavour_y:
        raise domain.flavour_error("Y", flavour_y, flavour_x)
    n_threads = effective_n_threads(n_jobs)
    engine = domain.make_engine(metric, Y, params, dtype)
    out = np.empty((len(X), len(Y)), dtype=dtype)
    for start, stop in chunk_bounds(X):
        engine.distances_into(X[start:stop], out[start:stop], n_threads)
        check_finite_output(out[start:stop], "X", start)
    return out


__all__ = ["pairwise_distances", "METRICS"]
