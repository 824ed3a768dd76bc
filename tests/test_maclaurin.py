"""Random Maclaurin features: scikit-learn's estimator checks, exact
coefficients, unbiasedness and convergence, options and bad input."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.kernel_approximation import RBFSampler
from sklearn.utils.estimator_checks import parametrize_with_checks

from pyd2ke import RandomMaclaurin, kernel_approximation


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


def test_compositional_kernel():
    """f(K_inner) with an RBF inner map: exp(<z(x), z(y)>) ~ exp(K_rbf(x, y))."""
    X = unit_sphere(40, 5)
    inner = RBFSampler(gamma=0.5, n_components=2000, random_state=0).fit(X)
    Zi = inner.transform(X)
    rm = RandomMaclaurin(4000, kernel="exp", inner=inner, random_state=0).fit(X)
    Z = rm.transform(X)
    target = np.exp(Zi @ Zi.T)
    assert np.abs(Z @ Z.T - target).mean() < 0.1
    unfitted = RandomMaclaurin(10, kernel="exp", inner=RBFSampler(random_state=0), random_state=0).fit(X)
    assert unfitted.inner_ is not unfitted.inner


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
