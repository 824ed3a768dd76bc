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


@pytest.mark.parametrize("make", [pyd2ke.make_sfmedm, pyd2ke.make_sfmcgk])
def test_sfm_pipelines_keep_the_row_labels(make):
    """Their first step hands on sparse rows or sketches, without an index:
    under pandas output the rows were numbered 0..n-1, and a join with the
    input's other columns misaligned every row."""
    frame = pd.DataFrame({"seq": ["ACGT", "ACGA", "TTGA", "GGCA"], "y": [0, 0, 1, 1]}, index=[10, 11, 12, 13])
    pipeline = make(n_components=4, random_state=0).set_output(transform="pandas")
    Z = pipeline.fit_transform(frame["seq"])
    assert list(Z.index) == [10, 11, 12, 13] and pd.concat([frame, Z], axis=1).shape == (4, 6)
    assert list(clone(pipeline).fit(frame[["seq"]]).transform(frame[["seq"]].iloc[2:]).index) == [12, 13]
    assert isinstance(make(n_components=4, random_state=0).fit_transform(list(frame["seq"])), np.ndarray)


def test_esp_refuses_the_other_string_kind_after_fit():
    """str and bytes parse differently beyond ASCII: 'café' and its UTF-8
    bytes had different ESP features, without a word."""
    fitted = pyd2ke.ESPVectorizer().fit(["café crème", "naïve"])
    with pytest.raises(TypeError, match="X holds bytes, but the fit data held str"):
        fitted.transform(["café".encode()])
    with pytest.raises(TypeError, match="X holds bytes, but the fit data held str"):
        pyd2ke.make_sfmedm(random_state=0).fit(["café crème", "naïve", "abc"]).transform([b"abc"])
    assert pyd2ke.ESPVectorizer().transform([b"abc"]).shape[0] == 1  # unfitted: stateless, either kind


@pytest.mark.parametrize("X, kind", [({"b": 1, "a": 2}, "dict"), ({"abc", "x"}, "set"), (frozenset({"x"}), "frozenset")])
def test_unordered_containers_are_refused(X, kind):
    """A dict iterates over its keys, a set in an order that changes from run to run."""
    with pytest.raises(TypeError, match=rf"X must be a sequence of str or bytes .*got a {kind}"):
        pairwise_distances(X, ["x"])
    with pytest.raises(TypeError, match=f"got a {kind}"):
        pyd2ke.RandomStringEmbedding(4).fit(X)


@pytest.mark.parametrize("make", [pyd2ke.RandomWarpingSeries, pyd2ke.RandomSetEmbedding])
def test_float32_overflow_names_float32(make):
    """The distances are computed in float32 and stored in float64: the
    error said float64 could not hold data that float64 fits without one."""
    X = [1e20 * np.random.default_rng(i).standard_normal((10, 2)) for i in range(20)]
    with pytest.raises(ValueError, match=r"too large for float32 arithmetic.*dtype=np\.float64"):
        make(8, random_state=0, dtype=np.float32).fit(X)
    assert np.isfinite(make(8, random_state=0).fit_transform(X)).all()


def test_a_collapsed_mean_embedding_names_base_bandwidth():
    X = [np.random.default_rng(i).normal(i % 3, size=(30, 2)) for i in range(12)]
    with pytest.raises(ValueError, match=r"base_bandwidth=1e\+300 is far wider .* pass a smaller base_bandwidth"):
        pyd2ke.MeanEmbeddingFeatures(base_bandwidth=1e300, random_state=0).fit(X)


def test_series_given_to_the_default_string_metric_are_told_of_dtw():
    with pytest.raises(TypeError, match=r"X\[0\] is ndarray, expected str or bytes; metric='levenshtein' \(the "
                                        r"default\) compares strings.*metric='dtw'"):
        pairwise_distances([np.ones(3), np.zeros(4)])
    # A tslearn user's trial: arrays, and the two estimators whose metric defaults to levenshtein, said only
    # "X must be one-dimensional".
    series = np.zeros((5, 20, 1))
    hint = r"metric='levenshtein' \(the default\) compares strings.*metric='dtw'"
    for call in (lambda: pairwise_distances(series), lambda: pyd2ke.RepresentativeSetEmbedding(4).fit(series),
                 lambda: pyd2ke.D2KE(n_components=4).fit(series[..., 0]),
                 lambda: pyd2ke.D2KE(n_components=4).fit(list(series))):
        with pytest.raises((TypeError, ValueError), match=hint):
            call()
    with pytest.raises(ValueError, match=r"must be one-dimensional .* got an array of shape \(5, 20, 1\)$"):
        pyd2ke.RandomStringEmbedding(4).fit(series)  # strings are all it takes: no metric to name
    with pytest.raises(TypeError, match=r"for a distance function, D2KE\(metric=function, sampler='representative'\)"):
        pyd2ke.RepresentativeSetEmbedding(metric=lambda a, b: 0.0).fit(["ab", "cd"])


