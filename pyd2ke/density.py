"""Random features for kernels on sample sets seen as densities (D. J.
Sutherland, J. B. Oliva, B. Poczos and J. Schneider, "Linear-time Learning on
Distributions with Approximate Kernel Embeddings", AAAI 2016).

A homogeneous density distance (HDD) is d^2(p, q) = int kappa(p(x), q(x)) dx
with kappa(x, y) = int |x^(1/2 + i lambda) - y^(1/2 + i lambda)|^2 dmu(lambda).
For K(p, q) = exp(-d^2(p, q) / (2 sigma^2)) each sample set goes through:

1. the fit-time affine map of the data onto [0, 1]^l;
2. a Gaussian kernel density estimate p, evaluated at n_e integration points
   shared by all sets;
3. psi(p) = sqrt(Z / M) [Re, Im] p(u)^(1/2 + i lambda_j) for M lambdas drawn
   from mu / Z (Z the total mass of mu);
4. A(p): the projections of the 2M functions psi(p) onto |V| tensor-product
   basis functions (cosine or Fourier) by numerical integration, so that
   ||A(p) - A(q)||^2 approximates d^2(p, q);
5. random Fourier features of A(p) for the RBF kernel of width sigma.

Steps 2-5 are matrix products (BLAS) and vectorised numpy maps over blocks of
sets; blocks never depend on n_jobs and each runs single-threaded BLAS, so the
output is bit-identical whatever the thread count. The L2 density kernel
(Oliva et al. 2014; psi(p) = p) and the MMD mean-embedding kernel (Muandet et
al. 2012) are the paper's baselines and live here too.
"""

import math
import numbers
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy.spatial.distance import pdist, squareform
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._blas import matmul_rows, one_blas_thread
from ._domains.point_sets import check_point_sets
from ._parallel import check_chunk, chunk_bounds
from ._ragged import Ragged as PackedSets
from ._validation import (
    check_choice,
    check_dtype,
    check_finite_output,
    check_positive_int,
    effective_n_threads,
)

DIVERGENCES = ("js", "hellinger", "tv", "l2")
# Total mass Z of each HDD's lambda measure mu (ALGORITHMS.md section 10).
MEASURE_MASS = {"js": math.log(2.0) / 2.0, "hellinger": 0.5, "tv": 1.0}
BANDWIDTH_RULES = ("cv", "scott")

# Density estimates are floored here so that log p stays finite where the
# Gaussian tails underflow (this is the paper's rho_* > 0); psi moves by at
# most sqrt(1e-12) = 1e-6 where it applies.
DENSITY_FLOOR = 1e-12
# The Gaussian KDE kernel is cut at this many bandwidths (it is below
# exp(-18) of its peak beyond): grid nodes and mirror images farther away
# are skipped.
_KERNEL_REACH = 6.0
# Blocks of sets: at most this many sets or sample points, and per-set
# buffers (densities, psi) of at most _BLOCK_BYTES together, so that a
# block's buffers stay at a few MB.
_BLOCK_SETS = 64
_BLOCK_POINTS = 1 << 15
_BLOCK_BYTES = 32 << 20
# Khatri-Rao rows (points x side^(l-1)) per product in 3 or more dimensions.
_KHATRI_RAO_ENTRIES = 1 << 20
# Kernel-matrix entries per chunk in the random-point KDE (8 MB).
_KDE_CHUNK = 1 << 20
# Likelihood cross-validation of the KDE bandwidth: this many fit sets, of at
# most this many points each, and candidate bandwidths (scaled coordinates).
_CV_SETS = 12
_CV_POINTS = 400
_CV_BANDWIDTHS = np.geomspace(0.002, 0.5, 25)
# Fit sets (resp. fit points) whose pairwise distances set the medians.
_MEDIAN_SETS = 256
_MEDIAN_POINTS = 1024


