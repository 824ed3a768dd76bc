"""Density kernels on sample sets: the lambda measures against the closed-form
kappas, the KDE and projections against direct formulas, the kernel
approximation, determinism across threads, scikit-learn behaviour and bad
input."""

import math
import pickle
import warnings

import numpy as np
import pytest
from scipy import integrate
from scipy.spatial.distance import pdist, squareform
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline

import pyd2ke
from pyd2ke import _core
from pyd2ke.density import _base, kde
from pyd2ke.density.basis import DenseProjection, GridProjection, basis_matrix, projection
from pyd2ke.density import (
    MEASURE_MASS,
    DensityKernelFeatures,
    MeanEmbeddingFeatures,
    basis_indices,
    cv_bandwidth,
    sample_lambdas,
)
from pyd2ke._domains.point_sets import check_point_sets


def kappa(divergence, x, y):
    """Table 1 of the paper, natural log."""
    if divergence == "js":
        return 0.5 * x * math.log(2 * x / (x + y)) + 0.5 * y * math.log(2 * y / (x + y)) if x * y > 0 else (
            0.5 * (x + y) * math.log(2)
        )
    if divergence == "hellinger":
        return 0.5 * (math.sqrt(x) - math.sqrt(y)) ** 2
    return abs(x - y)


MEASURES = {
    "js": lambda t: np.exp(-np.pi * abs(t)) / ((1 + np.exp(-2 * np.pi * abs(t))) * (1 + 4 * t * t)),
    "tv": lambda t: (2 / np.pi) / (1 + 4 * t * t),
}


def sets_2d(n_sets=40, size=60, seed=0):
    """Gaussian blobs with random centres and widths; labels = the width."""
    rng = np.random.default_rng(seed)
    widths = rng.uniform(0.3, 1.5, n_sets)
    sets = [rng.normal(loc=rng.uniform(-1, 1, 2), scale=w, size=(size + i % 7, 2)) for i, w in enumerate(widths)]
    return sets, widths


SETS, WIDTHS = sets_2d()


@pytest.mark.parametrize("n_points", [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130])
def test_core_psi_matches_numpy(n_points):
    """density_psi_into against the numpy formula it replaced, with densities
    at, below and far below the floor, at lengths around the SIMD widths."""
    from pyd2ke import _core
    from pyd2ke.density.features import DENSITY_FLOOR

    rng = np.random.default_rng(n_points)
    F = rng.exponential(size=(5, n_points)) * rng.choice([1.0, 1e-9, 1e-14, 0.0, 30.0], size=(5, n_points))
    lambdas = rng.normal(scale=0.3, size=4)
    out = np.full((5, 8, n_points), np.nan)
    _core.density_psi_into(F, lambdas, DENSITY_FLOOR, out)
    G = np.maximum(F, DENSITY_FLOOR)
    phase = lambdas[None, :, None] * np.log(G)[:, None, :]
    expected = np.concatenate([np.cos(phase), np.sin(phase)], axis=1) * np.sqrt(G)[:, None, :]
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-15 * max(1.0, np.sqrt(G).max(initial=0)))
    with pytest.raises(ValueError, match="out must have shape"):
        _core.density_psi_into(F, lambdas, DENSITY_FLOOR, np.zeros((5, 7, n_points)))
    with pytest.raises(ValueError, match="floor"):
        _core.density_psi_into(F, lambdas, 0.0, out)


# ---- lambda measures -----------------------------------------------------------
@pytest.mark.parametrize("divergence", ["js", "hellinger", "tv"])
def test_sampled_lambdas_reproduce_kappa(divergence):
    """Z * mean |x^(1/2 + i l) - y^(1/2 + i l)|^2 over sampled lambdas is the closed-form kappa."""
    lam = sample_lambdas(divergence, 400_000, random_state=0)
    Z = MEASURE_MASS[divergence]
    for x, y in [(0.3, 1.7), (1.0, 0.0), (2.0, 0.5), (0.01, 5.0), (1.0, 1.0), (4.0, 3.9)]:
        gx = x ** (0.5 + 1j * lam) if x > 0 else 0.0
        gy = y ** (0.5 + 1j * lam) if y > 0 else 0.0
        terms = Z * np.abs(gx - gy) ** 2
        # Within 4 standard errors of the Monte Carlo mean, and within 3%.
        error = abs(terms.mean() - kappa(divergence, x, y))
        assert error <= 4 * terms.std() / math.sqrt(len(lam)) + 1e-12, (x, y)
        assert error <= 0.03 * kappa(divergence, x, y) + 1e-12, (x, y)


@pytest.mark.parametrize("divergence", ["js", "tv"])
def test_lambda_distribution_and_mass(divergence):
    density = MEASURES[divergence]
    mass = integrate.quad(density, -np.inf, np.inf)[0]
    assert mass == pytest.approx(MEASURE_MASS[divergence], rel=1e-9)
    lam = sample_lambdas(divergence, 200_000, random_state=1)
    for t in (-1.0, -0.4, -0.1, 0.0, 0.2, 0.7, 2.0):
        cdf = integrate.quad(density, -np.inf, t)[0] / mass
        assert np.mean(lam <= t) == pytest.approx(cdf, abs=0.005), t


def test_hellinger_lambdas_and_sampler_errors():
    np.testing.assert_array_equal(sample_lambdas("hellinger", 3), np.zeros(3))
    a = sample_lambdas("js", 50, random_state=7)
    np.testing.assert_array_equal(a, sample_lambdas("js", 50, random_state=7))
    with pytest.raises(ValueError, match="divergence must be one of"):
        sample_lambdas("kl", 5)
    with pytest.raises(ValueError, match="size must be >= 1"):
        sample_lambdas("js", 0)


