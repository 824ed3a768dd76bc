"""ESPVectorizer and metric="esp": properties of edit-sensitive parsing.

The C++ test (cpp/tests/test_esp.cpp) checks the parser against a slow
reference; here: the documented invariants through the Python API."""

import math
import pickle
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import clone

from pyd2ke.distances import pairwise_distances
from pyd2ke.sketches import ESPSketches, ESPVectorizer, esp_sketches


def random_strings(rng, n, length, alphabet="ACGT"):
    letters = np.array(list(alphabet))
    return ["".join(letters[rng.integers(0, len(letters), size=length)]) for _ in range(n)]


def l1(a, b):
    """Reference L1 between two sketches through dicts."""
    da = dict(zip(a[0].tolist(), a[1].tolist()))
    db = dict(zip(b[0].tolist(), b[1].tolist()))
    return sum(abs(da.get(k, 0) - db.get(k, 0)) for k in set(da) | set(db))


def log_star(n):
    k, v = 0, float(n)
    while v > 1:
        v = math.log2(v)
        k += 1
    return k


@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=60), min_size=1, max_size=8))
def test_norm_is_number_of_nodes(strings):
    S = esp_sketches(strings)
    norms = S.l1_norms()
    for s, norm in zip(strings, norms):
        # n leaves plus (n-1)/2 .. n-1 internal nodes of arity 2 or 3.
        assert len(s) <= norm <= 2 * len(s) - 1
    labels, counts = S[0]
    assert np.all(np.diff(labels.astype(np.float64)) >= 0) or np.all(labels[1:] > labels[:-1])


def test_identical_strings_identical_vectors_and_batch_independence():
    rng = np.random.default_rng(0)
    X = random_strings(rng, 50, 120)
    S = esp_sketches(X + X[:5])
    for i in range(5):
        a, b = S[i], S[50 + i]
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    # Independent of the other strings and their order.
    order = rng.permutation(50)
    S2 = esp_sketches([X[i] for i in order])
    for k, i in enumerate(order):
        assert np.array_equal(S2[k][0], S[i][0]) and np.array_equal(S2[k][1], S[i][1])
    single = esp_sketches([X[7]])
    assert np.array_equal(single[0][0], S[7][0])


