"""Sets of vectors and documents: Hausdorff, modified Hausdorff and Earth
Mover's distances against references (numpy, scipy, POT), the set and
document transformers' scikit-learn behaviour, and bad input."""


import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist, directed_hausdorff
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import pyd2ke
from pyd2ke import (
    D2KE,
    RandomSetEmbedding,
    RepresentativeSetEmbedding,
    WordMoversEmbedding,
    _core,
)
from pyd2ke.distances import pairwise_distances
from reference import set_distance

ot = pytest.importorskip("ot")


def random_sets(rng, n, dim, low=1, high=40, integers=False):
    sets = []
    for _ in range(n):
        s = rng.standard_normal((rng.integers(low, high + 1), dim))
        sets.append(np.round(2 * s) if integers else s)
    return sets


# Set sizes straddle the kernels' panel widths (8, 16, 32 points) and the
# 6- and 48-row blocks.
SIZES = [1, 7, 8, 9, 15, 16, 17, 47, 48, 49, 63, 64, 65, 130]


@pytest.mark.parametrize("metric", ["hausdorff", "modified_hausdorff"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_set_distances_match_numpy_and_scipy(metric, dtype):
    rng = np.random.default_rng(1)
    for dim in (1, 3, 17, 128):
        X = [rng.standard_normal((n, dim)) for n in SIZES]
        Y = [rng.standard_normal((n, dim)) for n in SIZES[::-1]] + [X[3]]
        D = pairwise_distances(X, Y, metric=metric, dtype=dtype)
        ref = np.array([[set_distance(a, b, metric) for b in Y] for a in X])
        rtol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(D, ref, rtol=rtol, atol=0)
        assert D[3, -1] == 0  # identical sets
        if metric == "hausdorff":
            scipy_ref = [[max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0]) for b in Y] for a in X]
            np.testing.assert_allclose(D, scipy_ref, rtol=rtol)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(1, 20),
    st.integers(1, 9),
    st.booleans(),
    st.sampled_from(["hausdorff", "modified_hausdorff"]),
    st.integers(0, 2**32 - 1),
)
def test_set_distances_property(n, m, dim, integers, metric, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, dim))
    b = rng.standard_normal((m, dim))
    if integers:  # ties and duplicate points
        a, b = np.round(a), np.round(b)
    D = pairwise_distances([a, b], [b, a], metric=metric)
    expected = set_distance(a, b, metric)
    np.testing.assert_allclose([D[0, 0], D[1, 1]], [expected, expected], rtol=1e-12, atol=1e-12)
    assert D[0, 1] == 0 and D[1, 0] == 0
    assert _core.set_distance_reference(a, b, metric) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def emd_pot(a, wa, b, wb):
    return ot.emd2(wa / wa.sum(), wb / wb.sum(), cdist(a, b))


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (5, 3), (20, 20), (50, 6), (130, 21), (500, 50)])
def test_emd_matches_pot(shape):
    rng = np.random.default_rng(sum(shape))
    for trial in range(4):
        n, m = shape
        dim = (2, 5, 50, 300)[trial]
        a, b = rng.standard_normal((n, dim)), rng.standard_normal((m, dim))
        wa, wb = rng.random(n) + 0.01, rng.random(m) + 0.01
        D = pairwise_distances([(a, wa)], [(b, wb)], metric="emd")
        assert D[0, 0] == pytest.approx(emd_pot(a, wa, b, wb), rel=1e-9)


def test_emd_degenerate_problems():
    rng = np.random.default_rng(5)
    grid = np.array([[i, j] for i in range(4) for j in range(4)], dtype=float)
    cases = []
    # Ties everywhere: integer points on a grid, equal weights.
    cases.append((grid, np.ones(16), grid[::-1] + 1, np.ones(16)))
    # Zero weights and duplicate points.
    a = np.repeat(rng.standard_normal((5, 3)), 3, axis=0)
    wa = rng.integers(0, 3, len(a)).astype(float)
    wa[0] = 1
    b = np.vstack([a[:4], rng.standard_normal((6, 3))])
    wb = rng.integers(0, 2, len(b)).astype(float)
    wb[-1] = 1
    cases.append((a, wa, b, wb))
    # Identical documents: distance 0.
    cases.append((a, wa, a, wa))
    # One point on one side: the weighted mean distance.
    cases.append((a, wa, b[:1], np.ones(1)))
    # Balanced degenerate: supplies equal to partial sums of demands.
    cases.append((grid[:4], np.array([1.0, 1, 2, 2]), grid[4:7], np.array([2.0, 2, 2])))
    for a, wa, b, wb in cases:
        D = pairwise_distances([(a, wa)], [(b, wb)], metric="emd")
        assert D[0, 0] == pytest.approx(emd_pot(a, wa, b, wb), rel=1e-9, abs=1e-12)
    D = pairwise_distances([(a, wa)], [(a, wa)], metric="emd")
    assert D[0, 0] == 0