# ---- KDE, basis and projections -----------------------------------------------
def reflected_kde(points, h, U):
    """Direct Gaussian KDE with the 3 images per dimension (enough when h is small)."""
    n, l = points.shape
    total = np.zeros(len(U))
    for shifts in np.array(np.meshgrid(*[[0, 1, 2]] * l, indexing="ij")).reshape(l, -1).T:
        images = points.copy()
        for d, k in enumerate(shifts):
            images[:, d] = [points[:, d], -points[:, d], 2 - points[:, d]][k]
        D2 = ((U[:, None, :] - images[None, :, :]) ** 2).sum(-1)
        total += np.exp(-D2 / (2 * h * h)).sum(1)
    return total / (n * (2 * math.pi * h * h) ** (l / 2))


@pytest.mark.parametrize("integration, n_dims, n_points", [
    ("grid", 1, 40), ("grid", 2, 256), ("grid", 3, 512), ("random", 2, 300), ("random", 3, 200)])
@pytest.mark.parametrize("boundary", ["reflect", "none"])
def test_kde_matches_direct_formula(integration, n_dims, n_points, boundary):
    rng = np.random.default_rng(0)
    sets = [rng.uniform(0, 1, (25, n_dims)), rng.uniform(0.2, 0.5, (7, n_dims)),
            np.array([[0.0] * n_dims, [1.0] * n_dims])]
    h = 0.07
    est = DensityKernelFeatures(
        "l2", n_components=2, bandwidth=h, basis_size=4, integration=integration,
        n_integration_points=n_points, boundary=boundary, sigma=1.0, random_state=0,
    ).fit(sets)
    F = est.densities(sets)
    U = est.integration_points_
    assert U.shape == (n_points, n_dims)
    for X, f in zip(sets, F):
        scaled = (X - est.data_min_) / est.data_range_
        if boundary == "reflect":
            expected = reflected_kde(scaled, h, U)
        else:
            D2 = ((U[:, None, :] - scaled[None]) ** 2).sum(-1)
            expected = np.exp(-D2 / (2 * h * h)).sum(1) / (len(X) * (2 * math.pi * h * h) ** (n_dims / 2))
        np.testing.assert_allclose(f, expected, rtol=1e-6, atol=1e-7)


# Set sizes on both sides of the boundaries where the batched KDE changes
# its layout (padding ladder, SIMD widths, pieces).
BOUNDARY_SIZES = [1, 2, 7, 8, 9, 63, 64, 65]


def slow_grid_kde(points, h, side, reflect):
    """The grid KDE of one set, point by point and node by node: each 1-D
    Gaussian is evaluated at the nodes within 6 bandwidths (rounded up to
    whole nodes) of the point's nearest node; with reflect a node beyond a
    face stands for its mirror node (the kernel of the point's mirror image
    there), without it is dropped. The density is the mean over the points
    of the product over dimensions."""
    n, l = points.shape
    reach = math.ceil(6.0 * side * h)
    total = np.zeros((side,) * l)
    for x in points:
        factors = []
        for d in range(l):
            f = np.zeros(side)
            nearest = int(np.rint(x[d] * side - 0.5))
            for node in range(nearest - reach, nearest + reach + 1):
                value = math.exp(-0.5 * (((node + 0.5) / side - x[d]) / h) ** 2) / (math.sqrt(2 * math.pi) * h)
                if reflect:
                    node %= 2 * side
                    f[node if node < side else 2 * side - 1 - node] += value
                elif 0 <= node < side:
                    f[node] += value
            factors.append(f)
        product = factors[0]
        for f in factors[1:]:
            product = np.multiply.outer(product, f)
        total += product
    return total.ravel() / n


def slow_point_kde(points, h, U, reflect):
    """The KDE of one set at points U, a direct sum of Gaussians over the
    samples and, with reflect, their mirror images: points folded into the
    cube, then mirrored in each face they are within 6 bandwidths of (images
    of images too)."""
    n, l = points.shape
    samples = [np.array(x, dtype=float) for x in points]
    if reflect:
        samples = [np.where(np.mod(x, 2) > 1, 2 - np.mod(x, 2), np.mod(x, 2)) for x in samples]
        for d in range(l):
            images = []
            for x in samples:
                if x[d] < 6 * h:
                    images.append(np.where(np.arange(l) == d, -x, x))
                if x[d] > 1 - 6 * h:
                    images.append(np.where(np.arange(l) == d, 2 - x, x))
            samples += images
    total = np.zeros(len(U))
    for y in samples:
        total += np.exp(-((U - y) ** 2).sum(axis=1) / (2 * h * h))
    return total / (n * (2 * math.pi * h * h) ** (l / 2))


@pytest.mark.parametrize("n_dims", [1, 2, 3])
@pytest.mark.parametrize("integration", ["grid", "random"])
@pytest.mark.parametrize("reflect", [True, False], ids=["reflect", "none"])
@pytest.mark.parametrize("h", [0.06, 0.3])
def test_batched_kde_matches_a_per_set_reference(n_dims, integration, reflect, h):
    """The block KDE (no loop over sets) against the per-set reference, on
    sets of boundary sizes in shuffled order, some points outside the cube;
    and each set's estimate does not depend on the other sets of the block."""
    check_block_kde(n_dims, integration, reflect, h)