def test_threads_and_processes_give_identical_vectors():
    rng = np.random.default_rng(1)
    X = random_strings(rng, 700, 50)
    a = ESPVectorizer(n_jobs=1).fit_transform(X)
    b = ESPVectorizer(n_jobs=2).fit_transform(X)
    assert (a != b).nnz == 0
    code = (
        "import numpy as np; from pyd2ke.sketches import esp_sketches; "
        "S = esp_sketches(['ACGTTGCAACGT', 'TTTTGGGA']); print(S.labels.tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    assert out.stdout.strip() == str(esp_sketches(["ACGTTGCAACGT", "TTTTGGGA"]).labels.tolist())


def test_str_and_bytes_agree():
    X = ["ACGTACGGA", "TTAGGC"]
    a, b = esp_sketches(X), esp_sketches([x.encode() for x in X])
    assert np.array_equal(a.labels, b.labels) and np.array_equal(a.counts, b.counts)
    # Wide characters parse too.
    w = esp_sketches(["αβγαβγδ", "日本語日本"])
    assert w.l1_norms().tolist()[0] >= 7


@pytest.mark.parametrize("n", [100, 1000, 20000])
def test_single_edit_and_block_move_are_bounded(n):
    rng = np.random.default_rng(n)
    bound = math.log2(n) * log_star(n)
    worst_edit = worst_move = 0.0
    for rep in range(6):
        a = random_strings(rng, 1, n)[0]
        pos = int(rng.integers(n))
        edits = [a[:pos] + ("A" if a[pos] != "A" else "C") + a[pos + 1 :], a[:pos] + a[pos + 1 :], a[:pos] + "G" + a[pos:]]
        length = n // 10
        start = int(rng.integers(n - length))
        rest = a[:start] + a[start + length :]
        to = int(rng.integers(len(rest)))
        moved = rest[:to] + a[start : start + length] + rest[to:]
        S = esp_sketches([a, *edits, moved])
        for k in (1, 2, 3):
            d = l1(S[0], S[k])
            assert d >= 1
            worst_edit = max(worst_edit, d / bound)
        worst_move = max(worst_move, l1(S[0], S[4]) / bound)
    # Documented constants: c <= 4 for one edit, <= 8 for a block move.
    assert worst_edit <= 4.0
    assert worst_move <= 8.0


def test_csr_output_and_hashing():
    X = ["ACGTACGT", "ACGTACGA", "GGGGGG"]
    S = esp_sketches(X)
    V = ESPVectorizer(n_features=2**40).fit_transform(X)
    assert sp.issparse(V) and V.format == "csr" and V.shape == (3, 2**40)
    assert np.allclose(np.asarray(V.sum(axis=1)).ravel(), S.l1_norms())
    small = ESPVectorizer(n_features=7, dtype=np.float32).fit_transform(X)
    assert small.shape == (3, 7) and small.dtype == np.float32
    assert np.allclose(np.asarray(small.sum(axis=1)).ravel(), S.l1_norms())
    native = ESPVectorizer(output="sketch").fit_transform(X)
    assert isinstance(native, ESPSketches) and len(native) == 3
    part = native[1:3]
    assert len(part) == 2 and np.array_equal(part[0][0], native[1][0])


def test_esp_metric_matches_sketch_l1():
    rng = np.random.default_rng(3)
    X = random_strings(rng, 12, 40)
    Y = random_strings(rng, 5, 33)
    D = pairwise_distances(X, Y, metric="esp")
    S, T = esp_sketches(X), esp_sketches(Y)
    ref = np.array([[l1(S[i], T[j]) for j in range(len(Y))] for i in range(len(X))])
    assert np.array_equal(D, ref)
    assert np.all(np.diag(pairwise_distances(X, metric="esp")) == 0)
    assert pairwise_distances(X, Y, metric="esp", dtype=np.float32).dtype == np.float32
    with pytest.raises(TypeError):
        pairwise_distances(X, [b"ACGT"], metric="esp")


def test_bad_input():
    v = ESPVectorizer()
    # An empty string is the zero vector (no tree nodes), as metric="esp" has it.
    V = v.fit_transform(["ACGT", "", "GA"])
    assert V[1].nnz == 0 and V[0].nnz > 0
    assert pairwise_distances(["ACGT", ""], metric="esp")[0, 1] == V[0].sum()
    with pytest.raises(TypeError, match=r"X\[1\]"):
        v.fit_transform(["ACGT", 3])
    with pytest.raises(ValueError, match="empty"):
        v.fit_transform([])
    with pytest.raises(TypeError):
        v.fit_transform("ACGT")
    with pytest.raises(ValueError, match="n_features"):
        ESPVectorizer(n_features=0).fit(["A"])
    with pytest.raises(ValueError, match="output"):
        ESPVectorizer(output="dense").fit(["A"])
    with pytest.raises(ValueError, match="n_jobs"):
        ESPVectorizer(n_jobs=0).fit(["A"])


def test_sklearn_api():
    X = ["ACGTAC", "GGTTAA"]
    v = ESPVectorizer(n_features=64, n_jobs=1)
    assert clone(v).get_params() == v.get_params()
    v.fit(X)
    w = pickle.loads(pickle.dumps(v))
    assert (w.transform(X) != v.transform(X)).nnz == 0


def test_sketches_index_like_an_array_for_cross_validation():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline

    from pyd2ke import HashedRandomFourier

    rng = np.random.default_rng(0)
    strings = ["".join(rng.choice(list("ACGT"), 30)) for _ in range(40)]
    sk = ESPVectorizer(output="sketch").fit_transform(strings)
    assert sk.shape == (40,)
    for key, rows in (([3, 0, -1], [3, 0, 39]), (np.arange(40) % 2 == 0, range(0, 40, 2)), (np.array([], int), []),
                      ([], [])):
        part = sk[key]
        assert isinstance(part, ESPSketches) and len(part) == len(rows)
        for i, r in enumerate(rows):
            np.testing.assert_array_equal(part[i][0], sk[r][0])
            np.testing.assert_array_equal(part[i][1], sk[r][1])
    np.testing.assert_array_equal(sk[np.array(2)][0], sk[2][0])
    with pytest.raises(IndexError):
        sk[[40]]
    with pytest.raises(IndexError, match="integer or boolean"):
        sk[np.array([0.5])]
    model = make_pipeline(HashedRandomFourier(n_components=64, random_state=0), LogisticRegression())
    assert cross_val_score(model, sk, np.arange(40) % 2, cv=3, error_score="raise").shape == (3,)


def test_sketches_are_checked():
    with pytest.raises(ValueError, match="finite and >= 0"):
        ESPSketches([1, 2], [1.0, -1.0], [0, 2])
    with pytest.raises(ValueError, match="finite and >= 0"):
        ESPSketches([1, 2], [1.0, np.nan], [0, 2])
    with pytest.raises(ValueError, match="string 1 do not ascend"):
        ESPSketches([1, 5, 7, 7], [1.0] * 4, [0, 2, 4])
    # A string may start below the last label of the one before; empty strings anywhere.
    assert len(ESPSketches([1, 2, 1], [1.0] * 3, [0, 0, 2, 3, 3])) == 4


def test_transform_needs_no_fit():
    # Stateless, as scikit-learn's HashingVectorizer; the parameters are checked all the same.
    X = ["ACGTAC", "GGTTAA"]
    assert (ESPVectorizer(n_features=64).transform(X) != ESPVectorizer(n_features=64).fit(X).transform(X)).nnz == 0
    with pytest.raises(ValueError, match="output"):
        ESPVectorizer(output="dense").transform(X)
    with pytest.raises(ValueError, match="n_jobs"):
        ESPVectorizer(n_jobs=0).transform(X)


@pytest.mark.parametrize("how", ["global", "pipeline"])
def test_pandas_output_reaches_the_dense_last_step(how):
    """pandas holds neither a sparse matrix nor sketches: ESP and CGK leave
    their output as it is (as HashingVectorizer), so that a pipeline's
    dense last step still gives a DataFrame."""
    pd = pytest.importorskip("pandas")
    import sklearn
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from pyd2ke import CGKEmbedding, make_sfmcgk, make_sfmedm

    X, y = ["ACGTAC", "GGTACA", "TTAGCA", "ACGGTA"], [0, 1, 0, 1]
    with sklearn.config_context(transform_output="pandas" if how == "global" else "default"):
        for make in (make_sfmedm, make_sfmcgk):
            pipeline = make(n_components=8, random_state=0)
            if how == "pipeline":
                pipeline.set_output(transform="pandas")
            assert isinstance(pipeline.fit_transform(X), pd.DataFrame)
        for step in (ESPVectorizer(), CGKEmbedding(random_state=0)):
            model = make_pipeline(step.set_output(transform="pandas"), LogisticRegression()).fit(X, y)
            assert model.predict(X).shape == (4,)
            assert sp.issparse(step.transform(X))
    with pytest.raises(ValueError, match="transform must be one of"):
        ESPVectorizer().set_output(transform="arrow")


def test_feature_names():
    v = ESPVectorizer(n_features=4).fit(["ACGT"])
    assert list(v.get_feature_names_out()) == [f"espvectorizer{i}" for i in range(4)]


@pytest.mark.parametrize("n_features", [1, 7, 1000, 2**20, 2**20 + 7])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_hashed_csr_matches_scipy_sum_duplicates(n_features, n_jobs):
    """The parallel CSR assembly (sort and merge per row in the core) against
    scipy's: columns label % n_features, equal columns summed, sorted."""
    rng = np.random.default_rng(n_features)
    X = ["".join(rng.choice(list("ACGT"), int(n))) for n in rng.integers(1, 300, 700)]
    sketches = ESPVectorizer(output="sketch").fit(X).transform(X)
    for S in (sketches, sketches[100:613]):  # a slice too (offsets rebased, views of the arrays)
        columns = (S.labels % np.uint64(n_features)).astype(np.int64)
        expected = sp.csr_matrix((S.counts.copy(), columns, S.offsets.copy()), shape=(len(S), n_features))
        expected.sum_duplicates()
        got = S.to_csr(n_features, n_jobs=n_jobs)
        assert got.has_canonical_format and got.shape == expected.shape
        np.testing.assert_array_equal(got.indptr, expected.indptr)
        np.testing.assert_array_equal(got.indices, expected.indices)
        np.testing.assert_array_equal(got.data, expected.data)