def test_emd_batches_with_zero_weights_match_pot():
    """Many against many: zero weights on both sides, one-point documents and
    both orientations of the simplex (input longer or shorter)."""
    rng = np.random.default_rng(11)

    def document(n):
        w = rng.integers(0, 3, n).astype(float)
        w[rng.integers(n)] += 1
        return rng.standard_normal((n, 4)), w

    X = [document(n) for n in (1, 2, 5, 17, 40)]
    Y = [document(n) for n in (1, 3, 8, 21, 60)]
    for dtype in (np.float64, np.float32):
        D = pairwise_distances(X, Y, metric="emd", dtype=dtype)
        for i, (a, wa) in enumerate(X):
            for j, (b, wb) in enumerate(Y):
                rel = 1e-9 if dtype == np.float64 else 1e-5
                assert D[i, j] == pytest.approx(emd_pot(a, wa, b, wb), rel=rel, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 2**32 - 1), st.booleans())
def test_emd_cost_matrix_property(n, m, seed, integer_costs):
    """The solver alone, on arbitrary (also integer, tie-heavy) cost matrices."""
    rng = np.random.default_rng(seed)
    cost = rng.integers(0, 4, (n, m)).astype(float) if integer_costs else rng.random((n, m))
    a = rng.integers(0, 3, n).astype(float)
    b = rng.integers(0, 3, m).astype(float)
    a[rng.integers(n)] += 1
    b[rng.integers(m)] += 1
    expected = ot.emd2(a / a.sum(), b / b.sum(), cost)
    assert _core.emd_from_cost(cost, a, b) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_emd_one_word_closed_form_and_float32():
    rng = np.random.default_rng(2)
    docs = [(rng.standard_normal((n, 8)), rng.random(n) + 0.1) for n in (1, 3, 40)]
    one = [(rng.standard_normal((1, 8)), np.ones(1))]
    D = pairwise_distances(docs, one, metric="emd")
    for (a, wa), d in zip(docs, D[:, 0]):
        assert d == pytest.approx(np.sum(wa / wa.sum() * np.linalg.norm(a - one[0][0], axis=1)), rel=1e-12)
    D32 = pairwise_distances(docs, docs, metric="emd", dtype=np.float32)
    np.testing.assert_allclose(D32, pairwise_distances(docs, docs, metric="emd"), rtol=1e-5, atol=1e-6)


def test_documents_from_embeddings_and_bag_of_words():
    rng = np.random.default_rng(3)
    E = rng.standard_normal((30, 4))
    counts = rng.integers(0, 4, (6, 30)) * (rng.random((6, 30)) < 0.2)
    counts[np.arange(6), np.arange(6)] = 2  # no empty document
    B = sp.csr_matrix(counts.astype(float))
    pairs = [(E[B[i].indices], B[i].data) for i in range(6)]
    np.testing.assert_allclose(
        pairwise_distances((E, B), metric="emd"), pairwise_distances(pairs, metric="emd"), rtol=1e-12
    )
    wme = WordMoversEmbedding(16, embeddings=E, standardize=False, random_state=0).fit(B)
    wme_pairs = WordMoversEmbedding(16, standardize=False, random_state=0).fit(pairs)
    np.testing.assert_allclose(wme.transform(B), wme_pairs.transform(pairs), rtol=1e-12)
    np.testing.assert_allclose(wme.transform(B.toarray()), wme.transform(B), rtol=1e-12)
    # The caller's matrix is not modified, even when it is not in canonical form.
    messy = sp.csr_matrix((np.r_[B.data, 0.0], np.r_[B.indices, 1], np.r_[B.indptr[:-1], B.indptr[-1] + 1]),
                          shape=B.shape)
    stored = messy.data.copy()
    np.testing.assert_allclose(wme.transform(messy), wme.transform(B), rtol=1e-12)
    np.testing.assert_array_equal(messy.data, stored)
    tfidf = WordMoversEmbedding(16, embeddings=E, weighting="tfidf", standardize=False, random_state=0).fit(B)
    df = (B.toarray() > 0).sum(axis=0)
    np.testing.assert_allclose(tfidf.idf_, np.log(7 / (1 + df)) + 1)
    weighted = [(E[B[i].indices], B[i].data * tfidf.idf_[B[i].indices]) for i in range(6)]
    D = pairwise_distances(weighted, tfidf.random_objects_, metric="emd")
    np.testing.assert_allclose(tfidf.transform(B), np.exp(-tfidf.gamma_ * D) / 4, rtol=1e-12)