@pytest.mark.parametrize("n_dims", [1, 2, 3])
@pytest.mark.parametrize("reflect", [True, False], ids=["reflect", "none"])
def test_grid_kde_with_a_bandwidth_far_below_the_node_spacing(n_dims, reflect):
    """The core's direct exps (bandwidth < spacing / 20) against the reference,
    relative to each set's largest value: far below it (exp(-450)) exp
    magnifies the rounding of its argument."""
    check_block_kde(n_dims, "grid", reflect, 0.0005, peak_relative=True)


def check_block_kde(n_dims, integration, reflect, h, peak_relative=False):
    rng = np.random.default_rng(n_dims)
    sizes = rng.permutation(BOUNDARY_SIZES * 2)
    sets = [rng.uniform(-0.1, 1.1, (n, n_dims)) for n in sizes]
    values = np.concatenate(sets)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    if integration == "grid":
        side = {1: 64, 2: 16, 3: 6}[n_dims]
        F = kde.kde_on_grid(values, offsets, h, side, reflect)
        expected = [slow_grid_kde(X, h, side, reflect) for X in sets]
        alone = [kde.kde_on_grid(X, np.array([0, len(X)]), h, side, reflect)[0] for X in sets]
    else:
        U = rng.uniform(0, 1, (300, n_dims))
        F = kde.kde_at_points(values, offsets, h, U, reflect)
        expected = [slow_point_kde(X, h, U, reflect) for X in sets]
        alone = [kde.kde_at_points(X, np.array([0, len(X)]), h, U, reflect)[0] for X in sets]
    assert F.shape == (len(sets), len(expected[0]))
    for f, e, a in zip(F, expected, alone):
        np.testing.assert_allclose(f, e, rtol=1e-12, atol=1e-12 * e.max() if peak_relative else 0.0)
        np.testing.assert_array_equal(f, a)


def test_small_blocks_agree(monkeypatch):
    """The block size changes nothing but rounding (3-D sets)."""
    rng = np.random.default_rng(2)
    sets = [rng.uniform(0, 1, (40 + i, 3)) for i in range(12)]
    est = DensityKernelFeatures("js", n_components=8, basis_size=10, bandwidth=0.1, random_state=0).fit(sets)
    F, A = est.densities(sets), est.projection_features(sets)
    monkeypatch.setattr(_base, "_BLOCK_SETS", 5)
    np.testing.assert_allclose(est.densities(sets), F, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(est.projection_features(sets), A, rtol=1e-10, atol=1e-14)


def test_absurd_bandwidths_and_far_points_on_the_grid():
    """A bandwidth thousands of times the data's width is refused with its
    value named (it would take minutes per set); points far outside the fit
    range (a fill value) give finite features, the same as their mirror image
    in the cube with reflection."""
    rng = np.random.default_rng(3)
    sets = [rng.uniform(0, 1, (30, 2)) for _ in range(4)]
    with pytest.raises(ValueError, match="bandwidth 1e\\+06 .* too wide"):
        DensityKernelFeatures("js", n_components=8, bandwidth=1e6, sigma=1.0, random_state=0).fit_transform(sets)
    est = DensityKernelFeatures("js", n_components=8, bandwidth=0.1, random_state=0).fit(sets)
    far = [np.vstack([s, [[1e30, 0.5]]]) for s in sets]
    with pytest.warns(UserWarning, match="far outside the fit data's range in dimension 0"):
        assert np.isfinite(est.transform(far)).all()
    width = est.data_range_[0]
    # 0.3 of the width: not halfway between two grid nodes, where the cut at 6
    # bandwidths moves by a node with the last bit of the scaled coordinate.
    mirrored = [np.vstack([s, [[est.data_min_[0] - 0.3 * width, 0.5]]]) for s in sets]
    inside = [np.vstack([s, [[est.data_min_[0] + 0.3 * width, 0.5]]]) for s in sets]
    np.testing.assert_allclose(est.densities(mirrored), est.densities(inside), rtol=1e-12, atol=1e-300)


def test_reflection_keeps_the_mass_in_the_cube():
    rng = np.random.default_rng(1)
    sets = [rng.uniform(0, 1, (50, 2)) ** 3, rng.uniform(0, 1, (50, 2))]
    A = {b: DensityKernelFeatures("l2", n_components=2, bandwidth=0.08, boundary=b, sigma=1.0, random_state=0)
         .fit(sets).projection_features(sets) for b in ("reflect", "none")}
    # The constant basis function's coefficient is the mass in [0, 1]^2.
    np.testing.assert_allclose(A["reflect"][:, 0], 1.0, rtol=1e-7)
    assert np.all(A["none"][:, 0] < 0.97)


def test_basis_indices_are_the_smallest_ellipsoid():
    V = basis_indices(2, 100)
    assert len({tuple(v) for v in V}) == 100 and V[0].tolist() == [0, 0]
    norms = (V**2).sum(1)
    assert np.all(np.diff(norms) >= 0)
    outside = [(a, b) for a in range(20) for b in range(20) if a * a + b * b < norms.max()]
    assert len(outside) <= 100
    assert basis_indices(1, 7).ravel().tolist() == list(range(7))


def cosine_basis(U, indices):
    """The cosine basis functions prod_d sqrt2 cos(pi k_d u_d) (1 for k_d = 0)
    at the points U, written out: (len(U), len(indices))."""
    Phi = np.ones((len(U), len(indices)))
    for d in range(U.shape[1]):
        k = indices[:, d]
        Phi *= np.where(k == 0, 1.0, math.sqrt(2) * np.cos(math.pi * np.outer(U[:, d], k)))
    return Phi


@pytest.mark.parametrize("divergence", ["js", "hellinger", "tv", "l2"])
def test_projection_features_are_the_basis_coefficients_of_psi(divergence):
    """A(p) = sqrt(Z/M) / n_e * Phi' psi(p), computed here from the densities."""
    est = DensityKernelFeatures(divergence, n_components=2, basis_size=12, n_lambdas=3, random_state=0).fit(SETS)
    F = np.maximum(est.densities(SETS[:3]), 1e-12)
    U = est.integration_points_
    Phi = cosine_basis(U, est.basis_indices_)
    if divergence == "l2":
        psi, M, Z = [est.densities(SETS[:3])], 1, 1.0
    elif divergence == "hellinger":
        psi, M, Z = [np.sqrt(F)], 1, 0.5
    else:
        g = [F ** (0.5 + 1j * lam) for lam in est.lambdas_]
        psi, M, Z = [x.real for x in g] + [x.imag for x in g], 3, MEASURE_MASS[divergence]
    expected = np.concatenate([p @ Phi for p in psi], axis=1) * math.sqrt(Z / M) / len(U)
    np.testing.assert_allclose(est.projection_features(SETS[:3]), expected, rtol=1e-9, atol=1e-12)
    assert est.n_projection_features_ == expected.shape[1]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("half", [1, 7, 8, 9, 64, 65])
def test_core_sin_cos_rows_match_numpy(dtype, half):
    """The final random Fourier features: scale [sin P, cos P] per row, by the
    core's SIMD sin/cos, against numpy; wrong shapes are refused."""
    P = np.random.default_rng(half).normal(scale=30.0, size=(5, half))
    out = np.full((5, 2 * half), np.nan, dtype=dtype)
    _core.sin_cos_rows_into(P, 0.25, out)
    expected = 0.25 * np.concatenate([np.sin(P), np.cos(P)], axis=1)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-15 if dtype == np.float64 else 4e-8)
    with pytest.raises(ValueError, match="out must have shape"):
        _core.sin_cos_rows_into(P, 0.25, np.zeros((5, 2 * half + 1), dtype=dtype))


