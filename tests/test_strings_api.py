"""scikit-learn behaviour of the string transformers (ragged inputs, so the
official estimator checks do not apply: these are the hand-written ones)."""

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from pyd2ke import RandomStringEmbedding, RepresentativeSetEmbedding
from pyd2ke._domains.strings import draw_random_strings
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
    estimator.set_params(standardize=False)  # the papers' raw features
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
    rse = RandomStringEmbedding(16, sampler="rf", standardize=False, random_state=0).fit(words)
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
    rse = RandomStringEmbedding(24, sampler=sampler, max_length=max_length, kernel=kernel, standardize=False,
                                random_state=0)
    with warnings.catch_warnings():  # bss on a few short strings may have fewer than 24 distinct blocks
        warnings.filterwarnings("ignore", "n_components=24 is larger than the number of distinct bss blocks")
        Z = rse.fit(fit).transform(texts)
    D = levenshtein_matrix(texts, rse.random_objects_)
    expected = (np.exp(-rse.gamma_ * D) if kernel == "soft" else D) / np.sqrt(rse.n_components_)
    np.testing.assert_allclose(Z, expected, rtol=1e-13, atol=0)


# --- the bss sampler against the RSE paper's Algorithm 2 --------------------------


def _bss_blocks(strings, max_length):
    """Every block bss can draw (written out again here, independently)."""
    blocks = set()
    for s in strings:
        for d in range(1, max_length + 1):
            if len(s) < d:
                blocks.add(s)
            for start in range(0, len(s) - d + 1, d):
                blocks.add(s[start:start + d])
    return blocks


@given(
    base=st.lists(st.text(alphabet="AB", min_size=1, max_size=9), min_size=1, max_size=4),
    copies=st.integers(1, 6),
    max_length=st.integers(1, 5),
    extra=st.integers(-4, 6),
    seed=st.integers(0, 2**31 - 1),
)
def test_bss_never_repeats_a_block(base, copies, max_length, extra, seed):
    """Algorithm 2 drops a block equal to one drawn before (in any earlier
    batch): training sets with many duplicate strings and blocks, and R
    around and above the number of distinct blocks."""
    X = base * copies
    universe = _bss_blocks(X, max_length)
    R = max(1, len(universe) + extra)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        drawn = draw_random_strings(X, R, np.random.RandomState(seed), False, "bss", max_length)
        again = draw_random_strings(X, R, np.random.RandomState(seed), False, "bss", max_length)
    assert len(drawn) == len(set(drawn)) == min(R, len(universe))
    assert set(drawn) <= universe
    fewer = [w for w in caught if "distinct bss blocks" in str(w.message)]
    assert len(fewer) == (2 if R > len(universe) else 0)
    assert again == drawn


