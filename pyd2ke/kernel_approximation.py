"""Random Maclaurin features for dot-product kernels (P. Kar and H. Karnick,
"Random Feature Maps for Dot Product Kernels", AISTATS 2012).

For K(x, y) = f(<x, y>) = sum_n a_n <x, y>^n with a_n >= 0, each feature
draws a degree N with P[N = n] proportional to p^-(n+1), N Rademacher vectors
w_1..w_N, and outputs sqrt(a_N / P[N]) prod_k <w_k, x>; the map is the D
features divided by sqrt(D), so that Z(x) . Z(y) is an unbiased estimate of
K(x, y). All <w, x> come from one matrix product; the products run in C++.

For a compositional kernel f(K_inner(x, y)) each factor <w_k, x> becomes
<w_k, z_k(x)> with its own independently drawn inner map z_k (the paper's
"N independent copies of W"): E[prod_k <w_k, z_k(x)> <w_k, z_k(y)>] =
K_inner(x, y)^N only when the factors' inner maps are independent.
"""

import math
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.kernel_approximation import RBFSampler
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _core
from ._base import COUNT, Interval, Pyd2keTransformer, StrOptions, store_parameters
from ._blas import matmul_rows, pad_columns, padded_width, product_rows
from ._parallel import THREAD_VALUES, all_rows_finite, row_blocks, run_row_blocks
from ._validation import (
    check_choice,
    check_finite_output,
    check_no_missing_rows,
    check_positive_int,
    check_real,
    effective_n_threads,
    warn_user,
)

KERNELS = ("poly", "exp", "vovk_poly", "vovk_inf")
# Every degree up to the largest is enumerated when fitting.
_MAX_DEGREE = 1 << 12
# exact_kernel sums a callable's series until this many terms in a row change nothing.
SERIES_SETTLED = 8
# Rows per matrix product: the projections of a chunk (rows x sum(degrees))
# should stay close to the core until the products read them. 1 MiB took
# 7-17 % less time than 8 MiB for inputs of 32 and 128 dimensions, and the
# same for 2048 and 8192 (one thread, interleaved calls).
_CHUNK_BYTES = 1 << 20
# Bytes of the stacked inner features of a chunk (rows x factors x inner
# width) when the per-factor inner maps are RBFSamplers.
_STACKED_BYTES = 1 << 25


def _binomial(n, k):
    return math.comb(n, k)


# Rademacher rows drawn at a time: one draw of (n_features, factors) uniforms
# was a float64 temporary of 4.6 GB for 2**20 hashed columns.
_RADEMACHER_VALUES = 1 << 20