def test_bag_of_words_and_pairs_are_not_mistaken():
    rng = np.random.default_rng(0)
    E, counts = rng.normal(size=(10, 4)), np.zeros((3, 10))
    counts[:, 0] = 1
    pairs = [(rng.normal(size=(n, 4)), np.ones(n)) for n in (2, 3)]
    for matrix in (counts, sp.csr_matrix(counts)):
        with pytest.raises(TypeError, match=r"X is a matrix of shape \(3, 10\).*embeddings="):
            WordMoversEmbedding(4).fit(matrix)
    fitted = WordMoversEmbedding(4, embeddings=E, random_state=0).fit(counts)
    with pytest.raises(TypeError, match="list of .word vectors, weights. pairs.*without embeddings"):
        fitted.transform(pairs)
    with pytest.raises(TypeError, match="list of .word vectors, weights. pairs.*without embeddings"):
        WordMoversEmbedding(4, embeddings=E).fit(pairs)


def test_bad_bag_of_words_weight_names_its_column():
    E = np.random.default_rng(0).normal(size=(10, 4))
    counts = np.zeros((3, 10))
    counts[:, 0] = 1
    counts[1, 2] = 1
    for bad in (-1.0, np.nan):
        counts[1, 7] = bad
        for B in (counts, sp.csr_matrix(counts)):
            with pytest.raises(ValueError, match=r"X\[1\] has weight .* \(column 7\)"):
                WordMoversEmbedding(4, embeddings=E).fit(B)



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("dim", [9, 200])
def test_bag_of_words_shares_word_costs_and_matches_the_pairs_bit_for_bit(dtype, dim):
    # Documents from a bag-of-words matrix take the vocabulary path: ground
    # costs once per distinct word (a word table) where that pays, else per
    # document; the same documents as (vectors, weights) pairs take the
    # per-document path. Both compute each distance with the same
    # operations, so the outputs are equal, not just close.
    rng = np.random.default_rng(4)
    sizes = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130]
    V = 160
    E = rng.standard_normal((V, dim))
    E[5] = E[6]  # two words with the same vector
    rows = []
    for n in sizes:
        counts = np.zeros(V)
        # Skewed word choice: documents share their frequent words.
        words = np.unique((rng.random(4 * n) ** 3 * V).astype(int))[:n]
        counts[words] = rng.integers(1, 4, len(words))
        rows.append(counts)
    B = sp.csr_matrix(np.array(rows))
    # With 200-d words the documents share enough for a word table (the
    # C++ rule: (occurrences - distinct) * dim > 40 * occurrences); with 9-d
    # ones they take the per-document path.
    occurrences, distinct = B.nnz, len(np.unique(B.indices))
    assert ((occurrences - distinct) * dim > 40 * occurrences) == (dim == 200)
    pairs = [(E[B[i].indices], B[i].data) for i in range(B.shape[0])]
    for kernel in ("soft", "direct"):
        wme = WordMoversEmbedding(24, embeddings=E, kernel=kernel, dtype=dtype, random_state=1).fit(B)
        expected = clone(wme).set_params(embeddings=None).fit(pairs)
        assert expected.gamma_ == wme.gamma_  # the same random documents and gamma
        for (a, wa), (b, wb) in zip(expected.random_objects_, wme.random_objects_):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(wa, wb)
        want = expected.transform(pairs)
        for n_jobs in (1, 2):
            wme.set_params(n_jobs=n_jobs)
            np.testing.assert_array_equal(wme.transform(B), want)
            with pyd2ke.chunking(max_items=3):  # chunks: slices of the packed documents keep their word ids
                np.testing.assert_array_equal(wme.transform(B), want)
    D = pairwise_distances((E, B), pairs[:4], metric="emd", dtype=dtype)
    np.testing.assert_array_equal(D, pairwise_distances(pairs, pairs[:4], metric="emd", dtype=dtype))
    # The representative-set method draws fit documents as its random ones:
    # the bag-of-words documents write out their word vectors then.
    rsm = D2KE(metric="emd", sampler="representative", n_components=5, dtype=dtype, random_state=0)
    np.testing.assert_array_equal(rsm.fit((E, B)).transform((E, B)), clone(rsm).fit(pairs).transform(pairs))


