"""What DensityKernelFeatures and MeanEmbeddingFeatures share: parameter
checks, the fit-time scaling onto [0, 1]^l, fixed blocks of sets run on
n_jobs threads, and the final RBF random Fourier features."""

import math
import numbers

import numpy as np
from scipy.spatial.distance import pdist
from sklearn.utils import check_random_state

from .. import _core
from .._base import Interval, Pyd2keTransformer, StrOptions
from .._blas import matmul_rows, pad_columns
from .._domains.point_sets import check_point_sets
from .._parallel import run_row_blocks
from .._ragged import Ragged
from .._validation import MAX_COUNT, check_positive_int, effective_n_threads

# Blocks of sets: at most this many sets or sample points (subclasses may
# lower the number of sets to bound their per-set buffers).
_BLOCK_SETS = 64
_BLOCK_POINTS = 1 << 15
# Points per thread below which scaling them is not split further.
_SCALE_ROWS = 1 << 14
# Fit sets whose pairwise embedding distances set sigma="median".
_MEDIAN_SETS = 256
# A width (bandwidth, sigma): a positive number, or the rule that sets it at fit.
POSITIVE = Interval(numbers.Real, 0, None, closed="neither")
EVEN_COUNT = Interval(numbers.Integral, 2, MAX_COUNT, closed="both")  # _check_even adds "even"


# ---- parameter checks ----------------------------------------------------------
def _check_positive_real(value, name, choices=()):
    """One of the string `choices` or a positive finite number."""
    what = " or ".join([repr(c) for c in choices] + ["a positive number"])
    if isinstance(value, str):
        if value in choices:
            return value
        raise ValueError(f"{name} must be {what}, got {value!r}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r}")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be > 0 and finite, got {value!r}")
    return float(value)


def _check_even(n_components):
    n = check_positive_int(n_components, "n_components", minimum=2)
    if n % 2:
        raise ValueError(f"n_components must be even (sin and cos of each random frequency), got {n}")
    return n


def _set_blocks(packed, max_sets=_BLOCK_SETS):
    """(start, stop) ranges of sets: at most max_sets sets and, unless one
    set is larger, _BLOCK_POINTS points each. They depend on the data and the
    fitted state only, never on n_jobs."""
    offsets = np.asarray(packed.offsets)
    n_sets = len(offsets) - 1
    bounds, start = [], 0
    # One step per block, not per set: the first set past the point budget
    # found by bisection on the running point counts.
    while start < n_sets:
        over = int(np.searchsorted(offsets, offsets[start] + _BLOCK_POINTS, side="right")) - 1
        stop = min(start + max_sets, max(over, start + 1), n_sets)
        bounds.append((start, stop))
        start = stop
    return bounds or [(0, 0)]