# ---- lambda measures ---------------------------------------------------------
def sample_lambdas(divergence, size, random_state=None):
    """Draw lambdas i.i.d. from an HDD's normalised measure mu / Z.

    Parameters
    ----------
    divergence : {"js", "hellinger", "tv"}
        - "js": Jensen-Shannon (natural log), dmu = (1/2) sech(pi lambda) /
          (1 + 4 lambda^2) dlambda, Z = ln(2) / 2. Sampled as lambda = X / 2
          with X hyperbolic-secant distributed (inverse CDF), accepted with
          probability 1 / (1 + 4 lambda^2) (about 69% are). The paper's
          Table 1 lists dlambda / (cosh(pi lambda) (1 + lambda^2)) instead,
          which does not give this kappa (its mass is 0.858, not ln(2) / 2);
          the measure here reproduces the closed-form JS (checked in the tests).
        - "tv": total variation |x - y|, dmu = (2/pi) / (1 + 4 lambda^2), Z = 1:
          Cauchy(0, 1/2).
        - "hellinger": squared Hellinger (sqrt x - sqrt y)^2 / 2,
          mu = delta_0 / 2: every lambda is 0.
    size : int
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    lambdas : ndarray of shape (size,)
    """
    check_choice(divergence, "divergence", set(MEASURE_MASS))
    size = check_positive_int(size, "size")
    rng = check_random_state(random_state)
    if divergence == "hellinger":
        return np.zeros(size)
    if divergence == "tv":
        return 0.5 * np.tan(np.pi * (rng.random_sample(size) - 0.5))
    accepted = []
    count = 0
    while count < size:
        # 1 - U lies in (0, 1]: tan(0) would give log(0).
        u = 1.0 - rng.random_sample(size)
        lam = np.log(np.tan(0.5 * np.pi * u)) / np.pi
        keep = lam[rng.random_sample(size) * (1.0 + 4.0 * lam * lam) < 1.0]
        accepted.append(keep)
        count += keep.size
    return np.concatenate(accepted)[:size]


# ---- basis and integration points ----------------------------------------------
def basis_indices(n_dims, size):
    """The `size` multi-indices alpha in {0, 1, ...}^n_dims of smallest
    |alpha|^2 (ties in lexicographic order): the paper's V = {alpha :
    sum alpha_j^2 <= t} (s = 1) with t just large enough."""
    K = 1
    while True:
        grid = np.indices((K + 1,) * n_dims).reshape(n_dims, -1).T
        norms = (grid * grid).sum(axis=1)
        if np.count_nonzero(norms <= K * K) >= size:
            break
        K += 1
    order = np.lexsort([grid[:, d] for d in reversed(range(n_dims))] + [norms])
    return np.ascontiguousarray(grid[order[:size]], dtype=np.int64)


def _basis_1d(t, k, basis):
    """Orthonormal basis functions of L2([0, 1]) number k at t: (len(t), len(k))."""
    t = t[:, None]
    if basis == "cosine":
        values = math.sqrt(2.0) * np.cos(np.pi * t * k[None, :])
    else:  # Fourier: 1, sqrt2 cos(2 pi t), sqrt2 sin(2 pi t), sqrt2 cos(4 pi t), ...
        freq = (k[None, :] + 1) // 2
        phase = 2.0 * np.pi * t * freq
        values = math.sqrt(2.0) * np.where(k[None, :] % 2 == 1, np.cos(phase), np.sin(phase))
    values[:, k == 0] = 1.0
    return values


def basis_matrix(points, indices, basis="cosine"):
    """Tensor-product basis functions phi_alpha(u) = prod_d phi_{alpha_d}(u_d),
    shape (n_points, n_indices)."""
    out = np.ones((points.shape[0], indices.shape[0]))
    for d in range(points.shape[1]):
        out *= _basis_1d(points[:, d], indices[:, d], basis)
    return out


# ---- kernel density estimates ------------------------------------------------
def _fold(index, side):
    """Node index of the mirror image of node `index` (any integer) in the
    midpoint grid of `side` nodes: reflection in both faces, repeated."""
    index = np.mod(index, 2 * side)
    return np.where(index >= side, 2 * side - 1 - index, index)


def _grid_factors(x, h, side, reflect):
    """1-D Gaussian kernels k_h(node_a - x_i) at the midpoint nodes
    (a + 1/2) / side, shape (len(x), side).

    Only the nodes within _KERNEL_REACH bandwidths of each point are
    evaluated (a band of 2 reach + 1 nodes, often far fewer than `side`).
    With reflect, band nodes beyond a face fold back onto their mirror
    nodes: that sums the kernels of all the mirror images of x_i, so each
    point keeps its whole mass inside [0, 1]."""
    n = len(x)
    c = 1.0 / (side * h)  # node spacing in bandwidths
    reach = int(math.ceil(_KERNEL_REACH / c))
    nearest = np.rint(x * side - 0.5)
    delta = ((nearest + 0.5) / side - x) / h  # (node_nearest - x_i) / h, |delta| <= c / 2 in the cube
    values = np.empty((2 * reach + 1, n))
    if c <= 20.0:
        # exp(-(delta + k c)^2 / 2) = exp(-delta^2 / 2) exp(-delta c)^k exp(-k^2 c^2 / 2): two exps
        # per point instead of one per band node (exp is the costly part); |delta c k| stays below
        # 3 c + c^2 / 2, far from overflow for c <= 20.
        values[reach] = np.exp(-0.5 * delta * delta)
        up = np.exp(-delta * c)
        down = 1.0 / up
        for k in range(1, reach + 1):
            shrink = math.exp(-0.5 * c * c * (2 * k - 1))  # exp(-k^2 c^2/2) / exp(-(k-1)^2 c^2/2)
            np.multiply(values[reach + k - 1], up * shrink, out=values[reach + k])
            np.multiply(values[reach - k + 1], down * shrink, out=values[reach - k])
    else:  # bandwidth far below the node spacing: a narrow band, direct exps
        t = delta[None, :] + np.arange(-reach, reach + 1)[:, None] * c
        np.exp(-0.5 * t * t, out=values)
    rows = nearest.astype(np.int64)[None, :] + np.arange(-reach, reach + 1)[:, None]
    if reflect:
        low, high = int(rows.min()), int(rows.max())
        if high - low <= 8 * side:  # one gather from a small table beats mod and where
            rows = _fold(np.arange(low, high + 1), side)[rows - low]
        else:  # points far outside the cube
            rows = _fold(rows, side)
    else:
        inside = (rows >= 0) & (rows < side)
        values[~inside] = 0.0
        rows = np.clip(rows, 0, side - 1)
    # One scatter-add (bincount) for the whole band; several band nodes may
    # fold onto the same node.
    flat = rows + (np.arange(n) * side)[None, :]
    out = np.bincount(flat.ravel(), weights=values.ravel(), minlength=n * side).reshape(n, side)
    out *= 1.0 / (math.sqrt(2.0 * math.pi) * h)
    return out


