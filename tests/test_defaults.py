"""The data-adaptive defaults of issue 28: each "auto" parameter follows its
documented rule and is stored as a fitted attribute; standardize=True is the
raw features centred and divided by one factor; and the shortest pipeline (no
scaler, default C) learns."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.metrics.pairwise import manhattan_distances
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC

import pyd2ke
from cases import series, sets, strings
from pyd2ke._auto import SERIES_MAX_LENGTH_CAP, STRING_MAX_LENGTH_CAP
from pyd2ke.datasets import load_statlog_dna
from pyd2ke.reports.defaults_panel import mutated_strings


def _strings_of_lengths(lengths, seed=0):
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(list("ACGT"), n)) for n in lengths]


@pytest.mark.filterwarnings("ignore:n_components=32 is larger than the number of distinct bss blocks")
@pytest.mark.parametrize("lengths, expected", [
    ([60] * 5, 120), ([3, 5, 7], 10), ([1, 1, 2], 2), ([0, 0, 1], 1), ([400, 500, 600], STRING_MAX_LENGTH_CAP),
])
def test_string_max_length_auto_is_twice_the_median(lengths, expected):
    rse = pyd2ke.RandomStringEmbedding(32, random_state=0).fit(_strings_of_lengths(lengths))
    assert rse.max_length_ == expected
    assert max(len(s) for s in rse.random_objects_) <= expected


def test_explicit_max_length_is_kept():
    X = _strings_of_lengths([60] * 20)
    rse = pyd2ke.RandomStringEmbedding(64, max_length=7, random_state=0).fit(X)
    assert rse.max_length_ == 7 and max(len(s) for s in rse.random_objects_) <= 7


@pytest.mark.parametrize("lengths, min_length, expected", [
    ([100] * 4, 2, 25), ([24] * 3, 2, 10), ([15, 15, 26], 2, 10), ([8, 8, 9], 2, 8), ([3, 3], 2, 3),
    ([8, 8], 9, 9), ([4000, 4000, 4000], 2, SERIES_MAX_LENGTH_CAP),
])
def test_series_max_length_auto_is_a_quarter_of_the_median_at_least_10(lengths, min_length, expected):
    rng = np.random.default_rng(0)
    X = [rng.normal(size=n) for n in lengths]
    rws = pyd2ke.RandomWarpingSeries(16, min_length=min_length, random_state=0).fit(X)
    assert rws.max_length_ == expected
    assert all(min_length <= len(w) <= expected for w in rws.random_objects_)
    assert rws.random_objects_[0].shape[1] == 2  # derivative=True by default: values and slopes


@pytest.mark.parametrize("make, bad", [
    (lambda v: pyd2ke.RandomStringEmbedding(max_length=v), "automatic"),
    (lambda v: pyd2ke.RandomWarpingSeries(max_length=v), "Auto"),
    (lambda v: pyd2ke.HashedRandomFourier(beta=v), "median"),
])
def test_auto_parameters_refuse_other_strings(make, bad):
    data = strings(5) if isinstance(make(1), pyd2ke.RandomStringEmbedding) else None
    if data is None:
        data = series(5) if isinstance(make(1), pyd2ke.RandomWarpingSeries) else np.eye(4)
    with pytest.raises((ValueError, TypeError), match="max_length|beta"):
        make(bad).fit(data)


@pytest.mark.parametrize("make, data", [
    (lambda **kw: pyd2ke.RandomStringEmbedding(40, random_state=0, **kw), strings),
    (lambda **kw: pyd2ke.RandomWarpingSeries(40, random_state=0, **kw), series),
    (lambda **kw: pyd2ke.RandomSetEmbedding(40, kernel="direct", random_state=0, **kw), sets),
    (lambda **kw: pyd2ke.D2KE("dtw", n_components=40, gamma=0.5, random_state=0, **kw), series),
])
def test_standardize_is_raw_features_centred_and_scaled(make, data):
    X = data(60)
    raw = make(standardize=False).fit(X)
    std = make().fit(X)
    for attr in ("random_objects_", "gamma_"):
        assert repr(getattr(raw, attr)) == repr(getattr(std, attr))
    assert raw.feature_mean_ is None and raw.feature_scale_ is None
    Z_raw, Z = raw.transform(X), std.transform(X)
    np.testing.assert_allclose(Z, (Z_raw - std.feature_mean_) / std.feature_scale_, rtol=1e-10, atol=1e-12)
    # 60 fit objects (< 256): the statistics are those of every fit object.
    np.testing.assert_allclose(Z.mean(axis=0), 0.0, atol=1e-9)
    assert np.mean(Z.var(axis=0)) == pytest.approx(1.0, rel=1e-9)
    # One factor for every feature: Z Z' is the centred raw kernel over s^2.
    C = Z_raw - Z_raw.mean(axis=0)
    np.testing.assert_allclose(Z @ Z.T, C @ C.T / std.feature_scale_ ** 2, rtol=1e-8, atol=1e-8)


def test_standardize_follows_the_fitted_state_and_fit_transform():
    X = strings(300)  # more than the 256 objects of the fit sample
    rse = pyd2ke.RandomStringEmbedding(30, random_state=0)
    np.testing.assert_array_equal(rse.fit_transform(X), rse.fit(X).transform(X))
    assert np.abs(rse.transform(X).mean(axis=0)).max() < 0.2  # a sample's means: near 0, not exactly
    with pytest.raises(TypeError, match="standardize"):
        pyd2ke.RandomStringEmbedding(standardize="yes").fit(X)


def test_hashed_fourier_beta_auto_is_twice_the_median_l1():
    rng = np.random.default_rng(0)
    X = rng.random((40, 7))
    D = manhattan_distances(X)
    expected = 2 * np.median(D[np.triu_indices(40, 1)])
    assert pyd2ke.HashedRandomFourier(random_state=0).fit(X).beta_ == pytest.approx(expected)
    assert pyd2ke.HashedRandomFourier(random_state=0).fit(sp.csr_matrix(X)).beta_ == pytest.approx(expected)
    assert pyd2ke.HashedRandomFourier(beta=3.0, random_state=0).fit(X).beta_ == 3.0
    assert pyd2ke.HashedRandomFourier(kernel="rbf", random_state=0).fit(X).beta_ is None
    assert pyd2ke.HashedRandomFourier(random_state=0).fit(np.ones((3, 2))).beta_ == 1.0  # no spread


def test_hashed_fourier_beta_auto_on_any_csr():
    """Sparse rows of any sign, with duplicate and unsorted columns, and
    64-bit column ids (ESPVectorizer's hashes: scikit-learn's sparse
    manhattan_distances refused them)."""
    X = sp.random(40, 60, density=0.2, random_state=1, format="csr")
    X.data -= 0.5
    D = manhattan_distances(X.toarray())
    expected = 2 * np.median(D[np.triu_indices(40, 1)])
    # Row 0 gains (column 3, +0.25) and (column 3, -0.25) ahead of its own
    # entries: the same row, in a non-canonical form, with 64-bit indices.
    messy = sp.csr_matrix((np.r_[[0.25, -0.25], X.data], np.r_[[3, 3], X.indices].astype(np.int64),
                           np.r_[0, X.indptr[1:] + 2].astype(np.int64)), shape=X.shape)
    assert not messy.has_canonical_format
    for A in (X, messy):
        assert pyd2ke.HashedRandomFourier(random_state=0).fit(A).beta_ == pytest.approx(expected)
    E = pyd2ke.ESPVectorizer(n_features=2**40).fit_transform(strings(30))
    assert E.indices.dtype == np.int64
    sketches = pyd2ke.ESPVectorizer(output="sketch").fit_transform(strings(30))
    from_csr = pyd2ke.HashedRandomFourier(random_state=0).fit(E).beta_
    assert from_csr == pytest.approx(pyd2ke.HashedRandomFourier(random_state=0).fit(sketches).beta_)


def test_sfm_beta_auto_reads_the_sketches():
    X = strings(50)
    sfm = pyd2ke.make_sfmedm(n_components=64, random_state=0).fit(X)
    V = pyd2ke.ESPVectorizer().fit_transform(X)
    D = manhattan_distances(V)
    assert sfm[-1].beta_ == pytest.approx(2 * np.median(D[np.triu_indices(50, 1)]))
    cgk = pyd2ke.make_sfmcgk(n_components=64, random_state=0).fit(X)
    assert cgk[-1].beta_ > 1.0


def test_sfm_defaults_separate_mutated_strings():
    """With the papers' beta=1 the kernel is 0 between any two of these strings
    and the features are noise; beta="auto" separates the two classes."""
    X, y = mutated_strings(400)
    for make in (pyd2ke.make_sfmedm, pyd2ke.make_sfmcgk):
        for beta, low, high in (("auto", 0.95, 1.0), (1.0, 0.0, 0.7)):
            model = make_pipeline(make(n_components=256, beta=beta, random_state=0), LinearSVC())
            score = model.fit(X[:300], y[:300]).score(X[300:], y[300:])
            assert low <= score <= high, (make.__name__, beta, score)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("classifier", [LogisticRegression, LinearSVC])
def test_the_shortest_pipeline_learns(classifier):
    """RSE with its defaults straight into a linear model with its default C:
    the raw features give (nearly) the majority class, the standardised ones
    learn."""
    dna = load_statlog_dna()
    X_train, y_train, X_test, y_test = dna.X_train[:600], dna.y_train[:600], dna.X_test[:400], dna.y_test[:400]
    scores = {}
    for standardize in (True, False):
        model = make_pipeline(pyd2ke.RandomStringEmbedding(256, standardize=standardize, random_state=0),
                              classifier())
        scores[standardize] = model.fit(X_train, y_train).score(X_test, y_test)
    majority = max(np.mean(np.asarray(y_test) == c) for c in set(y_test))
    assert scores[False] < majority + 0.1
    assert scores[True] > 0.7, scores  # R=256 on 600 strings; 0.73-0.80 here


def test_changing_kernel_after_fit_asks_for_a_refit():
    X = strings(30)
    rse = pyd2ke.RandomStringEmbedding(16, random_state=0).fit(X)
    with pytest.raises(ValueError, match="fit again after changing kernel"):
        rse.set_params(kernel="direct").transform(X)
    raw = pyd2ke.RandomStringEmbedding(16, standardize=False, random_state=0).fit(X)
    assert raw.set_params(kernel="direct").transform(X).shape == (30, 16)  # raw features follow the parameter


def test_auto_gamma_is_not_set_by_ties_at_rounding_level():
    from pyd2ke._auto import inverse_median

    ties = np.r_[np.full(60, 3e-16), np.zeros(10), np.linspace(0.4, 0.6, 30)]
    assert inverse_median(ties) == pytest.approx(1 / 0.5, rel=1e-3)  # the median of the distances above the ties
    few_ties = np.r_[np.zeros(10), np.linspace(1, 3, 30)]  # a median above them: the plain rule
    assert inverse_median(few_ties) == 1 / np.median(few_ties)
    assert inverse_median(np.zeros(5)) == 1.0
    nx = pytest.importorskip("networkx")
    fit = [nx.cycle_graph(6)] * 4 + [nx.path_graph(6)] * 2
    rge = pyd2ke.RandomGraphEmbedding(random_state=0).fit(fit)
    A = nx.to_numpy_array(nx.cycle_graph(6))
    order = [1, 3, 5, 0, 2, 4]
    Z = rge.transform([A, A[order][:, order]])  # one graph, its nodes in two orders
    assert rge.gamma_ < 1e3 and np.abs(Z[0] - Z[1]).max() < 1e-9
