"""HashedRandomFourier: hashed weights, the three input paths, kernel
approximation (error ~ 1/sqrt(D), as the explicit feature map), reproducibility, errors."""

import pickle
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

from pyd2ke import _core
from pyd2ke.fourier import HashedRandomFourier, make_sfmcgk, make_sfmedm
from pyd2ke.sketches import ESPSketches, esp_sketches
from reference import fourier_weight

def explicit_features(X, W):
    """The paper's FM: an explicit weight matrix (test baseline only)."""
    P = X @ W
    return np.hstack([np.cos(P), np.sin(P)]) * np.sqrt(1.0 / W.shape[1])


@pytest.mark.parametrize("kernel,bandwidth", [("laplacian", 2.0), ("rbf", 0.5)])
@pytest.mark.parametrize("simd", _core.build_info()["simd_levels"])
def test_weights_follow_the_definition(kernel, bandwidth, simd):
    engine = _core.HashedFourier(kernel, bandwidth, 22, 12345, simd)
    W = engine.weights(2**63 - 3, 3, 1)
    for r in range(3):
        for k in range(11):
            ref = fourier_weight(kernel, bandwidth, 12345, 2**63 - 3 + r, k)
            assert W[r, k] == pytest.approx(ref, rel=2e-9, abs=1e-12)
            assert engine.weight(2**63 - 3 + r, k) == pytest.approx(ref, rel=2e-9, abs=1e-12)


@pytest.mark.parametrize("kernel", ["laplacian", "rbf"])
def test_dense_sparse_and_sketch_paths_agree(kernel):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(30, 17)).astype(np.float64)
    h = HashedRandomFourier(kernel=kernel, beta=8.0, gamma=0.05, n_components=70, random_state=0).fit(X)
    dense = h.transform(X)
    csr = h.transform(sp.csr_matrix(X))
    csc64 = h.transform(sp.csc_matrix(X))
    rows = [np.nonzero(x)[0] for x in X]
    sk = ESPSketches(
        np.concatenate(rows).astype(np.uint64),
        np.concatenate([X[i, r] for i, r in enumerate(rows)]),
        np.concatenate([[0], np.cumsum([len(r) for r in rows])]),
    )
    sketch = h.transform(sk)
    assert dense.shape == (30, 70)
    np.testing.assert_allclose(csr, dense, atol=1e-9)
    np.testing.assert_allclose(csc64, dense, atol=1e-9)
    np.testing.assert_allclose(sketch, csr, atol=1e-12)
    np.testing.assert_allclose((dense**2).sum(axis=1), 1.0)
    f32 = clone(h).set_params(dtype=np.float32).fit(X).transform(X)
    assert f32.dtype == np.float32
    np.testing.assert_allclose(f32, dense, atol=1e-6)


def mean_error(K, Z):
    iu = np.triu_indices(len(K), 1)
    return np.abs(K - Z @ Z.T)[iu].mean()