def test_random_fourier_into_rows_of_any_layout():
    """_random_fourier writes into C-ordered rows directly and into other
    layouts through a copy: the same values."""
    est = DensityKernelFeatures(n_components=8, basis_size=6, random_state=0).fit(SETS)
    E = est.projection_features(SETS[:4])
    expected = est._random_fourier(E, est.random_weights_, np.dtype(np.float64))
    rows = np.empty((4, 8))
    est._random_fourier(E, est.random_weights_, np.dtype(np.float64), out=rows)
    columns = np.empty((8, 4)).T
    est._random_fourier(E, est.random_weights_, np.dtype(np.float64), out=columns)
    np.testing.assert_array_equal(rows, expected)
    np.testing.assert_array_equal(columns, expected)


def test_projection_features_in_three_dimensions():
    """The same on a 3-D grid (projected one axis at a time by the core)."""
    rng = np.random.default_rng(5)
    sets = [rng.normal(rng.uniform(0, 1), 0.3, (int(rng.integers(20, 40)), 3)) for _ in range(6)]
    est = DensityKernelFeatures("js", n_components=2, basis_size=30, n_lambdas=2, random_state=0).fit(sets)
    F = np.maximum(est.densities(sets[:3]), 1e-12)
    U = est.integration_points_
    Phi = cosine_basis(U, est.basis_indices_)
    g = [F ** (0.5 + 1j * lam) for lam in est.lambdas_]
    psi = [x.real for x in g] + [x.imag for x in g]
    expected = np.concatenate([p @ Phi for p in psi], axis=1) * math.sqrt(MEASURE_MASS["js"] / 2) / len(U)
    np.testing.assert_allclose(est.projection_features(sets[:3]), expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("n_dims, side, size, basis", [(2, 32, 100, "cosine"), (2, 17, 30, "fourier"),
                                                       (3, 14, 1000, "cosine"), (3, 9, 50, "fourier"),
                                                       (4, 5, 40, "cosine")])
def test_grid_projection_is_the_dense_product(n_dims, side, size, basis):
    """One axis at a time (the core) against one product with the basis
    matrix; a row alone gives the same bits as in a batch."""
    indices = basis_indices(n_dims, size)
    nodes = (np.arange(side) + 0.5) / side
    points = np.stack([g.ravel() for g in np.meshgrid(*([nodes] * n_dims), indexing="ij")], axis=1)
    rows = np.random.default_rng(0).normal(size=(70, side**n_dims))
    grid = GridProjection(side, indices, basis, 0.25)
    dense = DenseProjection(basis_matrix(points, indices, basis) * 0.25)
    np.testing.assert_allclose(grid(rows), dense(rows), rtol=0, atol=1e-14 * np.abs(rows).sum(axis=1).max())
    assert np.array_equal(grid(rows[5:6]), grid(rows)[5:6])


def test_grids_of_two_or_more_dimensions_are_projected_one_axis_at_a_time():
    """DenseProjection for a 1-D grid (BLAS is faster there) and for random
    points; GridProjection for grids of 2 and more dimensions (2: where the
    core has vector kernels)."""
    def chosen(n_dims, side):
        indices = basis_indices(n_dims, 10)
        points = np.random.default_rng(0).random((side**n_dims, n_dims))
        return type(projection(points, indices, "cosine", 1.0, side)).__name__

    vectors = pyd2ke.build_info()["simd"] != "scalar"
    assert chosen(1, 16) == "DenseProjection"
    assert chosen(2, 8) == ("GridProjection" if vectors else "DenseProjection")
    assert chosen(3, 4) == "GridProjection"
    indices = basis_indices(2, 10)
    assert isinstance(projection(np.random.default_rng(0).random((50, 2)), indices, "cosine", 1.0), DenseProjection)


@pytest.mark.parametrize("bad, match", [
    (dict(rows=np.ones((2, 15))), "rows must have shape"),
    (dict(table=np.ones((4, 5))), "table must have shape"),
    (dict(cells=np.array([4], dtype=np.int64)), "outside the box"),
    (dict(out=np.ones((2, 2))), "out must have shape"),
])
def test_core_grid_projection_refuses_bad_arguments(bad, match):
    args = dict(rows=np.ones((2, 16)), n_dims=2, side=4, table=np.ones((4, 2)), cells=np.array([3], dtype=np.int64),
                scale=1.0, out=np.ones((2, 1)))
    args.update(bad)
    with pytest.raises(ValueError, match=match):
        _core.density_project_grid_into(**args)


@pytest.mark.parametrize("divergence", ["js", "hellinger", "tv"])
def test_projection_distance_is_the_hdd_of_the_estimates(divergence):
    """In 1-D with a complete cosine basis on the grid (Parseval), many lambdas
    make ||A(p) - A(q)||^2 the closed-form HDD of the two density estimates."""
    rng = np.random.default_rng(3)
    sets = [rng.normal(0.3, 0.1, (200, 1)), rng.normal(0.6, 0.2, (150, 1)), rng.uniform(0, 1, (100, 1))]
    est = DensityKernelFeatures(divergence, n_components=2, n_lambdas=20000, basis_size=64, n_integration_points=64,
                                bandwidth=0.05, sigma=1.0, random_state=0).fit(sets)
    A = est.projection_features(sets)
    F = np.maximum(est.densities(sets), 1e-12)
    kap = np.vectorize(lambda x, y: kappa(divergence, x, y))
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        exact = kap(F[i], F[j]).mean()
        assert np.sum((A[i] - A[j]) ** 2) == pytest.approx(exact, rel=0.02)


def test_affine_maps_of_the_data_do_not_change_hdd_features():
    est = DensityKernelFeatures("js", n_components=64, random_state=0)
    Z1 = clone(est).fit_transform(SETS)
    moved = [3.0 * X + np.array([10.0, -4.0]) for X in SETS]
    Z2 = clone(est).fit_transform(moved)
    np.testing.assert_allclose(Z1, Z2, atol=1e-8)


# ---- kernel approximation --------------------------------------------------------
@pytest.mark.parametrize("est", [DensityKernelFeatures("js", n_components=20000, sigma=0.5, random_state=0),
                                 MeanEmbeddingFeatures(20000, random_state=0)],
                         ids=["hdd", "mmd"])
def test_features_approximate_the_rbf_kernel_on_the_embedding(est):
    est.fit(SETS[:15])
    Z = est.transform(SETS[:15])
    E = est.projection_features(SETS[:15]) if hasattr(est, "projection_features") else est.mean_embeddings(SETS[:15])
    K = np.exp(-squareform(pdist(E, "sqeuclidean")) / (2 * est.sigma_**2))
    assert np.abs(Z @ Z.T - K).max() < 0.04
    assert 0.05 < np.median(K[np.triu_indices(15, 1)]) < 0.95  # a kernel worth testing


def test_mean_embedding_approximates_mmd():
    rng = np.random.default_rng(0)
    sets = [rng.normal(size=(80, 2)), rng.normal(0.5, 1, (90, 2)), rng.normal(0, 2, (70, 2))]
    est = MeanEmbeddingFeatures(4, n_base_components=40000, base_bandwidth=0.3, sigma=1.0, random_state=0).fit(sets)
    E = est.mean_embeddings(sets)
    scaled = [(X - est.data_min_) / est.data_range_ for X in sets]

    def k(a, b):
        return np.exp(-((a[:, None] - b[None]) ** 2).sum(-1) / (2 * 0.3**2)).mean()

    for i, j in [(0, 1), (0, 2), (1, 2)]:
        mmd2 = k(scaled[i], scaled[i]) + k(scaled[j], scaled[j]) - 2 * k(scaled[i], scaled[j])
        assert np.sum((E[i] - E[j]) ** 2) == pytest.approx(mmd2, abs=0.01)


def test_hdd_features_predict_the_set_width():
    """A linear model on the features learns a property of the distribution."""
    sets, widths = sets_2d(200, 80, seed=5)
    pipe = make_pipeline(DensityKernelFeatures("hellinger", n_components=400, random_state=0), Ridge(alpha=1e-3))
    pipe.fit(sets[:150], widths[:150])
    error = np.sqrt(np.mean((pipe.predict(sets[150:]) - widths[150:]) ** 2))
    assert error < 0.5 * widths[150:].std()


# ---- determinism, scikit-learn behaviour ------------------------------------------
ESTIMATORS = [
    DensityKernelFeatures("js", n_components=64, random_state=0),
    DensityKernelFeatures("tv", n_components=32, integration="random", n_integration_points=200, random_state=0),
    DensityKernelFeatures("l2", n_components=32, basis="fourier", bandwidth="scott", random_state=0),
    MeanEmbeddingFeatures(32, n_base_components=20, random_state=0),
]
IDS = ["js", "tv-random", "l2-fourier", "mmd"]


@pytest.mark.parametrize("est", ESTIMATORS, ids=IDS)
def test_deterministic_across_n_jobs_and_pickle(est):
    many = sets_2d(150, 30, seed=2)[0]  # several blocks of sets
    with pytest.raises(NotFittedError):
        clone(est).transform(many)
    Z1 = clone(est).set_params(n_jobs=1).fit_transform(many)
    Z2 = clone(est).set_params(n_jobs=2).fit_transform(many)
    Z3 = clone(est).set_params(n_jobs=-1).fit(many).transform(many)
    np.testing.assert_array_equal(Z1, Z2)
    np.testing.assert_array_equal(Z1, Z3)
    assert Z1.shape == (150, est.n_components) and Z1.dtype == np.float64 and Z1.flags.c_contiguous
    assert np.isfinite(Z1).all()
    fitted = clone(est).fit(many)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(fitted)).transform(many), Z1)
    assert not np.array_equal(Z1, clone(est).set_params(random_state=1).fit_transform(many))