rng0 = np.random.default_rng(0)
SETS = [rng0.standard_normal((rng0.integers(2, 30), 6)) + (i % 2) for i in range(50)]
DOCS = [(s, rng0.random(len(s)) + 0.1) for s in SETS]
LABELS = np.arange(50) % 2

ESTIMATORS = [
    (RandomSetEmbedding(20, random_state=0), SETS),
    (RandomSetEmbedding(20, metric="hausdorff", kernel="direct", min_size=1, max_size=4, random_state=0), SETS),
    (RandomSetEmbedding(20, random_state=0, dtype=np.float32), SETS),
    (WordMoversEmbedding(20, random_state=0), DOCS),
    (WordMoversEmbedding(20, distribution="box", kernel="direct", max_words=3, random_state=0), DOCS),
    (RepresentativeSetEmbedding(20, metric="modified_hausdorff", random_state=0), SETS),
    (RepresentativeSetEmbedding(20, metric="emd", random_state=0), DOCS),
    (D2KE("hausdorff", n_components=20, random_state=0), SETS),
    (D2KE("emd", n_components=20, random_state=0), DOCS),
]
IDS = ["rse-mh", "rse-h-direct", "rse-f32", "wme", "wme-box", "rsm-mh", "rsm-emd", "d2ke-h", "d2ke-emd"]


@pytest.fixture(params=range(len(ESTIMATORS)), ids=IDS)
def case(request):
    est, X = ESTIMATORS[request.param]
    return clone(est), X


def test_features_are_the_d2ke_formula(case):
    est, X = case
    est.set_params(standardize=False)  # the papers' raw features
    Z = est.fit_transform(X)
    R = est.n_components_
    assert Z.shape == (len(X), R) and Z.flags.c_contiguous and Z.dtype == est.dtype
    D = pairwise_distances(X, est.random_objects_, metric=est._metric_name())
    expected = np.exp(-est.gamma_ * D) if est.kernel == "soft" else D
    rtol = 2e-4 if est.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(Z, expected / np.sqrt(R), rtol=rtol)




def test_random_sets_on_the_unit_sphere():
    est = RandomSetEmbedding(500, min_size=2, max_size=4, random_state=0).fit(SETS)
    assert {len(w) for w in est.random_objects_} == {2, 3, 4}
    points = np.concatenate(est.random_objects_)
    np.testing.assert_allclose(np.linalg.norm(points, axis=1), 1, rtol=1e-12)
    assert np.abs(points.mean(axis=0)).max() < 0.05


def test_random_documents():
    wme = WordMoversEmbedding(400, min_words=2, max_words=5, random_state=0).fit(DOCS)
    assert {len(w) for w, _ in wme.random_objects_} == {2, 3, 4, 5}
    for words, weights in wme.random_objects_:
        np.testing.assert_allclose(np.linalg.norm(words, axis=1), 1, rtol=1e-12)
        np.testing.assert_allclose(weights, 1 / len(weights))
    box = WordMoversEmbedding(400, distribution="box", random_state=0).fit(DOCS)
    words = np.concatenate([w for w, _ in box.random_objects_])
    np.testing.assert_allclose(np.linalg.norm(words, axis=1), 1, rtol=1e-12)