def _scale_rows(values, low, width, out, n_threads):
    """out = (values - low) / width, row ranges on n_threads threads (numpy
    releases the GIL): two passes over every point, which on one thread
    were half of the density transform's serial part. Returns the least and
    the largest scaled value (each block's, read while in cache; over all
    columns at once: per column, numpy's strided reduction cost 10% of the
    transform)."""
    n = len(values)
    step = max(_SCALE_ROWS, -(-n // max(1, n_threads)))
    blocks = [(start, min(n, start + step)) for start in range(0, n, step)]
    if not blocks:
        return 0.0, 0.0
    extremes = [None] * len(blocks)  # every block is non-empty

    def work(start, stop, state):
        part = out[start:stop]
        np.subtract(values[start:stop], low, out=part)
        np.divide(part, width, out=part)
        extremes[start // step] = (part.min(), part.max())

    run_row_blocks(work, blocks, n_threads)
    return min(e[0] for e in extremes), max(e[1] for e in extremes)


def _median_distance(F, name, what, why=None):
    """The median distance between the rows of F; a ValueError when it is 0
    (why(): a sentence on the likely cause, or "") or overflowed."""
    with np.errstate(over="ignore", invalid="ignore"):
        d = np.median(pdist(F)) if len(F) > 1 else 0.0
    if np.isnan(d) or np.isinf(d):
        raise ValueError(f"{name}='median': the distances between the fit {what} overflowed to {d}; the values "
                         f"are too large for float64 arithmetic: rescale the input")
    if not d > 0:
        cause = why() if why is not None else ""
        raise ValueError(
            f"{name}='median' needs distinct fit {what}: the median distance between them is {d}; "
            f"{cause}pass {name} as a number"
        )
    return float(d)


def _outlier_cause(scaled, data_min, data_range):
    """Why scaled fit sets can all look alike: in some dimension half the
    points spread over less than a millionth of the range, which a few far
    values set; names the set holding the farthest one. "" when no dimension
    is so (a spread of 0, a mostly constant feature, is no outlier's doing)."""
    values = scaled.values
    q1, median, q3 = np.percentile(values, [25, 50, 75], axis=0)
    narrow = np.flatnonzero((q3 - q1 > 0) & (q3 - q1 < 1e-6))
    if not narrow.size:
        return ""
    d = int(narrow[0])
    row = int(np.argmax(np.abs(values[:, d] - median[d])))
    k = scaled.locate(row)[0]
    far = float(data_min[d] + values[row, d] * data_range[d])
    return (f"in dimension {d}, half the fit points lie within {float((q3 - q1)[d] * data_range[d]):.3g} of each "
            f"other, while a few values such as X[{k}]'s {far:.6g} stretch the range to {float(data_range[d]):.6g}; "
            f"scaled to [0, 1] the rest collapse together: remove such outliers, or ")


# ---- shared machinery ---------------------------------------------------------
class _SampleSetTransformer(Pyd2keTransformer):
    """Fit-time scaling, blocks over sets run by n_jobs threads, and the final
    RBF random Fourier features. Subclasses check their own parameters
    (`_check_own_params`), fit and draw what they need on the scaled sets
    (`_fit_scaled`) and define the pre-RFF map `_embed_block`."""

    _parameter_constraints = {
        **Pyd2keTransformer._parameter_constraints,
        "n_components": [EVEN_COUNT],
        "sigma": [POSITIVE, StrOptions({"median"})],
        "random_state": ["random_state"],
    }
    _fitted_attribute = "random_weights_"

    def _check_params(self):
        _check_even(self.n_components)
        self._check_own_params()
        _check_positive_real(self.sigma, "sigma", ("median",))
        super()._check_params()

    def _fit(self, X, y=None):
        """Fit the scaling onto [0, 1]^l (and the bandwidths and sigma the
        parameters leave to the data); draw the random frequencies."""
        rng = check_random_state(self.random_state)
        self._fit_scaled(self._scale_sets(X, fit=True), rng)

    def _scale_sets(self, X, fit):
        packed = check_point_sets(X, "X")
        if fit:
            low = packed.values.min(axis=0)
            width = packed.values.max(axis=0) - low
            if self._constant_dimensions_kept:  # a constant coordinate adds nothing to a Gaussian kernel
                width = np.where(width > 0, width, 1.0)
            flat = np.flatnonzero(~(width > 0))
            if flat.size:
                d = int(flat[0])
                raise ValueError(
                    f"X is constant in dimension {d} (every value is {float(low[d])!r}): scaling to [0, 1] "
                    "needs a positive range (max > min) in each dimension of the fit data"
                )
            self.data_min_ = low
            self.data_range_ = width
            self.n_dims_ = packed.dim
        elif packed.dim != self.n_dims_:
            raise ValueError(f"X has points of dimension {packed.dim}, but the estimator was fitted on dimension {self.n_dims_}")
        # A caller's Ragged is scaled into a new array; a list, packed here
        # into a new array, is scaled in place (an allocation fewer).
        values = packed.values
        out = np.empty_like(values) if isinstance(X, Ragged) else values
        least, largest = _scale_rows(values, self.data_min_, self.data_range_, out, effective_n_threads(self.n_jobs))
        scaled = Ragged(out, packed.offsets)
        if not fit:
            self._check_range(scaled, least, largest)
        return scaled

    def _check_range(self, scaled, least, largest):
        """What transform data outside the fit data's box means to the
        estimator (scaled: the scaled sets; least, largest: their extreme
        values); nothing by default."""

    def _map_blocks(self, packed, fn, width, dtype, out=None, into=False):
        """out[start:stop] = fn(packed[start:stop]) over the fixed blocks, in
        n_jobs threads, each with single-threaded BLAS; with into=True,
        fn(packed[start:stop], out[start:stop]) writes the rows itself."""
        out = np.empty((len(packed), width), dtype=dtype) if out is None else out

        def work(start, stop, state):
            if into:
                fn(packed[start:stop], out[start:stop])
            else:
                out[start:stop] = fn(packed[start:stop])

        # numpy's maps release the GIL on large arrays, so n_jobs threads with
        # one BLAS thread each use n_jobs cores without oversubscription.
        run_row_blocks(work, _set_blocks(packed, self._max_block_sets()), effective_n_threads(self.n_jobs))
        return out

    def _max_block_sets(self):
        return _BLOCK_SETS

    def _random_fourier(self, E, weights, dtype, out=None, padded=None):
        """sqrt(2/D) [sin(E W), cos(E W)]: E (n, m), W (m, D/2); the sines and
        cosines by the core, from the float64 products, into `out` (rows of
        the output, C order) or a new array. padded: pad_columns(W), when the
        caller multiplies by W many times."""
        padded = pad_columns(weights) if padded is None else padded
        P = np.ascontiguousarray(matmul_rows(E, padded, columns=weights.shape[1]))
        half = P.shape[1]
        if out is None or not out.flags.c_contiguous:
            rows = np.empty((P.shape[0], 2 * half), dtype=dtype)
            _core.sin_cos_rows_into(P, math.sqrt(1.0 / half), rows)
            if out is None:
                return rows
            out[...] = rows
            return out
        _core.sin_cos_rows_into(P, math.sqrt(1.0 / half), out)
        return out

    def _fit_rff(self, X_scaled, rng, n_inputs, sigma):
        """Draw the RBF frequencies for inputs of width n_inputs (the standard
        normal draw comes before any median, so sigma does not change it)."""
        base = rng.standard_normal((n_inputs, self.n_components // 2))
        if sigma == "median":
            pick = np.sort(rng.choice(len(X_scaled), size=min(_MEDIAN_SETS, len(X_scaled)), replace=False))
            E = self._embed_sets(X_scaled.take(pick))
            sigma = _median_distance(E, "sigma", "sets", lambda: self._collapse_cause(X_scaled))
        self.sigma_ = float(sigma)
        self.random_weights_ = base / self.sigma_
        self.n_components_ = self.n_components

    def _collapse_cause(self, X_scaled):
        """Why the fit sets' embeddings may all coincide: a sentence for the
        sigma="median" error, or ""."""
        return _outlier_cause(X_scaled, self.data_min_, self.data_range_)

    def _embed_sets(self, packed):
        return self._map_blocks(packed, self._embed_block, self._embedding_width(), np.float64)

    # Whether a dimension that is constant in the fit data is kept (scaled by
    # 1: every set's mass sits at one point of it) rather than refused.
    _constant_dimensions_kept = False

    def _items_are_tables(self):
        return True  # a sample set may be a DataFrame, one column a dimension

    def _check_input(self, X):
        """A list of sets is checked, scaled and packed a chunk at a time
        (O(chunk) memory above the output); other inputs whole."""
        if isinstance(X, (list, tuple)) and len(X) > 0:
            return list(X), lambda part: self._scale_sets(part, fit=False)
        return self._scale_sets(X, fit=False), None

    def _transform_chunk(self, packed, out):
        """Z[i] . Z[j] approximates K(p_i, p_j); rows do not depend on the chunk."""
        W, dtype = self.random_weights_, out.dtype
        padded = pad_columns(W)  # once per chunk (not kept: transform leaves the estimator as it was)

        def features(block, rows):
            self._random_fourier(self._embed_block(block), W, dtype, out=rows, padded=padded)

        return self._map_blocks(packed, features, out.shape[1], dtype, out, into=True)

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.requires_fit = True
        return tags