@pytest.mark.parametrize("est", ESTIMATORS, ids=IDS)
def test_clone_params_names_and_float32(est):
    params = est.get_params()
    assert clone(est).get_params() == params
    fitted = clone(est).fit(SETS)
    names = fitted.get_feature_names_out()
    assert len(names) == est.n_components and names[0] == type(est).__name__.lower() + "0"
    z64 = fitted.transform(SETS)
    z32 = clone(est).set_params(dtype=np.float32).fit(SETS).transform(SETS)
    assert z32.dtype == np.float32
    np.testing.assert_allclose(z32, z64, atol=2e-4)


def test_transform_leaves_the_input_unchanged():
    """Lists are packed into a new array and scaled in place there; a Ragged
    (the caller's own array) is scaled into a copy."""
    from pyd2ke._ragged import Ragged

    est = DensityKernelFeatures(n_components=8, basis_size=6, random_state=0).fit(SETS)
    sets = [s.copy() for s in SETS[:5]]
    packed = Ragged.pack([s.copy() for s in SETS[:5]], np.float64)
    before = packed.values.copy()
    np.testing.assert_array_equal(est.transform(sets), est.transform(packed))
    for s, original in zip(sets, SETS[:5]):
        np.testing.assert_array_equal(s, original)
    np.testing.assert_array_equal(packed.values, before)