def test_bss_uses_every_block_and_warns_when_short():
    X = ["ACGT", "ACGT", "AC"] * 10
    with pytest.warns(UserWarning, match=r"n_components=100 is larger than the number of distinct bss blocks "
                                         r"of X \(6 with max_length=2\)"):
        rse = RandomStringEmbedding(100, max_length=2, random_state=0).fit(X)
    # ACGT is never whole: it is not shorter than any D_j <= 2.
    assert sorted(rse.random_objects_) == sorted({"A", "C", "G", "T", "AC", "GT"})
    assert rse.n_components_ == 6 and rse.transform(X).shape == (30, 6)
    one = RandomStringEmbedding(100, max_length=2, random_state=0, n_jobs=1)
    two = RandomStringEmbedding(100, max_length=2, random_state=0, n_jobs=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(one.fit_transform(X), two.fit_transform(X))


def test_bss_distribution_follows_algorithm_2():
    """The first string of a draw is the smallest of l block indices drawn
    uniformly with replacement from the b = L // D blocks of a uniform string,
    with D ~ U{1..D_max} and l ~ U{1..b}: P(D = d, first block = j) =
    (1 / D_max) mean_l [((b - j) / b)^l - ((b - j - 1) / b)^l]. Every symbol
    is distinct, so a block names its string, length and start. A chi-square
    test over 20000 independent draws (the cells' expected counts are >= 25)."""
    L, D_max, N = 12, 5, 3
    X = ["".join(chr(0x4E00 + k * L + i) for i in range(L)) for k in range(N)]
    cells, probabilities = {}, []
    for d in range(1, D_max + 1):
        b = L // d
        for j in range(b):
            cells[(d, j)] = len(probabilities)
            l = np.arange(1, b + 1)
            probabilities.append(np.mean(((b - j) / b) ** l - ((b - j - 1) / b) ** l) / D_max)
    probabilities = np.array(probabilities)
    assert abs(probabilities.sum() - 1) < 1e-12
    counts = np.zeros(len(probabilities))
    strings = np.zeros(N)
    rng = np.random.RandomState(0)
    for _ in range(20000):  # consecutive draws from one generator are independent
        (w,) = draw_random_strings(X, 1, rng, False, "bss", D_max)
        offset = ord(w[0]) - 0x4E00
        k, start = divmod(offset, L)
        d = len(w)
        assert start % d == 0 and w == X[k][start:start + d]
        counts[cells[(d, start // d)]] += 1
        strings[k] += 1
    n = counts.sum()
    assert (n * probabilities).min() >= 25
    assert stats.chisquare(counts, n * probabilities).pvalue > 1e-3
    assert stats.chisquare(strings).pvalue > 1e-3


# Lists of 2048 strings or more are read by the core on the threads; shorter
# ones one by one. Both must give the same views and name the same bad item.
@pytest.mark.parametrize("n", [1, 2047, 2048, 2049, 5000])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_long_string_lists_are_read_the_same_on_any_threads(n, threads):
    from pyd2ke import _core

    rng = np.random.default_rng(n)
    # All three str widths (1, 2 and 4 bytes per character) and a subclass.
    alphabet = ["a", "b", "é", "€", "😀"]
    strings = ["".join(rng.choice(alphabet, rng.integers(1, 12))) for _ in range(n)]
    strings[n // 2] = np.str_(strings[n // 2])
    symbols, offsets = _core.cgk_walks(strings, 7, 0, threads)
    expected_symbols, expected_offsets = _core.cgk_walks(strings[:1], 7, 0, 1)
    np.testing.assert_array_equal(symbols[:offsets[1]], expected_symbols)
    # Every string's walk as if it were read alone.
    for i in rng.choice(n, size=min(n, 20), replace=False):
        alone, _ = _core.cgk_walks([strings[i]], 7, 0, 1)
        np.testing.assert_array_equal(symbols[offsets[i]:offsets[i + 1]], alone)
    # ESP sketches of the whole list (read on the threads from 2048 on)
    # against the same list read in pieces of 1000 (one by one).
    as_bytes = [s.encode() for s in strings]
    labels, counts, sketch_offsets = _core.esp_sketches(as_bytes, threads)
    pieces = [_core.esp_sketches(as_bytes[i:i + 1000], 1) for i in range(0, n, 1000)]
    np.testing.assert_array_equal(labels, np.concatenate([p[0] for p in pieces]))
    np.testing.assert_array_equal(counts, np.concatenate([p[1] for p in pieces]))
    assert len(sketch_offsets) == n + 1


@pytest.mark.parametrize("n", [10, 3000])
@pytest.mark.parametrize("position", [0, 1500, -1])
def test_bad_items_of_long_lists_are_named(n, position):
    from pyd2ke import _core

    index = position % n
    wrong = ["ab"] * n
    wrong[index] = 3
    with pytest.raises(TypeError, match=rf"X\[{index}\] is int, expected str or bytes"):
        _core.cgk_walks(wrong, 1, 0, 2)
    mixed = ["ab"] * n
    mixed[index] = b"ab"
    first = 1 if index == 0 else index
    with pytest.raises(TypeError, match=rf"X mixes str and bytes \(first at index {first}\)"):
        _core.esp_sketches(mixed, 2)
