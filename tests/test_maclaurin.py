"""Random Maclaurin features: scikit-learn's estimator checks, exact
coefficients, unbiasedness and convergence, options and bad input."""

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.kernel_approximation import RBFSampler
from sklearn.utils import check_random_state
from sklearn.utils.estimator_checks import parametrize_with_checks

from pyd2ke import RandomMaclaurin, _core, kernel_approximation


@parametrize_with_checks(
    [
        RandomMaclaurin(50, random_state=0),
        RandomMaclaurin(50, kernel="exp", gamma=0.1, h01=True, random_state=0),
    ]
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def unit_sphere(n=200, d=20, seed=0):
    X = np.random.default_rng(seed).standard_normal((n, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


@pytest.mark.parametrize(
    "params, expected",
    [
        ({"kernel": "poly", "degree": 3, "gamma": 2.0, "coef0": 0.5},
         [math.comb(3, n) * 0.5 ** (3 - n) * 2.0**n for n in range(4)] + [0.0]),
        ({"kernel": "poly", "degree": 10, "gamma": 1.0, "coef0": 1.0}, [math.comb(10, n) for n in range(11)]),
        ({"kernel": "exp", "gamma": 0.5}, [0.5**n / math.factorial(n) for n in range(8)]),
        ({"kernel": "vovk_poly", "degree": 3}, [1.0, 1.0, 1.0, 0.0, 0.0]),
        ({"kernel": "vovk_inf"}, [1.0] * 6),
        ({"kernel": [0.0, 2.0, 0.0, 1.5]}, [0.0, 2.0, 0.0, 1.5, 0.0]),
        ({"kernel": lambda n: 1.0 / (n + 1)}, [1.0 / (n + 1) for n in range(5)]),
    ],
)
def test_coefficients_are_exact(params, expected):
    """Poly coefficients are C(degree, n) coef0^(degree-n) gamma^n, with no 1/n!."""
    rm = RandomMaclaurin(**params)
    np.testing.assert_allclose([rm.coefficient(n) for n in range(len(expected))], expected, rtol=1e-14)


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "poly", "degree": 2},
        {"kernel": "poly", "degree": 3, "gamma": 0.5, "coef0": 2.0},
        {"kernel": "exp", "gamma": 1.0},
        {"kernel": "vovk_poly", "degree": 4},
        {"kernel": "poly", "degree": 3, "h01": True},
        {"kernel": "exp", "max_degree": 3},
        {"kernel": "poly", "degree": 2, "p": 3.0},
    ],
)
def test_unbiased_against_closed_form(params):
    """The mean of Z(x).Z(y) over many seeds converges to K(x, y)."""
    X = unit_sphere(6, 5, seed=1) * 0.9
    estimates = []
    for seed in range(60):
        rm = RandomMaclaurin(3000, random_state=seed, **params).fit(X)
        Z = rm.transform(X)
        estimates.append(Z @ Z.T)
    mean = np.mean(estimates, axis=0)
    np.testing.assert_allclose(mean, rm.exact_kernel(X), rtol=0.03, atol=0.03)


def test_error_falls_like_inverse_sqrt_d():
    X = unit_sphere()
    errors = []
    sizes = [100, 400, 1600, 6400]
    for D in sizes:
        rm = RandomMaclaurin(D, kernel="poly", degree=3, random_state=0).fit(X)
        Z = rm.transform(X)
        errors.append(np.abs(Z @ Z.T - rm.exact_kernel(X)).mean())
    slope = np.polyfit(np.log(sizes), np.log(errors), 1)[0]
    assert -0.65 < slope < -0.35


def test_h01_beats_plain_features_at_small_d():
    X = unit_sphere()
    err = {}
    for h01 in (False, True):
        rm = RandomMaclaurin(100, kernel="poly", degree=2, h01=h01, random_state=0).fit(X)
        Z = rm.transform(X)
        err[h01] = np.abs(Z @ Z.T - rm.exact_kernel(X)).mean()
        assert Z.shape[1] == 100 + (21 if h01 else 0)
    assert err[True] < err[False]