def _rademacher(rng, n_rows, n_columns):
    """An (n_rows, n_columns) int8 matrix of random signs, drawn in row blocks
    from one stream: the same signs as one draw of the whole matrix."""
    out = np.empty((n_rows, n_columns), dtype=np.int8)
    step = max(1, _RADEMACHER_VALUES // max(n_columns, 1))
    for start in range(0, n_rows, step):
        stop = min(n_rows, start + step)
        out[start:stop] = np.where(rng.random_sample((stop - start, n_columns)) < 0.5, -1, 1)
    return out


class RandomMaclaurin(Pyd2keTransformer):
    """Random Maclaurin features for dot-product kernels.

    Parameters
    ----------
    n_components : int, default=1000
        Number of random features D.
    kernel : {"poly", "exp", "vovk_poly", "vovk_inf"}, callable or array-like, default="poly"
        - "poly": (coef0 + gamma <x, y>)^degree, a_n = C(degree, n) coef0^(degree-n) gamma^n;
        - "exp": exp(gamma <x, y>), a_n = gamma^n / n!;
        - "vovk_poly": Vovk's real polynomial (1 - <x, y>^degree) / (1 - <x, y>), a_n = 1 for n < degree;
        - "vovk_inf": Vovk's infinite polynomial 1 / (1 - <x, y>), a_n = 1; needs ||x|| < 1,
          and features of finite variance need more, p E[<w, x>^4] < 1 over
          Rademacher w (E[<w, x>^4] = 3 ||x||^4 - 2 sum x_i^4; about
          ||x|| < 0.64 for p=2 and dense x). Beyond it the error falls more
          slowly than 1/sqrt(D), and fit warns (8-d x, K(x, x) at D=25600:
          median error 0.003 at ||x|| = 0.5, 0.82 of 5.26 at ||x|| = 0.9).
          max_degree bounds the variance;
        - a callable n -> a_n, or an array of coefficients a_0, a_1, ... (all >= 0, not all 0).
    degree : int, default=2
    gamma : float, default=1.0
    coef0 : float, default=1.0
    p : float, default=2.0
        Base of the degree distribution, P[N = n] proportional to p^-(n+1); p > 1.
    max_degree : int or None, default=None
        Truncate the expansion at this degree (the distribution is renormalised
        over degrees <= max_degree with a_n > 0). Kernels with infinitely many
        terms are otherwise sampled untruncated.
    h01 : bool, default=False
        Append the exact constant and linear terms, [sqrt(a_0), sqrt(a_1) x],
        and draw the random features from degrees >= 2 only (the paper's H0/1;
        the output then has 1 + n_features + n_components columns). Usually
        worth it where n_features is small next to n_components: on 500
        unit-norm digits (64 features), 1000 components approximated the
        "poly" kernel's Gram matrix with relative error 0.057 without and
        0.017 with h01, the "exp" kernel's 0.055 and 0.022 (means of five
        seeds; the constant and linear terms, a large part of these
        kernels, are then exact).
    inner : estimator or None, default=None
        Compositional kernel f(K_inner): a random-feature transformer whose
        features z(x) give an unbiased z(x) . z(y) for K_inner(x, y) (e.g.
        scikit-learn's RBFSampler); its output replaces x. It is a template:
        when it has a ``random_state`` parameter, fit draws one independent
        copy per factor of every feature (``sum(degrees_)`` copies, plus one for
        the exact linear columns of h01), each ``clone(inner)`` with its own
        seed from ``random_state`` and fitted on X, as the paper's
        construction needs: one map shared by all factors estimates
        f(z(x) . z(y)), which is biased for f(K_inner(x, y)) when f is not
        linear. Fit and transform then cost ``sum(degrees_)`` inner maps (about
        n_components with p=2), so keep the inner map small:
        ``n_components=1`` is the paper's scalar feature W, more components
        lower each factor's variance. RBFSampler copies are evaluated for
        all factors by one matrix product; other maps by one call per
        factor and chunk (measured, one thread, 20000 x 20 inputs,
        n_components=1000, kernel="exp", on a loaded machine: fit 2-3 s;
        transform 2.0-2.6 s with RBFSampler(n_components=1), 4.9-6.3 s map
        by map; 13.5-17.7 s with 10 components, 21-24 s map by map; 0.3 s in
        all without inner). An inner map without ``random_state``
        is deterministic and is fitted once (a pre-fitted one is used as it
        is) and shared, which is exact. For kernel="vovk_inf", K_inner(x, x)
        < 1 is then up to the caller (only a shared map's output is checked).
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). Each thread runs its own
        single-threaded BLAS products and feature products on blocks of rows.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64

    Attributes
    ----------
    degrees_ : ndarray of int, shape (n_components,)
        The degree N of each random feature (features are ordered by degree).
    coefficients_ : ndarray
        a_n for n = 0, ..., ``max(degrees_)`` (and 0, 1 with h01).
    rademacher_ : ndarray of int8, shape ``(n_features_in_, sum(degrees_))``
        The Rademacher vectors, grouped by degree.
    n_features_in_ : int
    inner_maps_ : list of estimators or None
        The fitted inner maps: one shared map, or one per column of
        ``rademacher_`` (then one more for the h01 linear columns, last).
    """

    _parameter_constraints = {
        **Pyd2keTransformer._parameter_constraints,
        "n_components": [COUNT],
        "kernel": [StrOptions(set(KERNELS)), callable, "array-like"],
        "degree": [Interval(Integral, 0, _MAX_DEGREE, closed="both")],
        "gamma": [Interval(Real, None, None, closed="neither")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "p": [Interval(Real, 1, None, closed="neither")],
        "max_degree": [Interval(Integral, 0, _MAX_DEGREE, closed="both"), None],
        "h01": ["boolean"],
        "inner": [HasMethods(["transform"]), None],
        "random_state": ["random_state"],
    }
    _fitted_attribute = "degrees_"

    def __init__(self, n_components=1000, *, kernel="poly", degree=2, gamma=1.0, coef0=1.0, p=2.0, max_degree=None,
                 h01=False, inner=None, random_state=None, n_jobs=None, dtype=np.float64):
        store_parameters(self, locals())

    # ---- the kernel's Maclaurin coefficients -----------------------------------
    def _last_degree(self):
        """Highest degree with a possibly non-zero coefficient (None: infinite)."""
        kernel = self.kernel
        if isinstance(kernel, str):
            if kernel == "poly":
                last = self.degree
            elif kernel == "vovk_poly":
                last = self.degree - 1
            else:
                last = None
        elif callable(kernel):
            last = None
        else:
            last = len(np.ravel(kernel)) - 1
        if self.max_degree is not None:
            last = self.max_degree if last is None else min(last, self.max_degree)
        return last

    def coefficient(self, n):
        """a_n, the n-th Maclaurin coefficient of the kernel's f."""
        kernel = self.kernel
        if isinstance(kernel, str):
            try:  # large degrees or gammas overflow float64; fit reports it
                if kernel == "poly":
                    if n > self.degree:
                        return 0.0
                    return _binomial(self.degree, n) * float(self.coef0) ** (self.degree - n) * float(self.gamma) ** n
                if kernel == "exp":
                    return math.exp(n * math.log(self.gamma) - math.lgamma(n + 1))
            except OverflowError:
                return math.inf
            if kernel == "vovk_poly":
                return 1.0 if n < self.degree else 0.0
            return 1.0  # vovk_inf
        if callable(kernel):
            a = float(kernel(n))
            if not np.isfinite(a) or a < 0:
                raise ValueError(f"kernel({n}) returned {a}: coefficients must be finite and >= 0")
            return a
        coefficients = np.ravel(kernel)
        return float(coefficients[n]) if n < len(coefficients) else 0.0

    def exact_kernel(self, X, Y=None):
        """The kernel the features approximate, f(<x, y>) (truncated at max_degree if set)."""
        X = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
        Y = X if Y is None else np.asarray(Y.toarray() if sp.issparse(Y) else Y, dtype=np.float64)
        if self.inner is not None:
            raise ValueError("exact_kernel is not available for compositional kernels")
        G = X @ Y.T
        last = self._last_degree()
        if last is not None:
            return sum(self.coefficient(n) * G**n for n in range(last + 1))
        if isinstance(self.kernel, str) and self.kernel == "exp":
            return np.exp(self.gamma * G)
        if isinstance(self.kernel, str) and self.kernel == "vovk_inf":
            return 1.0 / (1.0 - G)
        return self._summed_series(G)

    def _summed_series(self, G):
        """sum_n a_n G^n for a callable's unbounded coefficients: term by term
        until SERIES_SETTLED terms in a row change no entry (60 fixed terms
        gave 35.2 for 1 / (1 - 0.98), 50.25), at most _MAX_DEGREE + 1 terms."""
        total = np.zeros_like(G)
        power = np.ones_like(G)
        settled = 0
        for n in range(_MAX_DEGREE + 1):
            term = self.coefficient(n) * power
            settled = settled + 1 if np.all(np.abs(term) <= np.finfo(np.float64).eps * np.abs(total)) else 0
            total += term
            if settled == SERIES_SETTLED:
                return total
            power = power * G
        raise ValueError(f"the kernel's series sum_n a_n <x, y>^n did not settle within {_MAX_DEGREE + 1} terms "
                         f"(largest |<x, y>| {np.abs(G).max():.6g}): pass max_degree, or inputs of smaller norm")

    # ---- validation ------------------------------------------------------------
    def _check_params(self):
        check_positive_int(self.n_components, "n_components")
        kernel = self.kernel
        if isinstance(kernel, str):
            check_choice(kernel, "kernel", set(KERNELS))
        elif not callable(kernel):
            try:
                coefficients = np.asarray(kernel, dtype=np.float64).ravel()
            except (TypeError, ValueError):
                raise TypeError(f"kernel must be one of {sorted(KERNELS)}, a callable or an array of "
                                f"coefficients, got {type(kernel).__name__}") from None
            if coefficients.size == 0 or not np.all(np.isfinite(coefficients)):
                raise ValueError("kernel coefficients must be a non-empty array of finite numbers")
            if np.any(coefficients < 0):
                raise ValueError("kernel coefficients must be >= 0 (a dot-product kernel needs a_n >= 0)")
            if not np.any(coefficients > 0):
                raise ValueError("kernel coefficients are all zero")
        check_positive_int(self.degree, "degree", minimum=0, maximum=_MAX_DEGREE)
        for name in ("gamma", "coef0", "p"):
            check_real(getattr(self, name), name)
        if self.p <= 1:
            raise ValueError(f"p must be > 1, got {self.p}")
        if isinstance(kernel, str) and kernel in ("poly", "exp") and self.gamma <= 0:
            raise ValueError(f"gamma must be > 0, got {self.gamma}")
        if isinstance(kernel, str) and kernel == "poly" and self.coef0 < 0:
            raise ValueError(f"coef0 must be >= 0 (negative coef0 gives negative coefficients), got {self.coef0}")
        if self.max_degree is not None:
            check_positive_int(self.max_degree, "max_degree", minimum=0, maximum=_MAX_DEGREE)
        if self.inner is not None and not hasattr(self.inner, "transform"):
            raise TypeError("inner must be a transformer (an object with fit and transform)")
        super()._check_params()

    def _check_domain(self, X):
        if isinstance(self.kernel, str) and self.kernel == "vovk_inf":
            norms = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) else np.einsum("ij,ij->i", X, X)
            bad = np.flatnonzero(norms >= 1.0)
            if bad.size:
                raise ValueError(
                    f"X[{bad[0]}] has norm {np.sqrt(norms[bad[0]]):.6g} >= 1: Vovk's infinite polynomial "
                    "1 / (1 - <x, y>) needs ||x|| < 1 for every input"
                )

    def _warn_if_heavy_tailed(self, X):
        """vovk_inf untruncated: E[(Z(x) Z(y))^2] = sum_n (p E[<w, x>^2 <w, y>^2])^n
        (up to a constant), infinite where p E[<w, x>^4] >= 1 for some fit row."""
        if not (isinstance(self.kernel, str) and self.kernel == "vovk_inf") or self.max_degree is not None:
            return
        squares = X.multiply(X) if sp.issparse(X) else X * X
        fourths = squares.multiply(squares) if sp.issparse(X) else squares * squares
        norms = np.asarray(squares.sum(axis=1)).ravel()
        moments = 3.0 * norms**2 - 2.0 * np.asarray(fourths.sum(axis=1)).ravel()
        worst = int(np.argmax(moments)) if moments.size else 0
        if moments.size and float(self.p) * moments[worst] >= 1.0:
            warn_user(f"X[{worst}] (norm {np.sqrt(norms[worst]):.3g}) has p E[<w, x>^4] = "
                      f"{float(self.p) * moments[worst]:.3g} >= 1 over Rademacher w: the features of kernel='vovk_inf' "
                      "then have infinite variance, and estimates converge more slowly than 1/sqrt(n_components). "
                      "Scale the inputs down (norms below about 0.64 for p=2), or set max_degree")

    def _shared_inner(self):
        """True when every factor reads the same features (x or one inner map)."""
        return self.inner_maps_ is None or len(self.inner_maps_) == 1

    def _inner_features(self, X):
        if self.inner_maps_ is None:
            return X
        return self.inner_maps_[0].transform(X)

    def _stacked_fourier(self):
        """The per-factor maps as one RBFSampler when they all are fitted
        RBFSamplers of one width: (weights (n_features, n_factors * k),
        offsets, scale). Their features then come from one matrix product
        per chunk instead of a Python call per factor (2.4x faster with one
        component per map, 1.4x with ten; the same features to rounding)."""
        if self._shared_inner():
            return None
        maps = self.inner_maps_[: self.rademacher_.shape[1]]
        if not maps or any(type(m) is not RBFSampler for m in maps):
            return None
        k = maps[0].random_weights_.shape[1]
        if any(m.random_weights_.shape[1] != k for m in maps):
            return None
        weights = np.concatenate([m.random_weights_ for m in maps], axis=1)
        offsets = np.concatenate([m.random_offset_ for m in maps])
        return pad_columns(weights), offsets, math.sqrt(2.0) / math.sqrt(k)

    def _fit_inner_maps(self, X, n_factors, rng):
        """One fitted inner map, or n_factors (+1 with h01) independent copies."""
        if "random_state" not in self.inner.get_params():
            try:
                check_is_fitted(self.inner)
                return [self.inner]
            except NotFittedError:
                return [clone(self.inner).fit(X)]
        # At least one map: its output width sizes rademacher_ even with no factor.
        seeds = rng.randint(np.iinfo(np.int32).max, size=max(1, n_factors + (1 if self.h01 else 0)))
        return [clone(self.inner).set_params(random_state=int(seed)).fit(X) for seed in seeds]

    # ---- fit / transform -------------------------------------------------------
    def _degree_support(self, first):
        """Degrees >= first that can be drawn, and their probabilities (finite case),
        or None for an untruncated infinite expansion."""
        last = self._last_degree()
        if last is None:
            return None
        degrees = np.array([n for n in range(first, last + 1) if self.coefficient(n) > 0], dtype=np.int64)
        if degrees.size == 0:
            raise ValueError(
                f"the kernel has no coefficient a_n > 0 for degrees {first}..{last}"
                + (" (h01 keeps degrees 0 and 1 exact)" if first else "")
            )
        weights = float(self.p) ** -(degrees + 1.0)
        return degrees, weights / weights.sum()

    def _probability(self, n, support, first):
        if support is not None:
            degrees, probabilities = support
            return float(probabilities[np.searchsorted(degrees, n)])
        p = float(self.p)
        return (p - 1.0) * p ** -(n - first + 1.0)

    def _fit(self, X, y=None):
        """Draw degrees and Rademacher vectors (and fit `inner` if it is not fitted)."""
        checked = check_no_missing_rows(X, all_finite=self._all_finite)
        X = validate_data(self, X, accept_sparse="csr", dtype=(np.float64, np.float32), ensure_all_finite=not checked)
        rng = check_random_state(self.random_state)
        first = 2 if self.h01 else 0
        support = self._degree_support(first)
        D = self.n_components
        if support is None:
            degrees = first + rng.geometric(1.0 - 1.0 / float(self.p), size=D) - 1
        else:
            degrees = rng.choice(support[0], size=D, p=support[1])
        degrees = np.sort(degrees)
        self.inner_maps_ = None
        if self.inner is not None:
            self.inner_maps_ = self._fit_inner_maps(X, int(degrees.sum()), rng)
        if self._shared_inner():
            Xi = self._inner_features(X)
            self._check_domain(Xi)
            self._warn_if_heavy_tailed(Xi)
            n_inner_features = Xi.shape[1]
        else:  # every copy has the template's width
            n_inner_features = self.inner_maps_[0].transform(X[:1]).shape[1]
        self.degrees_ = degrees
        top = int(max(degrees.max(initial=0), 1))
        self.coefficients_ = np.array([self.coefficient(n) for n in range(top + 1)])
        if not np.isfinite(self.coefficients_).all():
            n = int(np.argmin(np.isfinite(self.coefficients_)))
            raise ValueError(f"the kernel's coefficient a_{n} overflows float64: lower degree, gamma or coef0")
        scale = np.array([math.sqrt(self.coefficients_[n] / self._probability(n, support, first)) for n in degrees])
        self._scale = scale / math.sqrt(D)
        self.rademacher_ = _rademacher(rng, n_inner_features, int(degrees.sum()))
        # Degree groups: (degree, count, first column of P, first feature).
        groups, column = [], 0
        values, counts = np.unique(degrees, return_counts=True)
        first_feature = 0
        for n, count in zip(values, counts):
            groups.append((int(n), int(count), column, first_feature))
            column += int(n) * int(count)
            first_feature += int(count)
        self._groups = np.array(groups, dtype=np.int64).reshape(-1, 4)
        self._n_inner_features = n_inner_features

    def _check_input(self, X):
        """X checked whole, and the check of each chunk: its shared inner
        map's features (or its rows when there is no inner map), computed a
        chunk at a time so that the inner features need O(chunk) memory; none
        when every factor applies its own map to the rows."""
        checked = check_no_missing_rows(X, all_finite=self._all_finite)
        X = validate_data(self, X, accept_sparse="csr", dtype=(np.float64, np.float32), reset=False,
                          ensure_all_finite=not checked)
        return X, (self._shared_features if self._shared_inner() else None)

    def _all_finite(self, A):
        """Whether every value of the float matrix A is finite, on the transform's threads."""
        return all_rows_finite(A, effective_n_threads(self.n_jobs))

    def _chunk_bounds(self, X):
        # Without inner maps the blocks read X's rows in place, each into a
        # projection buffer of its own, so chunks would bound no memory; their
        # ends cost 10 % of the time on two threads.
        if self.inner_maps_ is None:
            return [(0, X.shape[0])]
        return super()._chunk_bounds(X)

    def _shared_features(self, X):
        """One chunk as every factor reads it: the shared inner map's
        features, or the rows themselves, inside the kernel's domain."""
        Xi = self._inner_features(X)
        self._check_domain(Xi)
        return Xi

    def _transform_chunk(self, Xi, out):
        """Random Maclaurin features of Xi, shape (n_samples, n_components) (plus
        1 + n_inner_features leading exact columns with h01)."""
        dtype = out.dtype
        shared = self._shared_inner()
        stacked = self._stacked_fourier()
        # Sparse rows read only the Rademacher rows of their columns: W as
        # floats would be 4.5 GB for HashingVectorizer's 2**20 columns.
        sparse_rows = sp.issparse(Xi) and shared and stacked is None
        # Zero columns pad W to the width matmul_rows computes in; the products
        # read only the real ones.
        W = None if sparse_rows else pad_columns(self.rademacher_).astype(dtype)
        width = padded_width(self.rademacher_.shape[1])
        scale = self._scale.astype(dtype)
        n = Xi.shape[0]
        exact = 1 + self._n_inner_features if self.h01 else 0
        # Per-factor inner maps cost a Python call each per block: larger blocks
        # amortise it (32x the bytes: 4096 rows for 1000 factors).
        chunk_bytes = _CHUNK_BYTES if shared else 32 * _CHUNK_BYTES
        rows = product_rows(chunk_bytes, width * dtype.itemsize)
        if stacked is not None:
            rows = product_rows(_STACKED_BYTES, 8 * stacked[0].shape[1], high=rows)
            signs = self.rademacher_.astype(np.float64)  # once, not per block
        # The h01 linear columns of per-factor RBFSampler maps: from the same
        # row-by-row product as the factors' (RBFSampler.transform's BLAS
        # product rounds by the block's rows, so chunks changed the last bits).
        linear_fourier = None
        if exact and stacked is not None and type(self.inner_maps_[-1]) is RBFSampler:
            last = self.inner_maps_[-1]
            linear_fourier = (pad_columns(last.random_weights_), last.random_offset_,
                              math.sqrt(2.0) / math.sqrt(last.random_weights_.shape[1]))
        n_threads = effective_n_threads(self.n_jobs)
        blocks = row_blocks(n, rows, n_threads)
        rows = max((stop - start for start, stop in blocks), default=0)  # buffers no larger than a block

        def buffers():
            # One projection buffer per thread (no fresh pages per chunk); the
            # products go straight into the output rows unless H0/1 columns lead.
            return (np.empty((rows, width), dtype=dtype),
                    np.empty((rows, self.n_components), dtype=dtype) if exact else None)

        def work(start, stop, state):
            P_buffer, Z_buffer = state
            block = Xi[start:stop]
            P = P_buffer[: stop - start]
            if stacked is not None:
                # z_c(x) = scale cos(x V_c + b_c) for every factor c at once, then z_c(x) . w_c.
                weights, offsets, fourier_scale = stacked
                n_factors, k = self.rademacher_.shape[1], self.rademacher_.shape[0]
                dense = block.toarray() if sp.issparse(block) else block
                Zi = matmul_rows(dense, weights, columns=len(offsets))
                Zi = np.cos(Zi + offsets)
                Zi *= fourier_scale
                P[:, :n_factors] = np.einsum("rfk,kf->rf", Zi.reshape(stop - start, n_factors, k), signs)
                P[:, n_factors:] = 0
            elif not shared:
                # Factor c reads its own inner map: z_c(x) . w_c, one column at a time.
                n_factors = self.rademacher_.shape[1]
                for c in range(n_factors):
                    P[:, c] = self.inner_maps_[c].transform(block) @ W[:, c]
                P[:, n_factors:] = 0
            elif sparse_rows:
                n_factors = self.rademacher_.shape[1]
                columns, local = np.unique(block.indices, return_inverse=True)
                used = sp.csr_matrix((block.data, local.ravel(), block.indptr), shape=(block.shape[0], len(columns)))
                P[:, :n_factors] = (used @ self.rademacher_[columns].astype(dtype)).astype(dtype, copy=False)
                P[:, n_factors:] = 0
            else:
                matmul_rows(np.asarray(block, dtype=dtype), W, out=P)
            target = Z_buffer[: stop - start] if exact else out[start:stop]
            if not _core.maclaurin_into(P, self._groups, scale, target, 1):  # it checks each row in cache
                check_finite_output(target, "X", start)
            if exact:
                out[start:stop, exact:] = target
                out[start:stop, 0] = math.sqrt(self.coefficient(0))
                if shared:
                    linear = block
                elif linear_fourier is not None:
                    weights, offsets, fourier_scale = linear_fourier
                    dense = block.toarray() if sp.issparse(block) else block
                    linear = np.cos(matmul_rows(dense, weights, columns=len(offsets)) + offsets) * fourier_scale
                else:
                    linear = self.inner_maps_[-1].transform(block)
                dense = linear.toarray() if sp.issparse(linear) else linear
                out[start:stop, 1:exact] = math.sqrt(self.coefficient(1)) * dense
                check_finite_output(out[start:stop, :exact], "X", start)

        run_row_blocks(work, blocks, n_threads, make_state=buffers, min_rows=THREAD_VALUES // self.n_components)
        return out

    def _check_output(self, Z, start):
        pass  # checked row by row as it is written (see work above)

    @property
    def _n_features_out(self):
        return self.n_components + (1 + self._n_inner_features if self.h01 else 0)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