def test_packed_input_and_outside_points():
    est = DensityKernelFeatures("js", n_components=16, random_state=0).fit(SETS)
    np.testing.assert_array_equal(est.transform(check_point_sets(SETS)), est.transform(SETS))
    far = [np.array([[100.0, -50.0], [3.0, 2.0]]), np.zeros((1, 2))]
    with pytest.warns(UserWarning, match="far outside the fit data's range"):
        assert np.isfinite(est.transform(far)).all()
    # Sets two fit ranges away looked like sets inside the box, with no word.
    rng = np.random.default_rng(0)
    fit = [rng.uniform(0, 1, (200, 1)) for _ in range(20)]
    one = DensityKernelFeatures("js", n_components=16, random_state=0).fit(fit)
    near = rng.normal(0.5, 0.05, (200, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        one.transform([near, near + 0.45])  # a few points up to 0.2 of the range outside: reflection's job
    # Each point at most 0.3 of the range outside, but nearly all of them: the set is read as N(0.9, 0.05).
    with pytest.warns(UserWarning, match=r"a set of X has 9\d% of its points outside the fit data's range"):
        one.transform([near, near + 0.6])
    with pytest.warns(UserWarning, match=r"dimension 0 \(fit range \[") as caught:
        one.transform([near, near + 2.0])
    assert caught[0].filename == __file__


def test_grid_search_in_a_pipeline():
    sets, widths = sets_2d(60, 40, seed=4)
    pipe = make_pipeline(DensityKernelFeatures(n_components=64, random_state=0), Ridge())
    search = GridSearchCV(pipe, {"densitykernelfeatures__divergence": ["js", "l2"]}, cv=3).fit(sets, widths)
    assert search.best_params_["densitykernelfeatures__divergence"] in ("js", "l2")


def test_bandwidth_rules():
    packed = check_point_sets([(X - X.min()) / 10 for X in SETS])
    h = cv_bandwidth(packed, 0)
    assert 0.002 <= h <= 0.5 and h == cv_bandwidth(packed, 0)
    # One-point sets: Scott falls back to the pooled spread.
    est = DensityKernelFeatures(n_components=4, bandwidth="scott", random_state=0).fit([x[:1] for x in SETS])
    assert est.bandwidth_ > 0


# ---- bad input ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([], ValueError, "X is empty"),
        ([np.zeros((3, 2)), np.zeros((0, 2))], ValueError, r"X\[1\] is empty"),
        ([np.ones((3, 2)), np.ones((2, 3))], ValueError, r"X\[1\] has points of dimension 3"),
        ([np.eye(2), np.array([[0.5, np.nan]])], ValueError, r"X\[1\] contains NaN"),
        ([np.eye(2), np.array([[np.inf, 0.5]])], ValueError, r"X\[1\] contains NaN or infinity"),
        ([np.eye(2), np.zeros((2, 2, 2))], ValueError, r"X\[1\] has 3 dimensions"),
        ([np.array([[1.0, 2.0], [1.0, 3.0]]), np.array([[1.0, 5.0]])], ValueError,
         r"X is constant in dimension 0 \(every value is 1.0\)"),
        ([np.array([[1.0, 2.0]])], ValueError, "constant in dimension 0"),
        (["ab"], TypeError, r"X\[0\] is str"),
        (np.zeros(3), ValueError, r"X\[0\] has 0 dimensions"),
    ],
)
def test_bad_sets(bad, error, match):
    constant = "constant in dimension" in match  # MeanEmbeddingFeatures keeps a constant dimension
    for est in (DensityKernelFeatures(n_components=4),) + (() if constant else (MeanEmbeddingFeatures(4),)):
        with pytest.raises(error, match=match):
            est.fit(bad)