def test_sparse_input_and_float32_and_threads():
    X = unit_sphere(50, 30)
    X[X < 0.1] = 0
    rm = RandomMaclaurin(64, kernel="exp", random_state=0).fit(X)
    dense = rm.transform(X)
    np.testing.assert_allclose(rm.transform(sp.csr_matrix(X)), dense, rtol=1e-12)
    np.testing.assert_array_equal(RandomMaclaurin(64, kernel="exp", random_state=0, n_jobs=1).fit_transform(X),
                                  RandomMaclaurin(64, kernel="exp", random_state=0, n_jobs=2).fit_transform(X))
    z32 = RandomMaclaurin(64, kernel="exp", random_state=0, dtype=np.float32).fit_transform(X)
    assert z32.dtype == np.float32
    np.testing.assert_allclose(z32, dense, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("h01", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
def test_rows_do_not_depend_on_the_chunks(monkeypatch, h01, sparse):
    """Transforms run in chunks of rows (64 at the smallest chunk size): 301
    rows make four full chunks and an odd tail; every row must come out as
    when transformed alone, with one thread or two."""
    X = unit_sphere(301, 30)
    X[X < 0.05] = 0
    Xin = sp.csr_matrix(X) if sparse else X
    rm = RandomMaclaurin(200, kernel="exp", h01=h01, random_state=0, n_jobs=1).fit(X)
    whole = rm.transform(Xin)
    monkeypatch.setattr(kernel_approximation, "_CHUNK_BYTES", 1)
    np.testing.assert_array_equal(rm.transform(Xin), whole)
    np.testing.assert_array_equal(rm.set_params(n_jobs=2).transform(Xin), whole)
    for i in (0, 63, 64, 65, 299, 300):
        np.testing.assert_array_equal(rm.transform(Xin[i:i + 1]), whole[i:i + 1])


def _rbf(X, gamma):
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-gamma * sq)


class _Fourier(TransformerMixin, BaseEstimator):
    """RBFSampler's random Fourier features without its input validation,
    which dominates the time of fitting one small map per factor."""

    def __init__(self, gamma=0.5, n_components=4, random_state=None):
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    def fit(self, X, y=None):
        rng = check_random_state(self.random_state)
        self.weights_ = rng.normal(scale=math.sqrt(2 * self.gamma), size=(X.shape[1], self.n_components))
        self.offsets_ = rng.uniform(0, 2 * np.pi, size=self.n_components)
        return self

    def transform(self, X):
        return math.sqrt(2 / self.n_components) * np.cos(X @ self.weights_ + self.offsets_)


@pytest.mark.parametrize(
    "params, f",
    [
        ({"kernel": "exp", "gamma": 1.0}, np.exp),
        ({"kernel": "poly", "degree": 3, "coef0": 1.0, "gamma": 1.0}, lambda k: (1.0 + k) ** 3),
        ({"kernel": "poly", "degree": 2, "h01": True, "n_components": 20}, lambda k: (1.0 + k) ** 2),
    ],
)
def test_compositional_kernel_is_unbiased(params, f):
    """The mean of Z(x).Z(y) over seeds is f(K_rbf(x, y)), the closed form,
    within 4.5 standard errors of the mean over seeds (21 distinct entries).
    The inner map is the paper's scalar W (one random Fourier feature). One
    map shared by all factors (the code before independent maps, a fresh
    inner seed per seed) fails this test: max |z| 7.5 (exp), 8.7 (poly 3),
    7.3 (poly 2 with h01), the diagonal 18-48 % (exp, poly 3) high; with a map
    per factor max |z| was 1.4-2.0. Many seeds of few features: the shared
    map's error varies from seed to seed, not from feature to feature."""
    X = unit_sphere(6, 5, seed=1)
    estimates = []
    for seed in range(300):
        rm = RandomMaclaurin(**{"n_components": 40, **params}, inner=_Fourier(n_components=1),
                             random_state=seed).fit(X)
        Z = rm.transform(X)
        estimates.append(Z @ Z.T)
    estimates = np.array(estimates)
    mean = estimates.mean(axis=0)
    standard_error = estimates.std(axis=0, ddof=1) / np.sqrt(len(estimates))
    z = np.abs(mean - f(_rbf(X, 0.5))) / standard_error
    assert z.max() < 4.5, z.round(1)


@pytest.mark.parametrize("h01", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("k", [1, 3])
def test_stacked_fourier_inner_maps_equal_the_maps_one_by_one(k, sparse, h01):
    """RBFSampler inner maps are evaluated for all factors by one product:
    the same features as calling each fitted map, within rounding."""
    X = unit_sphere(70, 5, seed=2)  # more rows than one product's minimum height
    rm = RandomMaclaurin(60, kernel="exp", h01=h01, inner=RBFSampler(gamma=0.5, n_components=k),
                         random_state=0).fit(X)
    assert rm._stacked_fourier() is not None
    Xin = sp.csr_matrix(X) if sparse else X
    fast = rm.transform(Xin)
    rm._stacked_fourier = lambda: None  # the map-by-map path
    slow = rm.transform(Xin)
    assert np.allclose(fast, slow, rtol=1e-12, atol=1e-12 * np.abs(slow).max())


def test_compositional_kernel_draws_a_map_per_factor():
    X = unit_sphere(40, 5)
    inner = RBFSampler(gamma=0.5, n_components=3, random_state=0)
    rm = RandomMaclaurin(50, kernel="exp", inner=inner, random_state=0).fit(X)
    assert len(rm.inner_maps_) == rm.rademacher_.shape[1] == rm.degrees_.sum()
    assert rm.rademacher_.shape[0] == 3 and inner.random_state == 0 and not hasattr(inner, "random_weights_")
    weights = {rm.inner_maps_[c].random_weights_.tobytes() for c in range(len(rm.inner_maps_))}
    assert len(weights) == len(rm.inner_maps_)  # independent copies, not one shared map
    h01 = RandomMaclaurin(50, kernel="exp", h01=True, inner=inner, random_state=0).fit(X)
    assert len(h01.inner_maps_) == h01.degrees_.sum() + 1 and h01.transform(X).shape == (40, 1 + 3 + 50)
    one = RandomMaclaurin(50, kernel="exp", inner=inner, random_state=0, n_jobs=1).fit_transform(X)
    two = RandomMaclaurin(50, kernel="exp", inner=inner, random_state=0, n_jobs=2).fit_transform(X)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(rm.transform(X), one)
    # A deterministic inner map (no random_state) is fitted once and shared.
    from sklearn.preprocessing import Normalizer
    shared = RandomMaclaurin(50, kernel="exp", inner=Normalizer(), random_state=0).fit(X)
    assert len(shared.inner_maps_) == 1
    plain = RandomMaclaurin(50, kernel="exp", random_state=0).fit(X)
    np.testing.assert_allclose(shared.transform(X), plain.transform(X), rtol=1e-12)


class _RowsSeen(BaseEstimator, TransformerMixin):
    """A deterministic inner map (x / 2) that records how many rows each
    transform call gets."""

    def fit(self, X, y=None):
        self.calls_ = []
        return self

    def transform(self, X):
        self.calls_.append(X.shape[0])
        return X * 0.5


def test_shared_inner_map_runs_a_chunk_at_a_time():
    """chunking() bounds the shared inner map's features too: the map sees
    chunks, never the whole input, and the rows are those of one call."""
    import pyd2ke

    X = unit_sphere(40, 6)
    rm = RandomMaclaurin(16, kernel="vovk_inf", inner=_RowsSeen(), random_state=0).fit(X)
    whole = rm.transform(X)
    seen = rm.inner_maps_[0].calls_
    seen.clear()
    with pyd2ke.chunking(max_items=7):
        np.testing.assert_array_equal(rm.transform(X), whole)
    assert seen == [7, 7, 7, 7, 7, 5]
    # A row outside the kernel's domain is named in the whole input.
    Y = X.copy()
    Y[23] *= 3
    with pyd2ke.chunking(max_items=7), pytest.raises(ValueError, match=r"X\[23\] has norm 1.5 >= 1"):
        rm.transform(Y)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"degree": -1}, ValueError, "degree must be >= 0"),
        ({"p": 1.0}, ValueError, "p must be > 1"),
        ({"p": 0.5}, ValueError, "p must be > 1"),
        ({"kernel": [1.0, -0.5]}, ValueError, "coefficients must be >= 0"),
        ({"kernel": [0.0, 0.0]}, ValueError, "all zero"),
        ({"kernel": [1.0, np.nan]}, ValueError, "finite"),
        ({"kernel": "laplace"}, ValueError, "kernel must be one of"),
        ({"kernel": lambda n: -1.0}, ValueError, "coefficients must be finite and >= 0"),
        ({"coef0": -1.0}, ValueError, "coef0 must be >= 0"),
        ({"gamma": 0.0}, ValueError, "gamma must be > 0"),
        ({"n_components": 0}, ValueError, "n_components must be >= 1"),
        ({"max_degree": -2}, ValueError, "max_degree must be >= 0"),
        ({"kernel": "poly", "degree": 1, "h01": True}, ValueError, "no coefficient a_n > 0"),
    ],
)
def test_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        RandomMaclaurin(**{"n_components": 8, **params}).fit(unit_sphere(5, 3))


