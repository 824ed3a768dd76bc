"""A user's own data, read right or refused clearly (issue 31): a one-column
DataFrame is its column, several columns are refused by name, missing
values are named "missing" with their index, and aeon's
(n_cases, n_channels, n_timepoints) arrays are never read the other way
round."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.compose import ColumnTransformer

import pyd2ke
from cases import ALL_CASES, as_dense
from pyd2ke import SeriesLayoutWarning
from pyd2ke.datasets import load_statlog_dna
from pyd2ke.distances import pairwise_distances
from pyd2ke.timeseries import znormalize

pd = pytest.importorskip("pandas", reason="DataFrames come from pandas, in the test extra")

# Every estimator whose input is a list of objects (not a matrix of vectors).
OBJECT_CASES = {name: case for name, case in ALL_CASES.items() if isinstance(case[1](3), list)}


def _column(objects):
    column = pd.Series([None] * len(objects), dtype=object)
    for i, item in enumerate(objects):  # item by item: arrays and tuples stay whole
        column.iat[i] = item
    return column


@pytest.mark.parametrize("name", sorted(OBJECT_CASES))
def test_one_column_dataframe_is_its_column(name):
    make, data = OBJECT_CASES[name]
    X = data(12)
    expected = as_dense(make(0, 1).fit(X).transform(X))
    frame = pd.DataFrame({"objects": _column(X)})
    for given in (frame, frame["objects"]):
        Z = as_dense(make(0, 1).fit(given).transform(given))
        np.testing.assert_array_equal(Z, expected)
    with pytest.raises(ValueError, match="2 columns.*'objects', 'label'"):
        make(0, 1).fit(frame.assign(label=np.arange(12)))


def test_column_transformer_column_of_strings():
    X = load_statlog_dna().X_train[:40]
    frame = pd.DataFrame({"seq": X, "other": np.arange(40)})
    ct = ColumnTransformer([("rse", pyd2ke.RandomStringEmbedding(16, random_state=0), ["seq"])])
    Z = ct.fit_transform(frame)
    np.testing.assert_array_equal(Z, pyd2ke.RandomStringEmbedding(16, random_state=0).fit_transform(X))


@pytest.mark.parametrize("name", sorted(OBJECT_CASES))
@pytest.mark.parametrize("missing", [None, np.nan, "NA"])
def test_missing_values_are_named_missing(name, missing):
    make, data = OBJECT_CASES[name]
    X = data(8)
    X[5] = pd.NA if missing == "NA" else missing
    with pytest.raises(ValueError, match=r"X\[5\].*missing"):
        make(0, 1).fit(X)
    fitted = make(0, 1).fit(data(8))
    with pytest.raises(ValueError, match=r"X\[5\].*missing"):
        fitted.transform(X)


def test_missing_value_in_a_series_column_names_its_label():
    column = _column([np.arange(5.0) for _ in range(4)])
    column.index = ["a", "b", "c", "d"]
    column.iat[2] = None
    with pytest.raises(ValueError, match=r"X\[2\] \(index label 'c'\) is missing"):
        pyd2ke.RandomWarpingSeries(8).fit(column)


@pytest.mark.parametrize("estimator", [pyd2ke.RandomWarpingSeries(8, random_state=0),
                                       pyd2ke.RandomSetEmbedding(8, random_state=0),
                                       pyd2ke.DensityKernelFeatures(n_components=8, random_state=0)])
def test_nan_inside_an_object_is_named_missing(estimator):
    X = [np.random.default_rng(i).normal(size=(6, 2)) for i in range(5)]
    X[3][4, 1] = np.nan
    with pytest.raises(ValueError, match=r"X\[3\].*missing"):
        clone(estimator).fit(X)


def test_aeon_layout_is_never_read_as_channels():
    X = np.random.default_rng(0).normal(size=(30, 3, 80))  # aeon: 30 cases, 3 channels, 80 steps
    with pytest.raises(ValueError, match=r"\(30, 3, 80\).*transpose\(0, 2, 1\)"):
        pyd2ke.RandomWarpingSeries(8).fit(X)
    rws = pyd2ke.RandomWarpingSeries(8, random_state=0).fit(X.transpose(0, 2, 1))
    assert rws.input_flavour_ == 3
    with pytest.raises(ValueError, match="transpose"):
        rws.transform(X)
    # More steps than channels: the documented layout, read as it is.
    assert pyd2ke.RandomWarpingSeries(8, random_state=0).fit(X.transpose(0, 2, 1)[:, :, :2]).input_flavour_ == 2


def test_a_list_of_aeon_cases_is_named():
    """aeon's collections also come as lists of (n_channels, n_timepoints)
    cases; read as (length, channels) they swap steps and channels without
    an error. Equal-length ones warn (more channels than steps in every
    series: a list may mean it, as word-vector sequences do), unequal-length
    ones name the layout in their channel error."""
    rng = np.random.default_rng(0)
    cases = [rng.normal(size=(3, 40)) for _ in range(6)]
    with pytest.warns(SeriesLayoutWarning, match=r"X\[0\]: 3 steps of 40 channels.*\[x\.T for x in X\]") as caught:
        pyd2ke.RandomWarpingSeries(8, random_state=0).fit(cases)
    assert caught[0].filename == __file__  # the user's line, not pyd2ke's
    with pytest.warns(SeriesLayoutWarning, match="more channels than steps"):
        pairwise_distances(cases, metric="dtw")
    with pytest.warns(SeriesLayoutWarning, match="more channels than steps"):
        znormalize(cases)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fitted = pyd2ke.RandomWarpingSeries(8, random_state=0).fit([c.T for c in cases])
        fitted.transform([c.T[:2] for c in cases])  # short series at transform: no warning
        pairwise_distances([c.T for c in cases], metric="dtw")
    unequal = [rng.normal(size=(3, n)) for n in (20, 31, 25)]
    with pytest.raises(ValueError, match=r"X\[1\] has 31 channels.*3 rows.*\[x\.T for x in X\]"):
        pyd2ke.RandomWarpingSeries(8).fit(unequal)


@pytest.mark.parametrize("channels", [2, None])
def test_tslearn_nan_padding_is_named_with_its_fix(channels):
    """tslearn holds series of unequal lengths as one array padded with NaN
    (to_time_series_dataset); the error names the padding and the list
    that its hint builds is the unpadded series."""
    rng = np.random.default_rng(0)
    series = [rng.normal(size=(n, channels or 1)) for n in (12, 20, 7, 15)]
    X = np.full((4, 20, channels or 1), np.nan)
    for x, s in zip(X, series):
        x[: len(s)] = s
    if channels is None:  # univariate: (n_series, length)
        X, series = X[:, :, 0], [s[:, 0] for s in series]
    with pytest.raises(ValueError, match=r"X\[0\].*NaN from step 12 to its end \(20 steps\).*tslearn") as error:
        pyd2ke.RandomWarpingSeries(8, random_state=0).fit(X)
    hinted = eval(str(error.value).rsplit("as a list: ", 1)[1], {"np": np, "X": X})
    assert [len(x) for x in hinted] == [12, 20, 7, 15]
    rws = pyd2ke.RandomWarpingSeries(8, random_state=0)
    np.testing.assert_array_equal(rws.fit_transform(hinted), clone(rws).fit_transform(series))
    # A missing value inside a series, or infinities to the end, are not padding.
    X_inner = np.ones((2, 6))
    X_inner[0, 2] = np.nan
    X_inf = np.ones((2, 6))
    X_inf[0, 4:] = np.inf
    for bad in (X_inner, X_inf):
        with pytest.raises(ValueError, match="missing or infinite") as error:
            pyd2ke.RandomWarpingSeries(8).fit(bad)
        assert "tslearn" not in str(error.value)


def _labelled_pairs(n, names, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        m = int(rng.integers(3, 9))
        A = np.triu((rng.random((m, m)) < 0.4).astype(float), 1)
        out.append((A + A.T, [names[int(k)] for k in rng.integers(0, len(names), m)]))
    return out


def test_categorical_node_labels_are_mapped_at_fit():
    X = _labelled_pairs(20, ["C", "N", "O"])
    rge = pyd2ke.RandomGraphEmbedding(16, random_state=0).fit(X)
    assert rge.node_label_vocabulary_ == ["C", "N", "O"]
    assert rge.input_flavour_[0] == "labels"
    # The same graphs with the labels coded as integers give the same features.
    codes = {"C": 0, "N": 1, "O": 2}
    coded = [(A, np.array([codes[v] for v in labels])) for A, labels in X]
    integer = pyd2ke.RandomGraphEmbedding(16, random_state=0).fit(coded)
    assert integer.node_label_vocabulary_ is None
    np.testing.assert_array_equal(rge.transform(X), integer.transform(coded))
    # A label the fit data did not have goes to a bucket of its own.
    unseen = [(A, ["S" if v == "O" else v for v in labels]) for A, labels in X[:5]]
    assert np.isfinite(rge.transform(unseen)).all()
    assert not np.allclose(rge.transform(unseen), rge.transform(X[:5]))
    with pytest.raises(ValueError, match="categorical"):
        integer.transform(X)
    with pytest.raises(ValueError, match="categorical"):
        rge.transform(coded)


def test_networkx_string_labels_are_read():
    nx = pytest.importorskip("networkx", reason="networkx graphs need the graphs extra (in the test extra)")
    X = _labelled_pairs(12, ["C", "N", "O"], seed=1)
    graphs = []
    for A, labels in X:
        G = nx.from_numpy_array(A)
        nx.set_node_attributes(G, dict(enumerate(labels)), "label")
        graphs.append(G)
    rge = pyd2ke.RandomGraphEmbedding(8, random_state=0).fit(graphs)
    assert rge.node_label_vocabulary_ == ["C", "N", "O"] and rge.input_flavour_[0] == "labels"
    pairs = pyd2ke.RandomGraphEmbedding(8, random_state=0).fit(X)
    np.testing.assert_allclose(rge.transform(graphs), pairs.transform(X), rtol=1e-12, atol=1e-12)
    del graphs[0].nodes[0]["label"]
    with pytest.raises(ValueError, match=r"X\[0\] node 0 has no 'label'"):
        pyd2ke.RandomGraphEmbedding(8, random_state=0).fit(graphs)


@pytest.mark.parametrize("estimator", [pyd2ke.HashedRandomFourier(random_state=0),
                                       pyd2ke.RandomMaclaurin(16, random_state=0)])
@pytest.mark.parametrize("form", ["dense", "sparse", "frame"])
def test_missing_values_in_vectors_name_the_row(estimator, form):
    import scipy.sparse as sp

    X = np.random.default_rng(0).normal(size=(10, 5))
    good = X.copy()
    X[3, 2] = np.nan
    wrap = {"dense": np.asarray, "sparse": sp.csr_matrix, "frame": pd.DataFrame}[form]
    with pytest.raises(ValueError, match=r"X\[3\] has a missing \(NaN\)"):
        clone(estimator).fit(wrap(X))
    fitted = clone(estimator).fit(wrap(good))
    with pytest.raises(ValueError, match=r"X\[3\] has a missing \(NaN\)"):
        fitted.transform(wrap(X))
