"""MeanEmbeddingFeatures: the paper's MMD baseline."""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._base import StrOptions, store_parameters
from .._blas import pad_columns
from .._validation import check_positive_int
from ._base import _BLOCK_POINTS, EVEN_COUNT, POSITIVE, _check_positive_real, _median_distance, _SampleSetTransformer

# Fit points whose pairwise distances set base_bandwidth="median".
_MEDIAN_POINTS = 1024
# Points of a set larger than a block whose base features exist at once.
_LARGE_SET_SLICE = 8192


class MeanEmbeddingFeatures(_SampleSetTransformer):
    """Random features for the RBF kernel on the MMD between sample sets
    (the paper's MMD baseline, after Muandet et al. 2012).

    Each set's mean embedding is m(p) = (1/n) sum_i z(x_i) with z the random
    Fourier features of a Gaussian base kernel of width base_bandwidth, so
    ||m(p) - m(q)|| approximates MMD(p, q); the output approximates
    exp(-MMD^2(p, q) / (2 sigma^2)). The data are scaled onto [0, 1]^l at
    fit time, as in DensityKernelFeatures; a dimension that is constant in
    the fit data is kept as it is (it adds nothing to the kernel).

    Parameters
    ----------
    n_components : int, default=1000
        Number of output features D (even).
    n_base_components : int, default=500
        Number of base features of the mean embedding (even).
    base_bandwidth : "median" or float, default="median"
        Width of the Gaussian base kernel in the scaled coordinates.
        "median": the median distance between (up to 1024) fit points.
    sigma : "median" or float, default="median"
        Width of the RBF kernel on MMD. "median": the median of
        ||m(p_i) - m(p_j)|| over (up to 256) fit sets.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads; the output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64

    Attributes
    ----------
    base_bandwidth_, sigma_ : float
    base_weights_ : ndarray of shape ``(n_dims_, n_base_components / 2)``
    random_weights_ : ndarray of shape (n_base_components, n_components / 2)
    data_min_, data_range_ : ndarray of shape (l,)
    n_dims_, n_components_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke.density import MeanEmbeddingFeatures
    >>> rng = np.random.default_rng(0)
    >>> sets = [rng.normal(loc=m, size=(200, 2)) for m in (0.0, 0.5, 3.0)]
    >>> MeanEmbeddingFeatures(64, random_state=0).fit_transform(sets).shape
    (3, 64)
    """

    _constant_dimensions_kept = True

    _parameter_constraints = {
        **_SampleSetTransformer._parameter_constraints,
        "n_base_components": [EVEN_COUNT],
        "base_bandwidth": [POSITIVE, StrOptions({"median"})],
    }

    def __init__(self, n_components=1000, *, n_base_components=500, base_bandwidth="median", sigma="median",
                 random_state=None, n_jobs=None, dtype=np.float64):
        store_parameters(self, locals())

    def _check_own_params(self):
        n = check_positive_int(self.n_base_components, "n_base_components", minimum=2)
        if n % 2:
            raise ValueError(f"n_base_components must be even, got {n}")
        _check_positive_real(self.base_bandwidth, "base_bandwidth", ("median",))

    def _fit_scaled(self, packed, rng):
        """Draw the base and RBF frequencies (and fit the medians)."""
        base = rng.standard_normal((packed.dim, self.n_base_components // 2))
        if self.base_bandwidth == "median":
            total = len(packed.values)
            pick = np.sort(rng.choice(total, size=min(_MEDIAN_POINTS, total), replace=False))
            self.base_bandwidth_ = _median_distance(packed.values[pick], "base_bandwidth", "points")
        else:
            self.base_bandwidth_ = float(self.base_bandwidth)
        self.base_weights_ = base / self.base_bandwidth_
        self._fit_rff(packed, rng, self.n_base_components, self.sigma)

    def _collapse_cause(self, X_scaled):
        # Scaled points lie within [0, 1]^l: a base kernel much wider than the
        # cube's diagonal is about 1 for every pair, and every mean embedding alike.
        if self.base_bandwidth_ > 100 * np.sqrt(self.n_dims_):
            return (f"base_bandwidth={self.base_bandwidth_:.3g} is far wider than the fit data scaled to "
                    f"[0, 1]^{self.n_dims_}, so every set has about the same mean embedding: pass a smaller "
                    f"base_bandwidth (\"median\" measures it), or ")
        return super()._collapse_cause(X_scaled)

    def _embedding_width(self):
        return self.n_base_components

    def _embed_block(self, block):
        sizes = np.diff(block.offsets)
        if len(block) == 1 and sizes[0] > _BLOCK_POINTS:  # a large set is a block of its own
            return self._embed_large_set(block.values)[None, :]
        Z = self._random_fourier(block.values, self.base_weights_, np.dtype(np.float64))
        return np.add.reduceat(Z, block.offsets[:-1], axis=0) / sizes[:, None]

    def _embed_large_set(self, points):
        """One set's mean embedding, summed over slices of its points: all its
        base features at once were 4 kB a point (2.3 GB above the input for
        three sets of 400,000 points). The slices start at the set's first
        point, so the sum does not depend on the chunks either."""
        padded, total = pad_columns(self.base_weights_), np.zeros(self.n_base_components)
        for start in range(0, len(points), _LARGE_SET_SLICE):
            Z = self._random_fourier(points[start:start + _LARGE_SET_SLICE], self.base_weights_,
                                     np.dtype(np.float64), padded=padded)
            total += Z.sum(axis=0)
        return total / len(points)

    def mean_embeddings(self, X):
        """The mean embeddings m(p) before the RBF features, shape
        (n_sets, n_base_components): ||m(p) - m(q)|| approximates MMD(p, q)."""
        check_is_fitted(self, "random_weights_")
        return self._embed_sets(self._scale_sets(X, fit=False))