def test_mean_embeddings_keep_a_constant_dimension():
    rng = np.random.default_rng(0)
    sets = [np.c_[rng.normal(loc=m, size=20), np.zeros(20)] for m in rng.uniform(0, 3, 10)]
    Z = MeanEmbeddingFeatures(8, random_state=0).fit_transform(sets)
    assert np.isfinite(Z).all() and Z.std(axis=0).min() > 0
    shifted = [s + [0.0, 5.0] for s in sets]  # the constant is scaled away: only its being constant counts
    np.testing.assert_array_equal(MeanEmbeddingFeatures(8, random_state=0).fit_transform(shifted), Z)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"divergence": "kl"}, ValueError, "divergence must be one of"),
        ({"bandwidth": 0.0}, ValueError, "bandwidth must be > 0"),
        ({"bandwidth": -1.0}, ValueError, "bandwidth must be > 0"),
        ({"bandwidth": np.nan}, ValueError, "bandwidth must be > 0"),
        ({"bandwidth": "silly"}, ValueError, "bandwidth must be 'cv' or 'scott'"),
        ({"bandwidth": [0.1]}, TypeError, "bandwidth must be"),
        ({"sigma": 0}, ValueError, "sigma must be > 0"),
        ({"sigma": -2.0}, ValueError, "sigma must be > 0"),
        ({"n_components": 7}, ValueError, "n_components must be even"),
        ({"n_components": 0}, ValueError, "n_components must be >= 2"),
        ({"n_components": 10.0}, TypeError, "n_components must be an integer"),
        ({"n_lambdas": 0}, ValueError, "n_lambdas must be >= 1"),
        ({"n_lambdas": True}, TypeError, "n_lambdas must be an integer"),
        ({"basis_size": 0}, ValueError, "basis_size must be >= 1"),
        ({"n_integration_points": 2.5}, TypeError, "n_integration_points must be an integer"),
        ({"n_integration_points": 25}, ValueError, "too coarse for basis number"),
        ({"basis": "wavelet"}, ValueError, "basis must be one of"),
        ({"integration": "qmc"}, ValueError, "integration must be one of"),
        ({"boundary": "wrap"}, ValueError, "boundary must be one of"),
        ({"n_jobs": 0}, ValueError, "n_jobs == 0"),
        ({"dtype": np.int32}, ValueError, "dtype must be"),
    ],
)
def test_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        DensityKernelFeatures(**{"n_components": 4, **params}).fit(SETS)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"base_bandwidth": 0.0}, ValueError, "base_bandwidth must be > 0"),
        ({"sigma": -1.0}, ValueError, "sigma must be > 0"),
        ({"n_base_components": 3}, ValueError, "n_base_components must be even"),
        ({"n_components": 3}, ValueError, "n_components must be even"),
    ],
)
def test_bad_mmd_parameters(params, error, match):
    with pytest.raises(error, match=match):
        MeanEmbeddingFeatures(**{"n_components": 4, **params}).fit(SETS)


def test_default_basis_size_stops_at_three_dimensions():
    rng = np.random.default_rng(0)
    sets = [rng.uniform(size=(20, 4)) for _ in range(3)]
    with pytest.raises(ValueError, match="basis_size=None means 10\\^l basis functions, too many for l = 4"):
        DensityKernelFeatures(n_components=4).fit(sets)
    est = DensityKernelFeatures(n_components=4, basis_size=9, sigma=1.0, random_state=0).fit(sets)
    assert est.n_projection_features_ == 90 and est.integration_points_.shape == (8**4, 4)


def test_transform_checks_the_dimension_and_identical_sets_need_a_sigma():
    est = DensityKernelFeatures(n_components=4, random_state=0).fit(SETS)
    with pytest.raises(ValueError, match="dimension 3, but the estimator was fitted on dimension 2"):
        est.transform([np.zeros((4, 3))])
    same = [SETS[0]] * 3
    with pytest.raises(ValueError, match="sigma='median' needs distinct fit sets"):
        DensityKernelFeatures(n_components=4).fit(same)
    assert DensityKernelFeatures(n_components=4, sigma=1.0).fit(same).sigma_ == 1.0


def test_an_outlier_that_collapses_the_scaled_sets_is_named():
    rng = np.random.default_rng(0)
    sets = [rng.normal(size=(30, 1)) for _ in range(6)]
    sets[4][3, 0] = 1e100
    with pytest.raises(ValueError, match=r"median distance between them is 0.0; in dimension 0, .* X\[4\]'s 1e\+100"):
        DensityKernelFeatures(n_components=8, random_state=0).fit(sets)
    # Without such an outlier, the zero median keeps its plain message:
    # identical sets, also with a mostly constant dimension.
    for same in (np.array([[0.0], [1.0]]), np.c_[[0, 0, 0, 0, 1.0], [0, 1, 2, 3, 4.0]]):
        with pytest.raises(ValueError, match=r"median distance between them is 0.0; pass sigma as a number"):
            DensityKernelFeatures(n_components=8, random_state=0).fit([same] * 4)


