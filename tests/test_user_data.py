"""A user's own data, read right or refused clearly (issue 31): a one-column
DataFrame is its column, several columns are refused by name, missing
values are named "missing" with their index, and aeon's
(n_cases, n_channels, n_timepoints) arrays are never read the other way
round."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.compose import ColumnTransformer

import pyd2ke
from cases import ALL_CASES, as_dense
from pyd2ke.datasets import load_statlog_dna

pd = pytest.importorskip("pandas")

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