def test_vovk_infinite_domain():
    X = unit_sphere(5, 3) * 0.5
    rm = RandomMaclaurin(8, kernel="vovk_inf", random_state=0).fit(X)
    with pytest.raises(ValueError, match=r"X\[2\] has norm 1.5 >= 1"):
        Y = X.copy()
        Y[2] *= 3
        rm.transform(Y)
    with pytest.raises(ValueError, match="needs \\|\\|x\\|\\| < 1"):
        RandomMaclaurin(8, kernel="vovk_inf").fit(unit_sphere(5, 3))


def test_vovk_infinite_warns_of_infinite_variance():
    # p E[<w, x>^4] = 2 (3 ||x||^4 - 2 sum x_i^4): at ||x|| = 0.9 in 8
    # dimensions 3.6, where the median error of K(x, x) was 0.82 of 5.26 at
    # 25600 components; at 0.5, 0.34 and an error of 0.003.
    X = np.full((3, 8), 1 / np.sqrt(8))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RandomMaclaurin(8, kernel="vovk_inf", random_state=0).fit(0.5 * X)
        RandomMaclaurin(8, kernel="vovk_inf", max_degree=40, random_state=0).fit(0.9 * X)
    with pytest.warns(UserWarning, match=r"X\[0\] \(norm 0.9\) has p E\[<w, x>\^4\] = 3.61 >= 1"):
        RandomMaclaurin(8, kernel="vovk_inf", random_state=0).fit(0.9 * X)