def test_a_long_format_panel_is_named():
    index = pd.MultiIndex.from_product([range(4), range(10)], names=["instance", "time"])
    panel = pd.DataFrame({"var_0": np.random.default_rng(0).normal(size=40)}, index=index)
    with pytest.raises(ValueError, match=r"X\[0\] \(index label \(0, 0\)\) is a single number, not a series: "
                                         r"X looks like a long-format "
                                         r"panel.*groupby\(level=0\)"):
        pyd2ke.RandomWarpingSeries(8).fit(panel)
    hinted = [g.to_numpy() for _, g in panel.groupby(level=0)]
    assert pyd2ke.RandomWarpingSeries(8, random_state=0).fit_transform(hinted).shape == (4, 8)
    with pytest.raises(ValueError, match=r"if X is one series, pass \[X\]"):
        pyd2ke.RandomWarpingSeries(8).fit(pd.Series(np.arange(5.0)))


def test_missing_value_messages_name_numpy_nans_and_plain_labels():
    with pytest.raises(ValueError, match=r"X\[1\] is missing \(np.float32\(nan\)\)|X\[1\] is missing \(nan\)"):
        pairwise_distances(["a", np.float32("nan")])
    with pytest.raises(ValueError, match=r"X\[1\] \(index label 20\) is missing"):
        pairwise_distances(pd.Series(["a", None], index=[10, 20]))


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


