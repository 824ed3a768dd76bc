"""Exact distances between collections of structured objects."""

import numpy as np

from ._domains import METRICS, check_metric_params, domain_for, fill_metrics_doc
from ._domains.strings import with_default_metric_hint
from ._parallel import chunk_bounds, using_threads
from ._validation import check_dtype, check_finite_output, effective_n_threads, errors_labelled, item_columns


@fill_metrics_doc
def pairwise_distances(X, Y=None, metric="levenshtein", n_jobs=None, dtype=np.float64, **metric_params):
    """Distance matrix between the objects of X and Y.

    Parameters
    ----------
    X : sequence of objects
        In the form the metric takes (below).
    Y : sequence of objects or None, default=None
        None means Y = X.
    metric : str or callable, default="levenshtein"
        A callable d(a, b) -> float >= 0 is called once per pair from Python
        (slow; rows are split over n_jobs threads). Built-in names:

        <the built-in metrics>

    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The result does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type, and for the numeric metrics also the arithmetic precision
        (for "emd", of the ground distances; the transport is always float64).
        Ground costs over several channels or dimensions square differences:
        in float32, differences below about 1e-19 lose digits and below
        about 2e-23 vanish (values of that size are better scaled up, or
        computed in float64).
    **metric_params
        The keywords of the metric (above), e.g. ``window=5`` for "dtw".

    Returns
    -------
    D : ndarray of shape (len(X), len(Y))
    """
    with using_threads(effective_n_threads(n_jobs)), errors_labelled(X, "X"), errors_labelled(Y, "Y"):
        return _pairwise_distances(X, Y, metric, n_jobs, dtype, metric_params)  # packing X and Y on the threads too


def _pairwise_distances(X, Y, metric, n_jobs, dtype, metric_params):
    domain = domain_for(metric)
    params = check_metric_params(domain, metric, metric_params, "keyword arguments")
    dtype = check_dtype(dtype)
    X, Y = domain.encode_pairwise(X, Y)
    if domain.items_are_tables:
        columns_x = item_columns(X, "X")
        columns_y = columns_x if Y is None else item_columns(Y, "Y")
        if None not in (columns_x, columns_y) and columns_x != columns_y:
            raise ValueError(f"Y's objects are tables with the columns {columns_y}, but X's have {columns_x}: "
                             f"tables are read by position, so select X's columns, in their order "
                             f"(table[{columns_x}])")
    try:
        X, flavour_x = domain.check(X, "X", dtype)
    except (TypeError, ValueError) as error:
        if metric != "levenshtein":
            raise
        # The default metric met arrays or numbers: name the metric the user did not choose.
        raise with_default_metric_hint(error) from None
    domain.check_layout(X, "X")
    if Y is None:
        Y, flavour_y = X, flavour_x
    else:
        Y, flavour_y = domain.check(domain.settle_layout(Y, flavour_x), "Y", dtype)
        domain.check_layout(Y, "Y")
    if flavour_x != flavour_y:
        raise domain.flavour_error("Y", flavour_y, flavour_x)
    n_threads = effective_n_threads(n_jobs)
    if Y is X and getattr(domain.metrics.get(metric), "symmetric", False) and len(X) >= 2 * _SYMMETRIC_BLOCK:
        return _symmetric_distances(domain, metric, X, params, dtype, n_threads)
    engine = domain.make_engine(metric, Y, params, dtype)
    out = np.empty((len(X), len(Y)), dtype=dtype)
    for start, stop in chunk_bounds(X):
        engine.distances_into(X[start:stop], out[start:stop], n_threads)
        check_finite_output(out[start:stop], "X", start)
    return out


# Objects a column block of the symmetric path at least: an engine per
# block, and rows of the diagonal blocks computed twice.
_SYMMETRIC_BLOCK = 64


def _symmetric_distances(domain, metric, X, params, dtype, n_threads):
    """pairwise_distances(X) of a metric whose d(a, b) and d(b, a) are the
    same bits: X cut into about 8 column blocks, each block's distances to
    the rows up to its end computed once and written to both triangles
    (56 % of the pairs; rapidfuzz's cdist(X, X) does the same)."""
    n = len(X)
    out = np.empty((n, n), dtype=dtype)
    step = max(_SYMMETRIC_BLOCK, -(-n // 8))
    for start in range(0, n, step):
        stop = min(n, start + step)
        engine = domain.make_engine(metric, X[start:stop], params, dtype)
        block = np.empty((stop, stop - start), dtype=dtype)
        for row_start, row_stop in chunk_bounds(X[:stop]):
            engine.distances_into(X[row_start:row_stop], block[row_start:row_stop], n_threads)
            check_finite_output(block[row_start:row_stop], "X", row_start)
        out[:stop, start:stop] = block
        out[start:stop, :stop] = block.T
    return out


__all__ = ["pairwise_distances", "METRICS"]
