"""DensityKernelFeatures: random features for the JS, Hellinger, TV and L2
kernels between the densities behind sample sets."""

import math
from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .. import _core
from .._base import COUNT, Interval, StrOptions, store_parameters
from .._parallel import run_row_blocks
from .._validation import check_choice, check_positive_int, effective_n_threads, warn_user
from ._base import POSITIVE, _check_positive_real, _SampleSetTransformer, _set_blocks
from .bandwidth import BANDWIDTH_RULES, cv_bandwidth, scott_bandwidth
from .basis import basis_indices, projection
from .kde import kde_at_points, kde_on_grid
from .measures import DIVERGENCES, MEASURE_MASS, sample_lambdas

# Density estimates are floored here so that log p stays finite where the
# Gaussian tails underflow (this is the paper's rho_* > 0); psi moves by at
# most sqrt(1e-12) = 1e-6 where it applies.
DENSITY_FLOOR = 1e-12
# Per-set buffers (densities, psi) of a block take at most this many bytes
# together, so that a block's buffers stay at a few MB.
_BLOCK_BYTES = 32 << 20
# The most integration grid points: a set's density on them takes 8 MB.
_MAX_GRID_POINTS = 1 << 20
# The most basis functions: in one dimension the grid has as many points, so
# its projection is 4096^2 numbers (134 MB); 10^5 asked for 75 GiB.
_MAX_BASIS_SIZE = 4096