def test_exact_kernel_sums_a_callables_series_until_it_settles():
    x = np.array([[0.99]])
    rm = RandomMaclaurin(2, kernel=lambda n: 1.0, random_state=0).fit(x)
    # 60 fixed terms gave 35.2 for 1 / (1 - 0.9801) = 50.25.
    np.testing.assert_allclose(rm.exact_kernel(x), 1 / (1 - 0.99**2), rtol=1e-12)
    exp = RandomMaclaurin(2, kernel=lambda n: 1 / math.factorial(n), random_state=0).fit(x)
    np.testing.assert_allclose(exp.exact_kernel(3 * x), np.exp(9 * 0.9801), rtol=1e-12)
    with pytest.raises(ValueError, match="did not settle within 4097 terms.*pass max_degree"):
        rm.exact_kernel(np.array([[0.9999999]]))


@pytest.mark.parametrize("h01", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_overflow_is_an_error_naming_the_row(h01, dtype):
    # The products are checked row by row inside the compiled loop (no pass
    # over the output afterwards); a row that overflows must still be named.
    X = np.full((300, 4), 1e-3)
    X[217] = 1e200 if dtype == np.float64 else 1e30
    rm = RandomMaclaurin(64, degree=3, h01=h01, random_state=0, dtype=dtype).fit(X[:10])
    with pytest.raises(ValueError, match=r"X\[217\]"):
        rm.transform(X)
    assert np.isfinite(rm.transform(X[:200])).all()


def test_rademacher_rows_drawn_in_blocks_are_one_draw():
    from pyd2ke.kernel_approximation import _rademacher

    for shape in ((3000, 700), (5, 0), (1, 1)):
        one_draw = np.where(np.random.RandomState(7).random_sample(shape) < 0.5, -1, 1).astype(np.int8)
        np.testing.assert_array_equal(_rademacher(np.random.RandomState(7), *shape), one_draw)


def test_wide_sparse_rows_read_only_the_rademacher_rows_of_their_columns():
    X = sp.random(40, 1 << 16, density=1e-3, format="csr", random_state=0)
    m = RandomMaclaurin(64, random_state=0).fit(X)
    W = m.rademacher_.astype(np.float64)
    P = np.asarray(X @ W)  # the projections as the whole weight matrix gives them
    expected = np.empty((40, 64))
    assert _core.maclaurin_into(np.ascontiguousarray(P), m._groups, m._scale, expected, 1)
    np.testing.assert_array_equal(m.transform(X), expected)


def test_h01_columns_of_per_factor_fourier_maps_do_not_depend_on_the_chunks():
    """A trial: with h01 and RBFSampler inner maps, the exact linear columns
    came from RBFSampler.transform, whose BLAS product rounds by the
    block's rows: chunks of 7 changed the last bits (5.6e-16)."""
    import pyd2ke
    from sklearn.kernel_approximation import RBFSampler

    X = np.random.default_rng(0).random((60, 9))
    estimator = RandomMaclaurin(32, kernel="exp", h01=True, inner=RBFSampler(n_components=4, gamma=0.1),
                                random_state=0, n_jobs=1).fit(X)
    Z = estimator.transform(X)
    with pyd2ke.chunking(max_items=7):
        np.testing.assert_array_equal(estimator.transform(X), Z)
    np.testing.assert_array_equal(np.vstack([estimator.transform(X[i:i + 1]) for i in range(len(X))]), Z)
    # The linear columns are still the last inner map's features.
    np.testing.assert_allclose(Z[:, 1:5], math.sqrt(estimator.coefficient(1)) * estimator.inner_maps_[-1].transform(X),
                               rtol=1e-12, atol=1e-14)