def test_vocabulary_distribution():
    rng = np.random.default_rng(4)
    E = rng.standard_normal((10, 3))
    counts = np.zeros((5, 10))
    counts[:, 2] = 9  # word 2 is 9 times as frequent as word 7
    counts[:, 7] = 1
    wme = WordMoversEmbedding(300, embeddings=E, distribution="vocabulary", random_state=0).fit(sp.csr_matrix(counts))
    words = np.concatenate([w for w, _ in wme.random_objects_])
    is_2 = np.all(words == E[2], axis=1)
    assert np.all(is_2 | np.all(words == E[7], axis=1))
    assert 0.85 < is_2.mean() < 0.95
    assert not hasattr(wme, "_word_counts")
    # Pair form: drawn from the fit documents' vectors by weight.
    pairs = WordMoversEmbedding(50, distribution="vocabulary", random_state=0).fit(DOCS)
    fit_vectors = {tuple(v) for s in SETS for v in s}
    assert all(tuple(v) in fit_vectors for w, _ in pairs.random_objects_ for v in w)


def test_pipeline_and_grid_search():
    pipe = make_pipeline(RandomSetEmbedding(16, random_state=0), StandardScaler(), LinearSVC())
    search = GridSearchCV(pipe, {"randomsetembedding__kernel": ["soft", "direct"]}, cv=3).fit(SETS, LABELS)
    assert search.best_score_ > 0.8
    pipe = make_pipeline(WordMoversEmbedding(16, random_state=0), StandardScaler(), LinearSVC())
    assert GridSearchCV(pipe, {"linearsvc__C": [0.1, 1]}, cv=3).fit(DOCS, LABELS).best_score_ > 0.8