# Transform points more than this share of the fit range outside it are
# warned about (a little outside is common, and reflection handles it), and
# so is a set with more than this share of its points outside at all.
_RANGE_MARGIN = 0.5
_OUTSIDE_SHARE = 0.25

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
        n_lambdas is ignored); "tv": total variation ``|p - q|``, i.e. d^2 =
        ``int |p - q|`` = 2 TV (underestimated by the basis truncation: see
        basis_size);
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
        Number ``|V|`` of basis functions per psi component; None: 10^l (the
        paper's rule of thumb) for l <= 3 (an error beyond: pass it). The
        indices are the ``|V|`` multi-indices of smallest ``|alpha|^2``.

        The truncation makes the "tv" distance too small. Measured on 1-D Gaussians N(0, 1) and N(mu, 1)
        (benchmarks/tv_truncation.py; d^2 = ``int |p - q|`` = 2 TV; default
        bandwidth): with 2000 points per set and 200 lambdas, to isolate the
        truncation, the implied ``int |p - q|`` is 43 / 81 / 92 / 98 / 100 % of
        the true 0.70 (TV 0.35) with basis_size 5 / 10 / 20 / 40 / 80, and
        69 / 87 / 94 / 97 / 98 % of the true 1.40 (TV 0.70). With the
        defaults (n_lambdas=5, ``|V| = 10`` for l = 1) and 200 points per set,
        over 10 seeds, it is 79 % (0.55 +- 0.21) of 0.70 and 82 % (TV
        0.57 +- 0.11) of 1.40; 88-90 % with basis_size=20, 92 % with 40
        (where it meets the KDEs' own ``int |p - q|``, 91-95 % of the truth:
        the rest is KDE smoothing). The kernel exp(-d^2 / 2) (sigma = 1) is
        then 0.76 for a true 0.70 and 0.56 for 0.50 at the default ``|V|``, and
        the spread from the 5 lambdas is larger than the truncation bias
        from basis_size 20 up. For "tv" in one dimension basis_size=40 keeps
        the bias under 10 % at 4 times the width of A (``2 M |V|``); higher
        dimensions were not measured. These fractions hold when the fit sets
        span about the range of one set: the basis lives on the fit data's
        box, so when the sets lie far apart (the box many times one set's
        width) each density is narrow on it and the truncation cuts more. A
        trial measured the implied TV distance of N(0, 1) and N(0.91, 1) at
        66 % of the estimator's own with no other fit sets, 38 % with 20
        more spread over +-5 and 25 % over +-10 (82 % there with
        basis_size=100); "js" kept 97 / 89 / 70 %. On such data raise
        basis_size (at most 4096).
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
        Output type; everything is computed in float64 (densities, psi, A,
        the final products and their sines and cosines) and rounded to it
        at the end.

    Attributes
    ----------
    lambdas_ : ndarray of shape (M,)
        The lambdas drawn (empty for "l2", [0.] for "hellinger").
    measure_mass_ : float
        Z, the total mass of the lambda measure (1 for "l2").
    basis_indices_ : ndarray of int, shape ``(|V|, l)``
    integration_points_ : ndarray of shape (n_e, l)
    bandwidth_ : float
    sigma_ : float
    random_weights_ : ndarray of shape ``(n_projection_features_, n_components / 2)``
        The RBF frequencies, N(0, sigma_^-2).
    n_projection_features_ : int
        Width of A(p): ``2 M |V|`` ("js", "tv") or ``|V|`` ("hellinger", "l2").
    data_min_, data_range_ : ndarray of shape (l,)
        The fit-time scaling ``x -> (x - data_min_) / data_range_``.
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

    _parameter_constraints = {
        **_SampleSetTransformer._parameter_constraints,
        "divergence": [StrOptions(set(DIVERGENCES))],
        "n_lambdas": [COUNT],
        "basis_size": [Interval(Integral, 1, _MAX_BASIS_SIZE, closed="both"), None],
        "n_integration_points": [COUNT, None],
        "bandwidth": [POSITIVE, StrOptions(set(BANDWIDTH_RULES))],
        "basis": [StrOptions({"cosine", "fourier"})],
        "integration": [StrOptions({"grid", "random"})],
        "boundary": [StrOptions({"reflect", "none"})],
    }

    def __init__(self, divergence="js", *, n_components=1000, n_lambdas=5, basis_size=None, n_integration_points=None,
                 bandwidth="cv", sigma="median", basis="cosine", integration="grid", boundary="reflect",
                 random_state=None, n_jobs=None, dtype=np.float64):
        store_parameters(self, locals())

    def _check_own_params(self):
        check_choice(self.divergence, "divergence", set(DIVERGENCES))
        check_positive_int(self.n_lambdas, "n_lambdas")
        if self.basis_size is not None:
            # The 1-D grid has |V| points at least: its projection is |V|^2 numbers.
            check_positive_int(self.basis_size, "basis_size", maximum=_MAX_BASIS_SIZE)
        if self.n_integration_points is not None:
            check_positive_int(self.n_integration_points, "n_integration_points")
        _check_positive_real(self.bandwidth, "bandwidth", BANDWIDTH_RULES)
        check_choice(self.basis, "basis", {"cosine", "fourier"})
        check_choice(self.integration, "integration", {"grid", "random"})
        check_choice(self.boundary, "boundary", {"reflect", "none"})

    def _fit_bandwidth(self, packed, rng):
        if not isinstance(self.bandwidth, str):
            return float(self.bandwidth)
        if self.bandwidth == "cv":
            return cv_bandwidth(packed, rng)
        return scott_bandwidth(packed)

    def _check_range(self, scaled, least, largest):
        """A warning for transform points far outside the fit data's box, or
        for a set with most of its points outside: the densities live on
        that box, so such points are folded back into it
        (boundary="reflect") or lost past its edge ("none"), and such sets
        look like sets inside it. A second pass over the points, only when
        some point is outside."""
        if 0.0 <= least and largest <= 1.0:
            return
        if -_RANGE_MARGIN <= least and largest <= 1.0 + _RANGE_MARGIN:
            # Each point a little outside; a set with most of its points there
            # is still misread (a trial: N(8, 1) against fit sets over [-3.9, 6.9]).
            share = self._largest_outside_share(scaled)
            if share > _OUTSIDE_SHARE:
                warn_user(f"a set of X has {share:.0%} of its points outside the fit data's range; the "
                          f"densities live on the fit data's box, so such points are folded back into it "
                          f"(boundary='reflect') or dropped past its edge (boundary='none'): fit on data that "
                          f"covers them")
            return
        values = scaled.values
        outside = np.flatnonzero(((values < -_RANGE_MARGIN) | (values > 1.0 + _RANGE_MARGIN)).any(axis=0))
        if outside.size:
            d = int(outside[0])
            warn_user(f"X has points far outside the fit data's range in dimension {d} (fit range "
                      f"[{self.data_min_[d]:.6g}, {self.data_min_[d] + self.data_range_[d]:.6g}]); the densities "
                      f"live on the fit data's box, so such points are folded back into it "
                      f"(boundary='reflect') or dropped past its edge (boundary='none'): fit on data that covers "
                      f"them")

    def _largest_outside_share(self, scaled):
        """The largest share of one set's points outside [0, 1]^l, in blocks
        of sets on the transform's threads (one pass over every point: 4 %
        of a transform's time when done on one thread)."""
        offsets = scaled.offsets
        shares = []  # one per block (list.append is atomic)

        def work(start, stop, state):
            first, last = offsets[start], offsets[stop]
            values = scaled.values[first:last]
            outside = ((values < 0.0) | (values > 1.0)).any(axis=1)
            shares.append(float((np.add.reduceat(outside, offsets[start:stop] - first)
                                 / np.diff(offsets[start:stop + 1])).max()))

        run_row_blocks(work, _set_blocks(scaled), effective_n_threads(self.n_jobs))
        return max(shares)

    def _fit_scaled(self, packed, rng):
        """Fit the bandwidth; draw the lambdas, the integration points
        (integration="random") and the RBF frequencies."""
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
            if side ** l > _MAX_GRID_POINTS:
                # Every set's density is evaluated at every grid point (8 bytes each, per set of a block).
                raise ValueError(
                    f"integration='grid' in {l} dimensions needs {side}^{l} = {side ** l:.3g} points, each set's "
                    f"density at every one: more than {_MAX_GRID_POINTS} points. Use integration='random' "
                    f"(n_integration_points random points, 4096 by default), or fewer dimensions"
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
        # Quadrature weight 1/n_e and the sqrt(Z / M) of psi, folded into the projection.
        self._project = projection(self.integration_points_, self.basis_indices_, self.basis,
                                   math.sqrt(self.measure_mass_ / m) / n_e, self._grid_side)
        self.n_projection_features_ = n_psi * len(self.basis_indices_)
        self.bandwidth_ = self._fit_bandwidth(packed, rng)
        if self._grid_side is not None and self.bandwidth_ < 0.5 / self._grid_side:
            # Kernels narrower than the cells put most of a set's mass between grid points.
            warn_user(f"bandwidth_ = {self.bandwidth_:.3g} is below half the integration grid's spacing "
                      f"(1/{self._grid_side} per dimension): the densities are mostly 0 at the grid points and the "
                      f"divergences meaningless; raise the bandwidth, n_integration_points, or use "
                      f"integration='random'")
        self._fit_rff(packed, rng, self.n_projection_features_, self.sigma)

    def _embedding_width(self):
        return self.n_projection_features_

    def _max_block_sets(self):
        n_psi = self.n_projection_features_ // len(self.basis_indices_)
        per_set = 8 * len(self.integration_points_) * (n_psi + 2)
        return max(1, min(_BLOCK_BYTES // per_set, super()._max_block_sets()))

    def _densities(self, block):
        if self.integration == "grid":
            return kde_on_grid(block.values, block.offsets, self.bandwidth_, self._grid_side,
                               self.boundary == "reflect")
        return kde_at_points(block.values, block.offsets, self.bandwidth_, self.integration_points_,
                             self.boundary == "reflect")

    def _psi(self, F):
        """The psi functions at the integration points, (n_sets, n_psi, n_e),
        without the constant sqrt(Z / M) (it is in the basis matrix)."""
        if self.divergence == "l2":
            return F[:, None, :]
        if self.divergence == "hellinger":
            return np.sqrt(np.maximum(F, DENSITY_FLOOR))[:, None, :]
        # cos/sin(lambda log F) sqrt F in the core: numpy's float64 cos and sin
        # took over half of the transform's time, holding the GIL between steps.
        out = np.empty((F.shape[0], 2 * len(self.lambdas_), F.shape[1]))
        _core.density_psi_into(np.ascontiguousarray(F, dtype=np.float64),
                               np.ascontiguousarray(self.lambdas_, dtype=np.float64), DENSITY_FLOOR, out)
        return out

    def _embed_block(self, block):
        psi = self._psi(self._densities(block))
        n_sets, n_psi, n_e = psi.shape
        # One product for all sets and psi components of the block; rows come
        # out ordered (set, component), i.e. A(p) = [a(psi_1), ..., a(psi_2M)].
        A = self._project(psi.reshape(n_sets * n_psi, n_e))
        return A.reshape(n_sets, -1)

    def projection_features(self, X):
        """The projection features A(p) of each set, before the random Fourier
        features: ||A(p) - A(q)||^2 approximates d^2(p, q).

        Parameters
        ----------
        X : list of array-like of shape (n_samples_i, n_dims)

        Returns
        -------
        A : ndarray of shape ``(n_sets, n_projection_features_)``, float64
            Blocks of ``|V|`` coefficients, one block per psi component:
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
