"""scikit-learn behaviour of the string transformers (ragged inputs, so the
official estimator checks do not apply: these are the hand-written ones)."""


import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from pyd2ke import RandomStringEmbedding, RepresentativeSetEmbedding
from pyd2ke.distances import pairwise_distances
from reference import levenshtein_matrix

rng = np.random.default_rng(0)
X = ["".join(rng.choice(list("ACGT"), rng.integers(1, 40))) for _ in range(120)]
y = np.array([s.count("A") > s.count("T") for s in X], dtype=int)

ESTIMATORS = [
    *(RandomStringEmbedding(32, sampler=s, random_state=0) for s in ("rf", "rfd", "ss", "bss")),
    RandomStringEmbedding(32, kernel="direct", max_length=70, random_state=0),
    RepresentativeSetEmbedding(32, random_state=0),
]
IDS = ["rse-rf", "rse-rfd", "rse-ss", "rse-bss", "rse-direct", "rsm"]


@pytest.fixture(params=range(len(ESTIMATORS)), ids=IDS)
def estimator(request):
    return clone(ESTIMATORS[request.param])




def test_features_are_the_d2ke_formula(estimator):
    Z = estimator.fit_transform(X)
    R = estimator.n_components_
    assert Z.shape == (len(X), R) and Z.flags.c_contiguous and Z.dtype == np.float64
    D = levenshtein_matrix(X, estimator.random_objects_)
    if estimator.kernel == "soft":
        expected = np.exp(-estimator.gamma_ * D) / np.sqrt(R)
    else:
        expected = D / np.sqrt(R)
    np.testing.assert_allclose(Z, expected, rtol=1e-13, atol=0)
    assert np.all(np.isfinite(Z))


def test_random_strings_follow_the_sampler():
    rse = RandomStringEmbedding(200, sampler="ss", max_length=7, random_state=1).fit(X)
    assert all(1 <= len(w) <= 7 and any(w in x for x in X) for w in rse.random_objects_)
    rse = RandomStringEmbedding(200, sampler="bss", max_length=5, random_state=1).fit(X)
    assert all(1 <= len(w) <= 5 or w in X for w in rse.random_objects_)
    rse = RandomStringEmbedding(200, sampler="rf", max_length=3, random_state=1).fit(X)
    assert all(1 <= len(w) <= 3 and set(w) <= set("ACGT") for w in rse.random_objects_)
    lengths = [len(w) for w in rse.random_objects_]
    assert set(lengths) == {1, 2, 3}
    rsm = RepresentativeSetEmbedding(10, random_state=1).fit(X)
    assert rsm.random_objects_ == [X[i] for i in rsm.representative_indices_]


def test_rfd_follows_frequencies():
    skewed = ["A" * 90 + "C" * 10] * 5
    rse = RandomStringEmbedding(400, sampler="rfd", max_length=10, random_state=0).fit(skewed)
    symbols = "".join(rse.random_objects_)
    assert 0.85 < symbols.count("A") / len(symbols) < 0.95


def test_auto_gamma_is_inverse_median(estimator):
    estimator.fit(X)
    D = pairwise_distances(X, estimator.random_objects_)
    if len(X) <= 256:
        assert estimator.gamma_ == pytest.approx(1.0 / np.median(D))
    fixed = clone(estimator).set_params(gamma=0.5).fit(X)
    assert fixed.gamma_ == 0.5







def test_bytes_input():
    Xb = [s.encode() for s in X]
    rse = RandomStringEmbedding(16, sampler="rfd", random_state=0).fit(Xb)
    assert all(isinstance(w, bytes) for w in rse.random_objects_)
    Z = rse.transform(Xb)
    ref = RandomStringEmbedding(16, sampler="rfd", random_state=0).fit(X)
    assert [w.decode() for w in rse.random_objects_] == ref.random_objects_
    np.testing.assert_array_equal(Z, ref.transform(X))


def test_unicode_input():
    words = ["naïve", "café", "日本語", "αβγ", "\U0001f600\U0001f600x"] * 4
    rse = RandomStringEmbedding(16, sampler="rf", random_state=0).fit(words)
    Z = rse.transform(words)
    D = levenshtein_matrix(words, rse.random_objects_)
    np.testing.assert_allclose(Z, np.exp(-rse.gamma_ * D) / 4, rtol=1e-13)


def test_accepts_numpy_and_generators():
    arr = np.array(X)
    rse = RandomStringEmbedding(8, random_state=0).fit(arr)
    np.testing.assert_array_equal(rse.transform(arr), rse.transform(x for x in X))


def test_pipeline_and_grid_search():
    pipe = make_pipeline(RandomStringEmbedding(64, random_state=0), StandardScaler(), LinearSVC())
    search = GridSearchCV(
        pipe,
        {"randomstringembedding__max_length": [3, 8], "linearsvc__C": [0.1, 1.0]},
        cv=3,
    )
    search.fit(X, y)
    assert search.best_score_ > 0.6
    assert search.predict(X[:5]).shape == (5,)


from hypothesis import given
from hypothesis import strategies as st


@given(
    fit=st.lists(st.text(alphabet="ACGTé\U0001f600", min_size=1, max_size=30), min_size=1, max_size=20),
    texts=st.lists(st.text(alphabet="ACGTXé\U0001f600", max_size=90), min_size=1, max_size=10),
    sampler=st.sampled_from(["rf", "rfd", "ss", "bss"]),
    max_length=st.sampled_from([1, 8, 9, 16, 17, 64, 65, 100]),
    kernel=st.sampled_from(["soft", "direct"]),
)
def test_rse_matches_reference_formula(fit, texts, sampler, max_length, kernel):
    rse = RandomStringEmbedding(24, sampler=sampler, max_length=max_length, kernel=kernel, random_state=0)
    Z = rse.fit(fit).transform(texts)
    D = levenshtein_matrix(texts, rse.random_objects_)
    expected = (np.exp(-rse.gamma_ * D) if kernel == "soft" else D) / np.sqrt(24)
    np.testing.assert_allclose(Z, expected, rtol=1e-13, atol=0)