def test_short_series_in_tslearn_layout_are_read_once_the_channels_are_known():
    """A tslearn user's trial: (n, 3 steps, 4 channels) was refused as aeon's
    layout even at transform, where the fitted 4 channels settle it."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10, 3, 4))
    with pytest.warns(SeriesLayoutWarning):
        fitted = pyd2ke.RandomWarpingSeries(8, random_state=0).fit(list(X))
    np.testing.assert_array_equal(fitted.transform(X), fitted.transform(list(X)))
    np.testing.assert_array_equal(pairwise_distances(list(X), X, metric="dtw"),
                                  pairwise_distances(list(X), list(X), metric="dtw"))
    with pytest.raises(ValueError, match="transpose"):  # aeon's layout of the same series: still refused
        fitted.transform(rng.normal(size=(10, 4, 7)))


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
    with pytest.raises(ValueError, match=r"X\[0\].*NaN from step 12 on, the last 8 of its 20 steps: .*tslearn") as error:
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


def test_fit_transform_reads_a_generator_once():
    """fit used it up, and transform then said "X is empty"."""
    series = [np.arange(3.0), np.ones(4), np.zeros(5)]
    rws = pyd2ke.RandomWarpingSeries(4, random_state=0)
    np.testing.assert_array_equal(rws.fit_transform(s for s in series), clone(rws).fit_transform(series))


def test_a_one_column_table_keeps_its_column_name():
    """scikit-learn's feature-name check: fitted on the column 'seq', a
    DataFrame of the column 'other' was embedded without a word."""
    rse = pyd2ke.RandomStringEmbedding(4, random_state=0).fit(pd.DataFrame({"seq": ["ACGT", "TTGA", "GGCA"]}))
    assert list(rse.feature_names_in_) == ["seq"]
    with pytest.raises(ValueError, match="X has the column 'other', but RandomStringEmbedding was fitted on the "
                                         "column 'seq'"):
        rse.transform(pd.DataFrame({"other": ["ACGT"]}))
    same = rse.transform(["ACGT"])
    np.testing.assert_array_equal(rse.transform(pd.DataFrame({"seq": ["ACGT"]})), same)
    np.testing.assert_array_equal(rse.transform(pd.Series(["ACGT"], name="other")), same)  # a Series: no check
    assert not hasattr(rse.fit(["ACGT", "TTGA"]), "feature_names_in_")  # a refit on a list forgets it
    series = pd.DataFrame({"s": [np.arange(5.0), np.ones(6)]})
    with pytest.raises(ValueError, match="fitted on the column 's'"):
        pyd2ke.RandomWarpingSeries(4, random_state=0).fit(series).transform(series.rename(columns={"s": "t"}))


def test_a_wrong_type_in_a_pandas_series_names_its_label():
    with pytest.raises(TypeError, match=r"X\[1\] \(index label 'y'\) is int, expected str or bytes"):
        pyd2ke.RandomStringEmbedding(8, random_state=0).fit(pd.Series(["abc", 3, "abd"], index=["x", "y", "z"]))
    with pytest.raises(TypeError, match=r"X\[1\] \(index label 20\) is str, expected a numeric array"):
        pyd2ke.RandomWarpingSeries(8).fit(pd.Series([np.arange(5.0), "oops", np.arange(4.0)], index=[10, 20, 30]))
    with pytest.raises(TypeError, match=r"Y\[1\] \(index label 'q'\) is int"):
        pairwise_distances(["a", "b"], pd.Series(["a", 5], index=["p", "q"]))
    # A default index adds nothing to the position.
    with pytest.raises(TypeError, match=r"X\[1\] is int, expected str or bytes"):
        pyd2ke.RandomStringEmbedding(8, random_state=0).fit(pd.Series(["abc", 3, "abd"]))


def test_a_label_names_the_row_of_the_whole_input_under_chunking():
    fitted = pyd2ke.RandomStringEmbedding(8, random_state=0).fit(["ab", "cd"])
    X = pd.Series(["ab"] * 10 + [None], index=[f"r{i}" for i in range(11)])
    with pyd2ke.chunking(max_items=3), pytest.raises(ValueError, match=r"X\[10\] \(index label 'r10'\) is missing"):
        fitted.transform(X)


@pytest.mark.parametrize("nullable", ["Float64", "Int64"])
def test_nullable_pandas_columns_are_series_of_numbers(nullable):
    frames = [pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [5, 3, 2, 2, 1]}), pd.DataFrame({"a": [2, 2, 1], "b": [0, 1, 0]})]
    expected = pyd2ke.RandomWarpingSeries(8, random_state=0).fit_transform([f.astype("float64") for f in frames])
    Z = pyd2ke.RandomWarpingSeries(8, random_state=0).fit_transform([f.astype(nullable) for f in frames])
    np.testing.assert_array_equal(Z, expected)
    with_na = frames[0].astype(nullable)
    with_na.iloc[2, 1] = pd.NA
    with pytest.raises(ValueError, match=r"X\[0\] contains NaN or infinity \(at step 2\)"):
        pyd2ke.RandomWarpingSeries(8, random_state=0).fit([with_na, frames[1]])


@pytest.mark.parametrize("estimator, row", [(pyd2ke.DensityKernelFeatures(), "point"),
                                            (pyd2ke.RandomSetEmbedding(8), "point"),
                                            (pyd2ke.RandomWarpingSeries(8), "time step")])
def test_a_long_table_is_told_how_to_group_its_rows(estimator, row):
    long = pd.DataFrame(np.random.default_rng(0).normal(size=(40, 2)), columns=["a", "b"])
    long["key"] = np.repeat(np.arange(4), 10)
    with pytest.raises(ValueError, match=rf"if each row is one {row}, group the rows into objects: "
                                         r"\[g\[value_columns\]\.to_numpy\(\) for _, g in X\.groupby\(key_column\)\]"):
        estimator.fit(long)


def test_a_bag_of_words_table_is_read_by_its_column_names():
    words = ["cat", "dog", "car", "bus"]
    E = pd.DataFrame(np.random.default_rng(0).normal(size=(4, 3)), index=words)
    bow = pd.DataFrame([[1, 1, 0, 0], [0, 0, 2, 1], [1, 0, 0, 1]], columns=words)
    shuffled = bow[["bus", "car", "dog", "cat"]]
    with pytest.raises(ValueError, match=r"X's columns are not the words of embeddings' rows in the same order"):
        pyd2ke.WordMoversEmbedding(4, embeddings=E, random_state=0).fit(shuffled)
    fitted = pyd2ke.WordMoversEmbedding(4, embeddings=E.to_numpy(), random_state=0).fit(bow)
    with pytest.raises(ValueError, match=r"X has other columns than the bag-of-words table fit saw \('cat', 'dog', "):
        fitted.transform(shuffled)
    np.testing.assert_array_equal(fitted.transform(bow), fitted.transform(bow.to_numpy()))
    assert fitted.transform(bow.to_numpy() > 0).shape == (3, 4)  # a boolean matrix is counts of 0 and 1
    with pytest.raises(ValueError, match="weighting='tfidf' was set after a fit without it: fit again"):
        fitted.set_params(weighting="tfidf").transform(bow)


def test_a_2d_array_of_short_rows_given_as_sets_warns():
    X = np.random.default_rng(0).normal(size=(50, 4))
    for estimator in (pyd2ke.RandomSetEmbedding(6, random_state=0), pyd2ke.DensityKernelFeatures(random_state=0)):
        with pytest.warns(pyd2ke.SetLayoutWarning, match=r"each of its 50 rows is read as a set of 4 one-dimensional "
                                                          r"points.*pass \[X\]"):
            estimator.fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pyd2ke.RandomSetEmbedding(6, random_state=0).fit(X[:, :, None])  # sets of 1-D points, said so
        pyd2ke.RandomSetEmbedding(6, random_state=0).fit(np.random.default_rng(0).normal(size=(20, 40)))  # long rows


def test_a_ragged_item_is_named():
    with pytest.raises(ValueError, match=r"X\[1\] is not a rectangular array of numbers"):
        pyd2ke.RandomSetEmbedding(4, random_state=0).fit([np.ones((3, 2)), [[1.0, 2.0], [3.0]]])


def test_fitting_the_standardisation_on_one_object_warns():
    with pytest.warns(UserWarning, match="fit on one object: standardize=True"):
        pyd2ke.RandomStringEmbedding(8, random_state=0).fit(["ACGT"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pyd2ke.RandomStringEmbedding(8, random_state=0, standardize=False).fit(["ACGT"])
        pyd2ke.RandomStringEmbedding(8, random_state=0).fit(["ACGT", "GG"])


def test_a_document_of_two_word_vectors_in_lists_is_refused():
    """Two word vectors in a list pass for a (vectors, weights) pair: four
    one-dimensional words, weighted by the second vector, without a word."""
    rng = np.random.default_rng(0)
    two_vectors = [[rng.uniform(size=4).tolist() for _ in range(2)] for _ in range(5)]
    with pytest.raises(ValueError, match=r"X\[0\] is a pair whose first part is a list of 4 numbers: as \(word "
                                         r"vectors, weights\) that is 4 words of one dimension"):
        pyd2ke.WordMoversEmbedding(4, random_state=0).fit(two_vectors)
    as_arrays = [(np.array(doc), np.ones(2)) for doc in two_vectors]
    assert pyd2ke.WordMoversEmbedding(4, random_state=0).fit_transform(as_arrays).shape == (5, 4)


def _tables(seed, columns):
    rng = np.random.default_rng(seed)
    return [pd.DataFrame(rng.normal(size=(int(rng.integers(3, 9)), 2)), columns=columns) for _ in range(12)]


@pytest.mark.parametrize("estimator", [pyd2ke.RandomSetEmbedding(8, random_state=0),
                                       pyd2ke.DensityKernelFeatures(random_state=0),
                                       pyd2ke.MeanEmbeddingFeatures(random_state=0),
                                       pyd2ke.RandomWarpingSeries(8, random_state=0),
                                       pyd2ke.D2KE("dtw", n_components=8, random_state=0)],
                         ids=lambda e: type(e).__name__)
def test_objects_given_as_tables_are_read_by_their_column_names(estimator):
    tables = _tables(0, ["x", "y"])
    swapped = [t[["y", "x"]] for t in tables]
    fitted = clone(estimator).fit(tables)
    np.testing.assert_array_equal(fitted.transform(tables), fitted.transform([t.to_numpy() for t in tables]))
    with pytest.raises(ValueError, match=r"X's objects are tables with the columns \['y', 'x'\], but the fit "
                                         r"data's had \['x', 'y'\]: tables are read by position"):
        fitted.transform(swapped)
    with pytest.raises(ValueError, match=r"X\[3\] \(index label 'd'\) has the columns \['y', 'x'\], but X\[0\] "
                                         r"has \['x', 'y'\]"):
        clone(estimator).fit(pd.Series(tables[:3] + swapped[3:], index=list("abcdefghijkl")))
    with pytest.raises(ValueError, match=r"X\[2\] has the columns \['a', 'b'\], but X\[0\] has \['x', 'y'\]"):
        fitted.transform(tables[:2] + _tables(1, ["a", "b"]))
    with pytest.raises(ValueError, match=r"X's objects are tables with the columns \['y', 'x'\]"):
        fitted.transform([tables[0].to_numpy()] + swapped[1:])  # a plain array first hides no table
    with pytest.raises(ValueError, match=r"X\[2\] has the columns \['y', 'x'\], but X\[1\] has \['x', 'y'\]"):
        clone(estimator).fit([tables[0].to_numpy(), tables[1], swapped[2]] + tables[3:])
    # Fitted on arrays, tables of any names are read as arrays are.
    assert clone(estimator).fit([t.to_numpy() for t in tables]).transform(swapped).shape[0] == 12


def test_pairwise_distances_read_tables_by_their_column_names():
    tables = _tables(0, ["x", "y"])
    swapped = [t[["y", "x"]] for t in tables]
    expected = pairwise_distances([t.to_numpy() for t in tables], metric="modified_hausdorff")
    np.testing.assert_array_equal(pairwise_distances(tables, tables, metric="modified_hausdorff"), expected)
    with pytest.raises(ValueError, match=r"Y's objects are tables with the columns \['y', 'x'\], but X's have "
                                         r"\['x', 'y'\]"):
        pairwise_distances(tables, swapped, metric="modified_hausdorff")
    with pytest.raises(ValueError, match=r"X\[5\] has the columns \['y', 'x'\], but X\[0\] has \['x', 'y'\]"):
        pairwise_distances(tables[:5] + swapped[5:], metric="dtw")
    with pytest.raises(ValueError, match=r"X\[2\] has the columns \['y', 'x'\], but X\[1\] has \['x', 'y'\]"):
        pairwise_distances([tables[0].to_numpy(), tables[1], swapped[2]], metric="hausdorff")


def test_an_object_array_of_document_pairs_is_read_as_its_pairs():
    rng = np.random.default_rng(0)
    docs = [(rng.normal(size=(n, 5)), np.ones(n)) for n in (3, 4, 2)]
    pairs = np.empty((3, 2), dtype=object)
    for i, (vectors, weights) in enumerate(docs):
        pairs[i, 0], pairs[i, 1] = vectors, weights
    expected = pyd2ke.WordMoversEmbedding(8, random_state=0).fit_transform(docs)
    np.testing.assert_array_equal(pyd2ke.WordMoversEmbedding(8, random_state=0).fit_transform(pairs), expected)


def test_tables_of_mixed_numeric_columns_are_numbers_and_other_columns_are_named():
    sets = [pd.DataFrame({"amount": [1.0, 2.5, 3.0], "weekend": [True, False, True], "n": [1, 2, 3]}),
            pd.DataFrame({"amount": [1.0, 2.0], "weekend": [False, True], "n": [4, 5]})]
    expected = pyd2ke.RandomSetEmbedding(8, random_state=0).fit_transform([s.to_numpy(float) for s in sets])
    np.testing.assert_array_equal(pyd2ke.RandomSetEmbedding(8, random_state=0).fit_transform(sets), expected)
    labelled = [s.assign(day=["mon", "tue", "sun"][:len(s)]) for s in sets]
    with pytest.raises(TypeError, match=r"X\[0\] has the column 'day' of dtype .*, expected numbers in every column"):
        pyd2ke.RandomSetEmbedding(8).fit(labelled)


def test_a_one_column_array_of_strings_is_its_column():
    seqs = np.array(["ACGT", "GGTA", "TTAC", "ACGA"], dtype=object)
    expected = pyd2ke.RandomStringEmbedding(4, random_state=0).fit_transform(seqs)
    np.testing.assert_array_equal(pyd2ke.RandomStringEmbedding(4, random_state=0).fit_transform(seqs[:, None]), expected)
    ct = ColumnTransformer([("rse", pyd2ke.RandomStringEmbedding(4, random_state=0), [0])])
    np.testing.assert_array_equal(ct.fit_transform(seqs[:, None]), expected)
    with pytest.raises(ValueError, match=r"X must be one-dimensional \(or one column\), got an array of shape \(2, 2\)"):
        pyd2ke.RandomStringEmbedding(4).fit(seqs.reshape(2, 2))


def test_wide_and_nested_series_tables_and_groupbys_get_the_right_advice():
    wide = pd.DataFrame(np.random.default_rng(0).normal(size=(20, 30)))
    with pytest.raises(ValueError, match=r"if each row is one series \(a wide table.*pass X\.to_numpy\(\)"):
        pyd2ke.RandomWarpingSeries(8).fit(wide)
    nested = pd.DataFrame({"dim_0": [pd.Series(np.arange(5.0))] * 3, "dim_1": [pd.Series(np.ones(5))] * 3})
    with pytest.raises(ValueError, match=r"sktime's nested DataFrame \(one cell a series\), use pyd2ke\.sktime"):
        pyd2ke.RandomWarpingSeries(8).fit(nested)
    long = pd.DataFrame({"key": [1, 1, 2, 2], "a": [1.0, 2, 3, 4], "b": [0.5, 1, 2, 3]})
    with pytest.raises(TypeError, match=r"X is a pandas DataFrameGroupBy: pass one object per group, e\.g\. "
                                        r"\[g\[value_columns\]\.to_numpy\(\) for _, g in X\]"):
        pyd2ke.RandomSetEmbedding(8).fit(long.groupby("key")[["a", "b"]])