def _kde_on_grid(block, h, side, reflect):
    """Densities of every set of a block at the tensor grid nodes^l (C order),
    shape (n_sets, side^l). The Gaussian is a product over dimensions, so the
    sum over samples is one matrix product per set:
    p(a, b) = (1/n) sum_i K_1[i, a] K_2[i, b] (the first factors are combined
    into a Khatri-Rao product in 3 or more dimensions)."""
    values, offsets = block.values, block.offsets
    n_dims = values.shape[1]
    factors = [_grid_factors(values[:, d], h, side, reflect) for d in range(n_dims)]
    out = np.empty((len(block), side**n_dims))
    for s in range(len(block)):
        a, b = offsets[s], offsets[s + 1]
        if n_dims == 1:
            dens = factors[0][a:b].sum(axis=0)
        elif n_dims == 2:
            dens = factors[0][a:b].T @ factors[1][a:b]
        else:
            dens = 0.0
            step = max(1, _KHATRI_RAO_ENTRIES // side ** (n_dims - 1))
            for lo in range(a, b, step):
                hi = min(b, lo + step)
                left = factors[0][lo:hi]
                for K in factors[1:-1]:
                    left = (left[:, :, None] * K[lo:hi, None, :]).reshape(hi - lo, -1)
                dens = dens + left.T @ factors[-1][lo:hi]
        out[s] = dens.ravel()
        out[s] /= b - a
    return out


def _reflected(points, h):
    """points folded into [0, 1]^l (reflected in the faces, repeatedly),
    plus their mirror images in every face they are within reach of (images
    of images too, for the corners): as _grid_factors does on the grid."""
    reach = _KERNEL_REACH * h
    points = np.mod(points, 2.0)
    points = np.where(points > 1.0, 2.0 - points, points)
    for d in range(points.shape[1]):
        low = points[points[:, d] < reach]
        high = points[points[:, d] > 1.0 - reach]
        low = low.copy()
        low[:, d] = -low[:, d]
        high = high.copy()
        high[:, d] = 2.0 - high[:, d]
        points = np.concatenate([points, low, high])
    return points


def _kde_at_points(block, h, U, reflect):
    """Densities of every set of a block at arbitrary points U (n_e, l),
    shape (n_sets, n_e): squared distances by one matrix product per chunk of
    samples, then exp and a row sum."""
    values, offsets = block.values, block.offsets
    n_dims = values.shape[1]
    uu = np.einsum("ij,ij->i", U, U)
    scale = (2.0 * math.pi * h * h) ** (-0.5 * n_dims)
    step = max(1, _KDE_CHUNK // len(U))
    out = np.zeros((len(block), len(U)))
    for s in range(len(block)):
        points = values[offsets[s] : offsets[s + 1]]
        n = len(points)
        if reflect:
            points = _reflected(points, h)
        for start in range(0, len(points), step):
            P = points[start : start + step]
            G = U @ P.T
            G *= 2.0
            G -= uu[:, None]
            G -= np.einsum("ij,ij->i", P, P)[None, :]
            np.minimum(G, 0.0, out=G)  # rounding can make a squared distance negative
            G *= 0.5 / (h * h)
            np.exp(G, out=G)
            out[s] += G.sum(axis=1)
        out[s] *= scale / n
    return out


# ---- bandwidth rules ----------------------------------------------------------
def scott_bandwidth(packed):
    """Scott's rule s * n^(-1/(l + 4)) for scaled sets: n the median set size,
    s the median over sets of the within-set standard deviation (averaged
    over dimensions; the pooled one if that is 0). It oversmooths multimodal
    densities."""
    l = packed.dim
    sizes = np.diff(packed.offsets)
    sums = np.add.reduceat(packed.values, packed.offsets[:-1], axis=0)
    squares = np.add.reduceat(packed.values**2, packed.offsets[:-1], axis=0)
    means = sums / sizes[:, None]
    var = np.maximum(squares / sizes[:, None] - means**2, 0.0)
    spread = float(np.median(np.sqrt(var).mean(axis=1)))
    if not spread > 0:
        spread = float(packed.values.std(axis=0).mean())
    return spread * float(np.median(sizes)) ** (-1.0 / (l + 4.0))


def cv_bandwidth(packed, random_state=None):
    """Likelihood cross-validation of one Gaussian KDE bandwidth for all sets.

    For (up to) 12 random sets, (up to) 400 random points each, the mean
    leave-one-out log density is summed over the sets for 25 bandwidths
    geometric on [0.002, 0.5]; the best one is rescaled from the subsample
    size m to the median set size n by (m / n)^(1/(l + 4)), the rate of the
    optimal bandwidth. Exact duplicates are left out of each other's
    estimates (otherwise repeated points drive the bandwidth to 0); the
    boundary of the cube is ignored.
    """
    rng = check_random_state(random_state)
    l = packed.dim
    sizes = np.diff(packed.offsets)
    picked = np.sort(rng.choice(len(sizes), size=min(_CV_SETS, len(sizes)), replace=False))
    hs = _CV_BANDWIDTHS
    scores = np.zeros(len(hs))
    used = []
    for i in picked:
        points = packed[int(i)]
        if len(points) > _CV_POINTS:
            points = points[np.sort(rng.choice(len(points), size=_CV_POINTS, replace=False))]
        D2 = squareform(pdist(points, "sqeuclidean"))
        D2[D2 == 0.0] = np.inf  # self and exact duplicates
        nearest = D2.min(axis=1)
        keep = np.isfinite(nearest)
        if keep.sum() < 2:
            continue
        D2, nearest = D2[keep], nearest[keep]
        # log sum_j exp(-D2/(2h^2)) shifted by the nearest neighbour, so no underflow.
        excess = D2 - nearest[:, None]
        for k, h in enumerate(hs):
            c = 0.5 / (h * h)
            total = np.exp(-c * excess).sum(axis=1)
            scores[k] += np.mean(np.log(total) - c * nearest) - math.log(len(points) - 1) - 0.5 * l * math.log(
                2.0 * math.pi * h * h
            )
        used.append(len(points))
    if not used:
        return scott_bandwidth(packed)
    best = float(hs[int(np.argmax(scores))])
    return best * (float(np.median(used)) / float(np.median(sizes))) ** (1.0 / (l + 4.0))


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
    sizes = np.diff(packed.offsets)
    bounds, start, points = [], 0, 0
    for i, n in enumerate(sizes):
        if i > start and (i - start >= max_sets or points + n > _BLOCK_POINTS):
            bounds.append((start, i))
            start, points = i, 0
        points += int(n)
    bounds.append((start, len(sizes)))
    return bounds


def _median_distance(F, name, what):
    d = np.median(pdist(F)) if len(F) > 1 else 0.0
    if not d > 0:
        raise ValueError(
            f"{name}='median' needs distinct fit {what}: the median distance between them is {d}; "
            f"pass {name} as a number"
        )
    return float(d)


# ---- shared machinery ---------------------------------------------------------
class _SampleSetTransformer(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Fit-time scaling, blocks over sets run by n_jobs threads, and the final
    RBF random Fourier features. Subclasses define the pre-RFF map `_embed_block`."""

    def _scale_sets(self, X, fit):
        packed = check_point_sets(X, "X")
        if fit:
            low = packed.values.min(axis=0)
            width = packed.values.max(axis=0) - low
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
        values = (packed.values - self.data_min_) / self.data_range_
        return PackedSets(np.ascontiguousarray(values), packed.offsets)

    def _map_blocks(self, packed, fn, width, dtype):
        """out[start:stop] = fn(packed[start:stop]) over the fixed blocks, in
        n_jobs threads, each with single-threaded BLAS."""
        out = np.empty((len(packed), width), dtype=dtype)
        bounds = _set_blocks(packed, self._max_block_sets())
        n_workers = max(1, min(effective_n_threads(self.n_jobs), len(bounds)))

        def work(worker):
            for start, stop in bounds[worker::n_workers]:
                out[start:stop] = fn(packed[start:stop])

        # numpy's maps release the GIL on large arrays, so n_jobs threads with
        # one BLAS thread each use n_jobs cores without oversubscription.
        with one_blas_thread():
            if n_workers == 1:
                work(0)
            else:
                with ThreadPoolExecutor(n_workers) as pool:
                    list(pool.map(work, range(n_workers)))
        return out

    def _max_block_sets(self):
        return _BLOCK_SETS

    def _random_fourier(self, E, weights, dtype):
        """sqrt(2/D) [sin(E W), cos(E W)]: E (n, m), W (m, D/2)."""
        P = matmul_rows(E, weights).astype(dtype, copy=False)
        half = P.shape[1]
        out = np.empty((P.shape[0], 2 * half), dtype=dtype)
        np.sin(P, out=out[:, :half])
        np.cos(P, out=out[:, half:])
        out *= dtype.type(math.sqrt(1.0 / half))
        return out

    def _fit_rff(self, X_scaled, rng, n_inputs, sigma):
        """Draw the RBF frequencies for inputs of width n_inputs (the standard
        normal draw comes before any median, so sigma does not change it)."""
        base = rng.standard_normal((n_inputs, self.n_components // 2))
        if sigma == "median":
            pick = np.sort(rng.choice(len(X_scaled), size=min(_MEDIAN_SETS, len(X_scaled)), replace=False))
            E = self._embed_sets(X_scaled.take(pick))
            sigma = _median_distance(E, "sigma", "sets")
        self.sigma_ = float(sigma)
        self.random_weights_ = base / self.sigma_
        self.n_components_ = self.n_components

    def _embed_sets(self, packed):
        return self._map_blocks(packed, self._embed_block, self._embedding_width(), np.float64)

    def transform(self, X):
        """Random features of the sample sets.

        Parameters
        ----------
        X : list of array-like of shape (n_samples_i, n_dims)
            Sample sets; sizes may differ, the dimension may not.

        Returns
        -------
        Z : ndarray of shape (n_sets, n_components), C-contiguous
            Z[i] . Z[j] approximates K(p_i, p_j).
        """
        check_is_fitted(self, "random_weights_")
        dtype = check_dtype(self.dtype)
        W = self.random_weights_

        def features(block):
            return self._random_fourier(self._embed_block(block), W, dtype)

        if not isinstance(X, (list, tuple)) or len(X) == 0:
            Z = self._map_blocks(self._scale_sets(X, fit=False), features, self.n_components, dtype)
        else:
            # A list of sets is checked, scaled and packed a chunk at a time:
            # O(chunk) memory above the output (rows do not depend on the chunk).
            items = list(X)
            Z = np.empty((len(items), self.n_components), dtype=dtype)
            for start, stop in chunk_bounds(items):
                packed = check_chunk(lambda part: self._scale_sets(part, fit=False), items, start, stop)
                Z[start:stop] = self._map_blocks(packed, features, self.n_components, dtype)
        check_finite_output(Z, "X")
        return Z

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.requires_fit = True
        return tags


# ---- HDD and L2 density kernels ------------------------------------------------
class DensityKernelFeatures(_SampleSetTransformer):
    """Random features for Jensen-Shannon, Hellinger, total-variation and L2
    kernels between the densities behind sample sets.

    K(p, q) = exp(-d^2(p, q) / (2 sigma^2)) where d^2 is the squared HDD
    int kappa(p(x), q(x)) dx (JS, squared Hellinger or TV; see
    `sample_lambdas` for the measures) or the squared L2 distance
    int (p(x) - q(x))^2 dx. The densities are Gaussian kernel density
    estimates of each set after the fit-time affine map of the data onto
    [0, 1]^l (HDDs do not change under that map; L2 is measured in the
    scaled coordinates).

    Parameters
    ----------
    divergence : {"js", "hellinger", "tv", "l2"}, default="js"
        "js": Jensen-Shannon (natural log, so d^2 <= ln 2);
        "hellinger": squared Hellinger (sqrt p - sqrt q)^2 / 2 (mu is a
        point mass at 0, so one lambda and no imaginary part are used and
        n_lambdas is ignored); "tv": total variation |p - q|;
        "l2": (p - q)^2, i.e. psi(p) = p (Oliva et al. 2014; the paper's L2
        baseline; n_lambdas is ignored).
    n_components : int, default=1000
        Number of output features D (even: sin and cos of D/2 frequencies).
    n_lambdas : int, default=5
        Number M of lambdas drawn from mu / Z (the paper's M = 5). The
        lambdas are the main source of seed-to-seed spread for "js" and
        "tv": in the paper's Gram-matrix experiment the R^2 of "js" ranges
        0.974-0.989 over random_state with M = 5 and 0.983-0.991 with M = 10
        (benchmarks/density_report.py).
    basis_size : int or None, default=None
        Number |V| of basis functions per psi component; None: 10^l (the
        paper's rule of thumb) for l <= 3 (an error beyond: pass it). The
        indices are the |V| multi-indices of smallest |alpha|^2.
    n_integration_points : int or None, default=None
        Number n_e of integration points. With integration="grid" it is
        rounded to a power side^l; None: the smallest side that resolves
        the basis, and at least 256 (l = 1), 32 (l = 2) or 8 (l >= 3). With
        integration="random", None: 4096. The grid should resolve the KDE
        bandwidth (spacing 1/side below about 2 bandwidths).
    bandwidth : {"cv", "scott"} or float, default="cv"
        Gaussian KDE bandwidth in the scaled [0, 1]^l coordinates, one for
        all sets, fixed at fit time. "cv": likelihood cross-validation on a
        subsample of the fit sets (see `cv_bandwidth`); "scott": Scott's rule
        (see `scott_bandwidth`), which oversmooths multimodal densities. The
        paper selects it on validation data; smaller bandwidths than the
        likelihood optimum often estimate divergences better, because the
        truncated basis smooths anyway.
    sigma : "median" or float, default="median"
        Width of the RBF kernel on d. "median": the median of
        ||A(p_i) - A(p_j)|| over (up to 256) fit sets.
    basis : {"cosine", "fourier"}, default="cosine"
        Orthonormal basis of L2([0, 1]): cosines sqrt2 cos(pi k t) (no
        periodicity assumed), or the Fourier basis of the paper's analysis
        (1, sqrt2 cos(2 pi j t), sqrt2 sin(2 pi j t)).
    integration : {"grid", "random"}, default="grid"
        Integration points: "random" draws n_e uniform points (the paper's
        Monte Carlo rule); "grid" is the midpoint rule on a regular grid,
        which is exact for the projections of the cosine basis up to the
        grid's resolution, and lets the KDE run as one matrix product per
        set (the Gaussian kernel factorises over dimensions).
    boundary : {"reflect", "none"}, default="reflect"
        "reflect" adds the mirror images of the samples in the faces of the
        cube, so that the estimate keeps its mass inside [0, 1]^l (the
        densities are on the cube); "none" is the plain KDE.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). Each thread takes whole blocks of
        sets with single-threaded BLAS; the output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type (and of the final product); densities, psi and A are
        always computed in float64.

    Attributes
    ----------
    lambdas_ : ndarray of shape (M,)
        The lambdas drawn (empty for "l2", [0.] for "hellinger").
    measure_mass_ : float
        Z, the total mass of the lambda measure (1 for "l2").
    basis_indices_ : ndarray of int, shape (|V|, l)
    integration_points_ : ndarray of shape (n_e, l)
    bandwidth_ : float
    sigma_ : float
    random_weights_ : ndarray of shape (n_projection_features_, n_components / 2)
        The RBF frequencies, N(0, sigma_^-2).
    n_projection_features_ : int
        Width of A(p): 2 M |V| ("js", "tv") or |V| ("hellinger", "l2").
    data_min_, data_range_ : ndarray of shape (l,)
        The fit-time scaling x -> (x - data_min_) / data_range_.
    n_dims_ : int
    n_components_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke.density import DensityKernelFeatures
    >>> rng = np.random.default_rng(0)
    >>> sets = [rng.normal(loc=m, size=(200, 2)) for m in (0.0, 0.5, 3.0)]
    >>> DensityKernelFeatures("js", n_components=64, random_state=0).fit_transform(sets).shape
    (3, 64)
    """

    def __init__(
        self,
        divergence="js",
        *,
        n_components=1000,
        n_lambdas=5,
        basis_size=None,
        n_integration_points=None,
        bandwidth="cv",
        sigma="median",
        basis="cosine",
        integration="grid",
        boundary="reflect",
        random_state=None,
        n_jobs=None,
        dtype=np.float64,
    ):
        self.divergence = divergence
        self.n_components = n_components
        self.n_lambdas = n_lambdas
        self.basis_size = basis_size
        self.n_integration_points = n_integration_points
        self.bandwidth = bandwidth
        self.sigma = sigma
        self.basis = basis
        self.integration = integration
        self.boundary = boundary
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.dtype = dtype

    def _check_params(self):
        check_choice(self.divergence, "divergence", set(DIVERGENCES))
        _check_even(self.n_components)
        check_positive_int(self.n_lambdas, "n_lambdas")
        if self.basis_size is not None:
            check_positive_int(self.basis_size, "basis_size")
        if self.n_integration_points is not None:
            check_positive_int(self.n_integration_points, "n_integration_points")
        _check_positive_real(self.bandwidth, "bandwidth", BANDWIDTH_RULES)
        _check_positive_real(self.sigma, "sigma", ("median",))
        check_choice(self.basis, "basis", {"cosine", "fourier"})
        check_choice(self.integration, "integration", {"grid", "random"})
        check_choice(self.boundary, "boundary", {"reflect", "none"})
        check_dtype(self.dtype)
        effective_n_threads(self.n_jobs)

    def _fit_bandwidth(self, packed, rng):
        if not isinstance(self.bandwidth, str):
            return float(self.bandwidth)
        if self.bandwidth == "cv":
            return cv_bandwidth(packed, rng)
        return scott_bandwidth(packed)

    def fit(self, X, y=None):
        """Fit the scaling and the bandwidth on X; draw the lambdas, the
        integration points (integration="random") and the RBF frequencies.

        Parameters
        ----------
        X : list of array-like of shape (n_samples_i, n_dims)
        y : ignored

        Returns
        -------
        self
        """
        self._check_params()
        rng = check_random_state(self.random_state)
        packed = self._scale_sets(X, fit=True)
        l = packed.dim
        if self.basis_size is not None:
            size = self.basis_size
        elif l <= 3:
            size = 10**l
        else:
            raise ValueError(
                f"basis_size=None means 10^l basis functions, too many for l = {l} dimensions: pass basis_size "
                "(the number of basis functions per psi component) explicitly"
            )
        self.basis_indices_ = basis_indices(l, size)
        if self.divergence == "l2":
            self.lambdas_ = np.zeros(0)
            self.measure_mass_ = 1.0
        elif self.divergence == "hellinger":
            self.lambdas_ = np.zeros(1)
            self.measure_mass_ = MEASURE_MASS["hellinger"]
        else:
            self.lambdas_ = sample_lambdas(self.divergence, self.n_lambdas, rng)
            self.measure_mass_ = MEASURE_MASS[self.divergence]
        top = int(self.basis_indices_.max())
        if self.integration == "grid":
            # A grid side above the highest basis number keeps the discrete
            # basis orthonormal (no aliasing).
            needed = top + 1 if self.basis == "cosine" else 2 * ((top + 1) // 2) + 1
            if self.n_integration_points is None:
                side = max(needed, {1: 256, 2: 32}.get(l, 8))
            else:
                side = max(1, int(round(self.n_integration_points ** (1.0 / l))))
                if side < needed:
                    raise ValueError(
                        f"n_integration_points={self.n_integration_points} gives a grid of {side}^{l} points, too "
                        f"coarse for basis number {top} (it needs {needed} points per dimension, "
                        f"{needed**l} in all): raise n_integration_points or lower basis_size"
                    )
            self._grid_side = side
            nodes = (np.arange(side) + 0.5) / side
            self.integration_points_ = np.stack([g.ravel() for g in np.meshgrid(*([nodes] * l), indexing="ij")], axis=1)
        else:
            n_e = self.n_integration_points if self.n_integration_points is not None else 4096
            self._grid_side = None
            self.integration_points_ = rng.random_sample((n_e, l))
        n_e = len(self.integration_points_)
        n_psi = 1 if self.divergence in ("l2", "hellinger") else 2 * len(self.lambdas_)
        m = 1 if self.divergence == "l2" else len(self.lambdas_)
        # Quadrature weight 1/n_e and the sqrt(Z / M) of psi, folded into the basis.
        self._phi = basis_matrix(self.integration_points_, self.basis_indices_, self.basis) * (
            math.sqrt(self.measure_mass_ / m) / n_e
        )
        self.n_projection_features_ = n_psi * len(self.basis_indices_)
        self.bandwidth_ = self._fit_bandwidth(packed, rng)
        self._fit_rff(packed, rng, self.n_projection_features_, self.sigma)
        return self

    def _embedding_width(self):
        return self.n_projection_features_

    def _max_block_sets(self):
        n_psi = self.n_projection_features_ // len(self.basis_indices_)
        per_set = 8 * len(self.integration_points_) * (n_psi + 2)
        return int(np.clip(_BLOCK_BYTES // per_set, 1, _BLOCK_SETS))

    def _densities(self, block):
        if self.integration == "grid":
            return _kde_on_grid(block, self.bandwidth_, self._grid_side, self.boundary == "reflect")
        return _kde_at_points(block, self.bandwidth_, self.integration_points_, self.boundary == "reflect")

    def _psi(self, F):
        """The psi functions at the integration points, (n_sets, n_psi, n_e),
        without the constant sqrt(Z / M) (it is in the basis matrix)."""
        if self.divergence == "l2":
            return F[:, None, :]
        np.maximum(F, DENSITY_FLOOR, out=F)
        root = np.sqrt(F)
        if self.divergence == "hellinger":
            return root[:, None, :]
        log = np.log(F)
        M = len(self.lambdas_)
        out = np.empty((F.shape[0], 2 * M, F.shape[1]))
        for j, lam in enumerate(self.lambdas_):
            phase = lam * log
            np.cos(phase, out=out[:, j])
            np.sin(phase, out=out[:, M + j])
        out *= root[:, None, :]
        return out

    def _embed_block(self, block):
        psi = self._psi(self._densities(block))
        n_sets, n_psi, n_e = psi.shape
        # One product for all sets and psi components of the block; rows come
        # out ordered (set, component), i.e. A(p) = [a(psi_1), ..., a(psi_2M)].
        A = matmul_rows(psi.reshape(n_sets * n_psi, n_e), self._phi)
        return A.reshape(n_sets, -1)

    def projection_features(self, X):
        """The projection features A(p) of each set, before the random Fourier
        features: ||A(p) - A(q)||^2 approximates d^2(p, q).

        Parameters
        ----------
        X : list of array-like of shape (n_samples_i, n_dims)

        Returns
        -------
        A : ndarray of shape (n_sets, n_projection_features_), float64
            Blocks of |V| coefficients, one block per psi component:
            Re for lambda_1..lambda_M, then Im for lambda_1..lambda_M.
        """
        check_is_fitted(self, "random_weights_")
        return self._embed_sets(self._scale_sets(X, fit=False))

    def densities(self, X):
        """The kernel density estimates at `integration_points_` (in the
        scaled coordinates), shape (n_sets, n_e)."""
        check_is_fitted(self, "random_weights_")
        packed = self._scale_sets(X, fit=False)
        return self._map_blocks(packed, self._densities, len(self.integration_points_), np.float64)


# ---- MMD baseline ------------------------------------------------------------
class MeanEmbeddingFeatures(_SampleSetTransformer):
    """Random features for the RBF kernel on the MMD between sample sets
    (the paper's MMD baseline, after Muandet et al. 2012).

    Each set's mean embedding is m(p) = (1/n) sum_i z(x_i) with z the random
    Fourier features of a Gaussian base kernel of width base_bandwidth, so
    ||m(p) - m(q)|| approximates MMD(p, q); the output approximates
    exp(-MMD^2(p, q) / (2 sigma^2)). The data are scaled onto [0, 1]^l at
    fit time, as in DensityKernelFeatures.

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
    base_weights_ : ndarray of shape (n_dims_, n_base_components / 2)
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

    def __init__(
        self,
        n_components=1000,
        *,
        n_base_components=500,
        base_bandwidth="median",
        sigma="median",
        random_state=None,
        n_jobs=None,
        dtype=np.float64,
    ):
        self.n_components = n_components
        self.n_base_components = n_base_components
        self.base_bandwidth = base_bandwidth
        self.sigma = sigma
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.dtype = dtype

    def _check_params(self):
        _check_even(self.n_components)
        n = check_positive_int(self.n_base_components, "n_base_components", minimum=2)
        if n % 2:
            raise ValueError(f"n_base_components must be even, got {n}")
        _check_positive_real(self.base_bandwidth, "base_bandwidth", ("median",))
        _check_positive_real(self.sigma, "sigma", ("median",))
        check_dtype(self.dtype)
        effective_n_threads(self.n_jobs)

    def fit(self, X, y=None):
        """Fit the scaling (and the medians); draw the base and RBF frequencies.

        Parameters
        ----------
        X : list of array-like of shape (n_samples_i, n_dims)
        y : ignored

        Returns
        -------
        self
        """
        self._check_params()
        rng = check_random_state(self.random_state)
        packed = self._scale_sets(X, fit=True)
        base = rng.standard_normal((packed.dim, self.n_base_components // 2))
        if self.base_bandwidth == "median":
            total = len(packed.values)
            pick = np.sort(rng.choice(total, size=min(_MEDIAN_POINTS, total), replace=False))
            self.base_bandwidth_ = _median_distance(packed.values[pick], "base_bandwidth", "points")
        else:
            self.base_bandwidth_ = float(self.base_bandwidth)
        self.base_weights_ = base / self.base_bandwidth_
        self._fit_rff(packed, rng, self.n_base_components, self.sigma)
        return self

    def _embedding_width(self):
        return self.n_base_components

    def _embed_block(self, block):
        Z = self._random_fourier(block.values, self.base_weights_, np.dtype(np.float64))
        sizes = np.diff(block.offsets)
        return np.add.reduceat(Z, block.offsets[:-1], axis=0) / sizes[:, None]

    def mean_embeddings(self, X):
        """The mean embeddings m(p) before the RBF features, shape
        (n_sets, n_base_components): ||m(p) - m(q)|| approximates MMD(p, q)."""
        check_is_fitted(self, "random_weights_")
        return self._embed_sets(self._scale_sets(X, fit=False))