def test_sets_of_repeated_points_get_the_pooled_spread():
    # E[x^2] - E[x]^2 left rounding for constant sets, taken for a spread:
    # a bandwidth of 3e-10 and densities without mass on the grid.
    rng = np.random.default_rng(0)
    sets = [np.repeat(rng.normal(loc=i % 3, size=(1, 2)), 10, axis=0) for i in range(30)]
    model = DensityKernelFeatures(n_components=16, sigma=1.0, random_state=0).fit(sets)
    assert model.bandwidth_ > 0.01
    np.testing.assert_allclose(model.densities(sets).mean(axis=1), 1.0, rtol=0.05)


def test_high_dimensions_are_refused_before_memory_runs_out():
    """A 10-D grid would hold 8^10 points for every set (8 GiB a set), and
    reflecting 1000 samples in the faces of [0, 1]^10 made up to 3^10
    images each (34 GiB of sums): both are refused at fit, saying what to pass."""
    rng = np.random.default_rng(0)
    sets = [rng.normal(m, 1, size=(50, 10)) for m in rng.uniform(0, 3, 20)]
    with pytest.raises(ValueError, match=r"integration='grid' in 10 dimensions needs 8\^10 .* integration='random'"):
        DensityKernelFeatures(n_components=64, basis_size=20, random_state=0).fit(sets)
    with pytest.raises(ValueError, match=r"boundary='reflect' in 10 dimensions: .* pass boundary='none'"):
        DensityKernelFeatures(n_components=64, basis_size=20, integration="random", random_state=0).fit(sets)
    Z = DensityKernelFeatures(n_components=64, basis_size=20, integration="random", boundary="none",
                              random_state=0).fit_transform(sets)
    assert Z.shape == (20, 64) and np.isfinite(Z).all()


def test_a_bandwidth_below_the_grid_spacing_warns():
    rng = np.random.default_rng(0)
    sets = [rng.normal(0, 1, (100, 2)) for _ in range(5)] + [rng.normal(3, 1, (100, 2)) for _ in range(5)]
    with pytest.warns(UserWarning, match=r"bandwidth_ = 0.005 is below half the integration grid's spacing \(1/32"):
        DensityKernelFeatures(n_components=16, bandwidth=0.005, random_state=0).fit(sets)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DensityKernelFeatures(n_components=16, bandwidth=0.02, random_state=0).fit(sets)
        DensityKernelFeatures(n_components=16, bandwidth=0.005, integration="random", random_state=0).fit(sets)


def test_a_large_set_is_embedded_a_slice_at_a_time():
    """A trial: MeanEmbeddingFeatures held every point's base features of a
    set at once (2.3 GB above the input for three sets of 400,000 points).
    A set larger than a block is summed over slices from its first point:
    the mean embedding of the whole sum, to rounding, and the same bits
    whatever the chunks."""
    rng = np.random.default_rng(0)
    sets = [rng.normal(size=(50, 2)), rng.normal(1.0, size=(_base._BLOCK_POINTS + 9000, 2)), rng.normal(size=(7, 2))]
    estimator = MeanEmbeddingFeatures(16, n_base_components=8, random_state=0).fit(sets)
    scaled = estimator._scale_sets(sets, fit=False)
    whole = estimator._random_fourier(scaled[1], estimator.base_weights_, np.dtype(np.float64)).mean(axis=0)
    embeddings = estimator.mean_embeddings(sets)
    np.testing.assert_allclose(embeddings[1], whole, rtol=1e-12, atol=1e-15)
    with pyd2ke.chunking(max_items=1):
        np.testing.assert_array_equal(estimator.mean_embeddings(sets), embeddings)
        np.testing.assert_array_equal(estimator.transform(sets[1:2]), estimator.transform(sets)[1:2])


@pytest.mark.parametrize("n_dims", [1, 2, 3, 4, 6])
def test_basis_indices_are_the_smallest_multi_indices(n_dims):
    """By definition (every index of a box wide enough, by |alpha|^2 then
    lexicographically); the search no longer counts up from K = 1 (1-D
    basis_size=10^7 ran for hours), builds no grid beyond 3 dimensions
    (basis_size=50 at 24 dimensions asked for 3 GiB, at 50 for 400 PiB),
    and basis_size is bounded."""
    for size in (1, 2, 7, 8, 9, 64, 65, 300):
        side = int(np.ceil(size ** (1.0 / n_dims))) + 2
        box = np.indices((side,) * n_dims).reshape(n_dims, -1).T
        order = sorted(map(tuple, box), key=lambda a: (sum(v * v for v in a), a))
        np.testing.assert_array_equal(basis_indices(n_dims, size), np.array(order[:size]))
    wide = basis_indices(50, 4096)
    assert wide.shape == (4096, 50) and (wide * wide).sum(axis=1).max() == 3
    with pytest.raises(ValueError, match="basis_size must be <= 4096, got 100000"):
        DensityKernelFeatures(basis_size=100_000).fit([np.random.default_rng(0).random((5, 1))] * 2)


def test_a_set_mostly_outside_the_fit_range_warns():
    """A trial: N(8, 1) against fit sets spanning [-3.9, 6.9] had 82 % of its
    points outside (here 9x %), each less than half the range out, and no
    warning."""
    rng = np.random.default_rng(0)
    fit = [rng.normal(loc, size=(300, 1)) for loc in (0.0, 3.0) for _ in range(10)]
    estimator = DensityKernelFeatures(n_components=16, random_state=0).fit(fit)
    with pytest.warns(UserWarning, match=r"a set of X has 9\d% of its points outside the fit data's range"):
        estimator.transform([rng.normal(8.0, size=(300, 1))])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # held-out sets of the same kind
        estimator.transform([rng.normal(loc, size=(300, 1)) for loc in (0.0, 3.0) for _ in range(20)])