def test_generic_d2ke_callable_metric_and_sampler():
    def hamming(a, b):
        return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))

    words = ["kitten", "sitting", "mitten", "fitting", "bitten", "sit"]
    Z = D2KE(hamming, n_components=4, random_state=0, n_jobs=2).fit_transform(words)
    Z1 = D2KE(hamming, n_components=4, random_state=0, n_jobs=1).fit_transform(words)
    np.testing.assert_array_equal(Z, Z1)

    def sampler(random_state, n):
        return ["".join(random_state.choice(list("abc"), size=3)) for _ in range(n)]

    est = D2KE(hamming, sampler=sampler, n_components=5, random_state=0, kernel="direct", standardize=False).fit(words)
    D = np.array([[hamming(x, w) for w in est.random_objects_] for x in words])
    np.testing.assert_allclose(est.transform(words), D / np.sqrt(5))
    # A built-in metric with a callable sampler takes the fast path.
    est = D2KE("levenshtein", sampler=sampler, n_components=5, random_state=0).fit(words)
    assert est.n_components_ == 5 and all(len(w) == 3 for w in est.random_objects_)
    with pytest.raises(ValueError, match="sampler returned 2 objects"):
        D2KE("levenshtein", sampler=lambda rs, n: ["a", "b"], n_components=5).fit(words)
    with pytest.raises(ValueError, match="sampler must be"):
        D2KE("levenshtein", sampler="uniform").fit(words)
    with pytest.raises(ValueError, match=r"returned nan for objects \(0, 0\)"):
        D2KE(lambda a, b: float("nan"), n_components=2, random_state=0).fit_transform(words)
    # Objects need not have a length.
    numbers = [0.5, 2.0, 3.5, 10.0]
    Z = D2KE(lambda a, b: abs(a - b), n_components=3, random_state=0, kernel="direct").fit_transform(numbers)
    assert Z.shape == (4, 3)
    with pytest.raises(ValueError, match="sampler='random' needs a built-in metric"):
        D2KE(hamming, sampler="random").fit(words)


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([], ValueError, "X is empty"),
        ([np.zeros((0, 3))], ValueError, r"X\[0\] is empty"),
        ([np.zeros((2, 3)), np.zeros((2, 4))], ValueError, r"X\[1\] has points of dimension 4"),
        ([np.zeros((2, 3)), np.array([[0, np.nan, 0]])], ValueError, r"X\[1\] contains NaN"),
        ([np.zeros((2, 3)), np.zeros((2, 3, 1))], ValueError, r"X\[1\] has 3 dimensions"),
        (["abc"], TypeError, r"X\[0\] is str"),
        ([np.zeros((2, 3), dtype=complex)], TypeError, r"X\[0\] is complex"),
        ("abc", TypeError, "sequence of sets"),
    ],
)
def test_bad_sets(bad, error, match):
    with pytest.raises(error, match=match):
        RandomSetEmbedding(4).fit(bad)
    with pytest.raises(error, match=match):
        pairwise_distances(bad, metric="hausdorff")


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([(np.zeros((2, 3)), np.array([1.0, -1.0]))], ValueError, r"X\[0\] has weight -1.0"),
        ([(np.zeros((2, 3)), np.zeros(2))], ValueError, r"X\[0\] has only zero weights"),
        ([(np.zeros((2, 3)), np.array([1.0, np.nan]))], ValueError, r"X\[0\] has weight nan"),
        ([(np.zeros((2, 3)), np.ones(3))], ValueError, r"X\[0\] has 2 word vectors but weights of shape"),
        ([(np.zeros((2, 3)), np.ones(2)), (np.zeros((1, 2)), np.ones(1))], ValueError, r"X\[1\] vectors has points of dimension 2"),
        ([np.zeros((2, 3))], TypeError, r"X\[0\] is ndarray; a document is a pair"),
        ([(np.zeros((0, 3)), np.ones(0))], ValueError, r"X\[0\] vectors is empty"),
    ],
)
def test_bad_documents(bad, error, match):
    with pytest.raises(error, match=match):
        WordMoversEmbedding(4).fit(bad)
    with pytest.raises(error, match=match):
        pairwise_distances(bad, metric="emd")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_documents_packed_by_the_core_equal_the_checked_loop(dtype, monkeypatch):
    from pyd2ke._domains import documents

    rng = np.random.default_rng(4)
    sizes = [1, 2, 7, 8, 9, 17, 65, 3]
    cases = [
        [(rng.normal(size=(n, 5)), rng.uniform(0.1, 2, n)) for n in sizes],
        [[rng.normal(size=(n, 3)).astype(np.float32), rng.integers(1, 4, n)] for n in sizes],
        [(rng.normal(size=n), rng.uniform(0, 1, n).astype(np.float32)) for n in sizes],
        [(np.asfortranarray(rng.normal(size=(n, 4))), rng.uniform(0.1, 2, 2 * n)[::2]) for n in sizes],
    ]
    for docs in cases:
        fast = documents.check_documents(docs, "X", dtype)
        assert documents._pack_document_arrays(docs, "X", dtype) is not None
        with monkeypatch.context() as m:
            m.setattr(documents, "_pack_document_arrays", lambda *args: None)
            slow = documents.check_documents(docs, "X", dtype)
        for field in ("values", "offsets", "weights"):
            got, expected = getattr(fast, field), getattr(slow, field)
            assert got.dtype == expected.dtype and got.flags.c_contiguous, field
            np.testing.assert_array_equal(got, expected, err_msg=field)
    # Weights of another shape, bool weights, lists: left to the loop, which names them or takes them.
    assert documents._pack_document_arrays([(np.ones((2, 3)), np.ones((2, 1)))], "X", dtype) is None
    assert documents._pack_document_arrays([(np.ones((2, 3)), np.ones(2, dtype=bool))], "X", dtype) is None
    assert documents._pack_document_arrays([([[1.0, 2.0]], np.ones(1))], "X", dtype) is None


def test_dimension_must_match_fit_and_random_objects():
    est = RandomSetEmbedding(4, random_state=0).fit(SETS)
    with pytest.raises(ValueError, match="dimension 3, but 6 was expected"):
        est.transform([np.zeros((2, 3))])
    wme = WordMoversEmbedding(4, random_state=0).fit(DOCS)
    with pytest.raises(ValueError, match="dimension 2, but 6 was expected"):
        wme.transform([(np.zeros((2, 2)), np.ones(2))])
    with pytest.raises(ValueError, match="dimension 2, but 6 was expected"):
        pairwise_distances(SETS[:2], [np.zeros((1, 2))], metric="modified_hausdorff")
    with pytest.raises(ValueError, match="columns"):
        WordMoversEmbedding(4, embeddings=np.ones((5, 2))).fit(sp.csr_matrix(np.ones((2, 4))))
    with pytest.raises(ValueError, match="tfidf"):
        WordMoversEmbedding(4, weighting="tfidf").fit(DOCS)
    with pytest.raises(ValueError, match="min_size"):
        RandomSetEmbedding(4, min_size=5, max_size=2).fit(SETS)
    with pytest.raises(ValueError, match="metric"):
        RandomSetEmbedding(4, metric="emd").fit(SETS)