def test_laplacian_error_falls_like_inverse_sqrt_d_and_matches_explicit_fm():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, size=(80, 40)).astype(np.float64)
    L1 = np.abs(X[:, None, :] - X[None, :, :]).sum(-1)
    beta = np.median(L1[np.triu_indices(80, 1)])
    K = np.exp(-L1 / beta)
    errors, explicit = {}, {}
    for D in (128, 512, 2048):
        Z = HashedRandomFourier(beta=beta, n_components=D, random_state=2).fit_transform(X)
        errors[D] = mean_error(K, Z)
        W = rng.standard_cauchy(size=(40, D // 2)) / beta
        explicit[D] = mean_error(K, explicit_features(X, W))
        assert errors[D] == pytest.approx(explicit[D], rel=0.35)
    # Four times the features, half the error.
    assert errors[128] / errors[512] == pytest.approx(2, rel=0.3)
    assert errors[512] / errors[2048] == pytest.approx(2, rel=0.3)


def test_uninformative_kernel_error_is_the_paper_value():
    # beta = 1 on large L1 distances: k ~ 0 and E|z'z| = sqrt(2 / (pi D)) (Table IV).
    rng = np.random.default_rng(3)
    X = rng.integers(0, 20, size=(120, 60)).astype(np.float64)
    Z = HashedRandomFourier(beta=1.0, n_components=512, random_state=0).fit_transform(X)
    err = mean_error(np.eye(120), Z)
    assert err == pytest.approx(np.sqrt(2 / (np.pi * 512)), rel=0.05)


def test_rbf_approximation():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((60, 10))
    gamma = 0.05
    K = np.exp(-gamma * ((X[:, None] - X[None]) ** 2).sum(-1))
    Z = HashedRandomFourier(kernel="rbf", gamma=gamma, n_components=4096, random_state=0).fit_transform(X)
    assert mean_error(K, Z) < 1.3 * np.sqrt(2 / (np.pi * 4096))


@pytest.mark.parametrize("n_components", [2, 6, 70, 1024])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_rows_features_do_not_depend_on_its_batch(n_components, dtype):
    # Labels that recur across the strings of one call get their weights
    # computed once and shared; a string transformed alone shares nothing.
    # Both must give the same bits.
    rng = np.random.default_rng(3)
    lengths = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130, 300] * 3
    strings = ["".join(rng.choice(list("ACGT"), size=n)) for n in lengths]
    S = esp_sketches(strings)
    h = HashedRandomFourier(n_components=n_components, beta=20.0, random_state=1, dtype=dtype).fit(S)
    together = h.transform(S)
    alone = np.vstack([h.transform(S[i:i + 1]) for i in range(len(S))])
    np.testing.assert_array_equal(together, alone)
    np.testing.assert_array_equal(h.set_params(n_jobs=2).transform(S), together)
    # CSR rows with recurring columns (and explicit zeros), same rule.
    X = sp.random(40, 50, density=0.3, random_state=4, format="csr", data_rvs=lambda n: rng.integers(0, 4, n))
    hx = HashedRandomFourier(kernel="rbf", gamma=0.1, n_components=n_components, random_state=2, dtype=dtype).fit(X)
    np.testing.assert_array_equal(hx.transform(X), np.vstack([hx.transform(X[i]) for i in range(40)]))


def test_huge_coordinate_ids_use_constant_memory():
    ids = np.array([0, 2**63, 2**64 - 1], dtype=np.uint64)
    S = ESPSketches(ids, np.ones(3), np.array([0, 1, 3]))
    Z = HashedRandomFourier(n_components=16384, random_state=0).fit_transform(S)
    assert Z.shape == (2, 16384) and np.all(np.isfinite(Z))


def test_reproducible_across_threads_processes_and_pickle():
    rng = np.random.default_rng(5)
    X = rng.random((500, 30))
    a = HashedRandomFourier(kernel="rbf", n_components=256, random_state=7, n_jobs=1).fit_transform(X)
    b = HashedRandomFourier(kernel="rbf", n_components=256, random_state=7, n_jobs=2).fit_transform(X)
    assert np.array_equal(a, b)
    S = esp_sketches(["ACGTACGGTA", "TTGACA"] * 200)
    h1 = HashedRandomFourier(n_components=64, random_state=7, n_jobs=1).fit(S)
    h2 = pickle.loads(pickle.dumps(h1.set_params(n_jobs=2)))
    assert np.array_equal(h1.set_params(n_jobs=1).transform(S), h2.transform(S))
    code = (
        "import numpy as np; from pyd2ke.fourier import HashedRandomFourier; "
        "print(HashedRandomFourier(n_components=4, random_state=7).fit_transform(np.eye(3)).tobytes().hex())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    here = HashedRandomFourier(n_components=4, random_state=7).fit_transform(np.eye(3)).tobytes().hex()
    assert out.stdout.strip() == here


def test_pipelines():
    X = ["ACGTACGTTAGC", "ACGTACGTTAGG", "TTTTGGGGCCCC"]
    for make in (make_sfmedm, make_sfmcgk):
        Z = make(n_components=256, beta=10.0, random_state=0).fit_transform(X)
        assert Z.shape == (3, 256)
        G = Z @ Z.T
        assert G[0, 1] > G[0, 2] - 0.2


@pytest.mark.parametrize(
    "params,match",
    [
        ({"n_components": 7}, "even"),
        ({"n_components": 0}, "n_components"),
        ({"beta": 0.0}, "beta"),
        ({"beta": -1.0}, "beta"),
        ({"kernel": "rbf", "gamma": 0}, "gamma"),
        ({"kernel": "cosine"}, "kernel"),
        ({"n_jobs": 0}, "n_jobs"),
    ],
)
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        HashedRandomFourier(**params).fit(np.eye(2))


def test_bad_input():
    h = HashedRandomFourier(n_components=8)
    with pytest.raises(NotFittedError):
        h.transform(np.eye(2))
    with pytest.raises(TypeError, match="strings"):
        h.fit(["ACGT"])
    with pytest.raises(ValueError):
        h.fit(np.array([[np.nan, 1.0]]))
    h.fit(np.eye(3))
    with pytest.raises(ValueError, match="features"):
        h.transform(np.eye(4))
    with pytest.raises(TypeError):
        HashedRandomFourier(beta="1").fit(np.eye(2))


# scikit-learn sets n_components = 1 in these checks; HashedRandomFourier
# needs an even number (a cosine and a sine per frequency) and says so.
_N_COMPONENTS_ONE = {
    name: "n_components = 1 is rejected on purpose (must be even and >= 2)"
    for name in (
        "check_dont_overwrite_parameters",
        "check_methods_sample_order_invariance",
        "check_methods_subset_invariance",
        "check_fit2d_1sample",
        "check_fit2d_1feature",
        "check_fit2d_predict1d",
    )
}


@parametrize_with_checks([HashedRandomFourier(n_components=16, random_state=0)],
                         expected_failed_checks=lambda est: _N_COMPONENTS_ONE)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_auto_beta_leaves_duplicate_rows_out_and_warns_without_two_different_rows():
    from pyd2ke.datasets import load_statlog_dna

    strings = load_statlog_dna().X_train
    with_copies = [strings[0]] * 240 + list(strings[1:61])
    beta = make_sfmedm(random_state=0).fit(with_copies)[-1].beta_
    assert beta > 100  # the distinct pairs' median; duplicates made it 0 and beta 1.0
    with pytest.warns(UserWarning, match=r'beta="auto" found no two different rows'):
        assert make_sfmedm(random_state=0).fit([strings[0]] * 5)[-1].beta_ == 1.0


def test_the_sfm_pipelines_have_a_public_name_for_their_step():
    """A trial: make_pipeline(make_sfmedm()) named its step and every grid
    key after a private class (_rowlabelledpipeline__fourier__beta)."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    for make in (make_sfmedm, make_sfmcgk):
        pipeline = make_pipeline(make(), StandardScaler())
        assert "sfmpipeline__fourier__beta" in pipeline.get_params()
