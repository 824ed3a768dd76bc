"""Bad input gets a clear ValueError or TypeError naming the argument."""

import numpy as np
import pytest

import pyd2ke
from pyd2ke import RandomStringEmbedding, RepresentativeSetEmbedding
from pyd2ke.distances import pairwise_distances

X = ["ACGT", "ACGGT", "TTA"]


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([], ValueError, "X is empty"),
        ("ACGT", TypeError, "single str"),
        (b"ACGT", TypeError, "single bytes"),
        (["ACGT", 5], TypeError, r"X\[1\] is int"),
        (["ACGT", None], ValueError, r"X\[1\] is missing"),
        (["ACGT", b"ACGT"], TypeError, "mixes str and bytes"),
        ([b"AC", "AC"], TypeError, "mixes str and bytes"),
        ([bytearray(b"AC")], TypeError, r"X\[0\] is bytearray"),
        (np.array([["A", "C"]]), ValueError, "one-dimensional"),
        (42, TypeError, "sequence"),
    ],
)
def test_bad_strings(bad, error, match):
    with pytest.raises(error, match=match):
        RandomStringEmbedding(8, random_state=0).fit(bad)
    with pytest.raises(error, match=match):
        pairwise_distances(bad)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"n_components": 0}, ValueError, "n_components must be >= 1"),
        ({"n_components": -3}, ValueError, "n_components must be >= 1"),
        ({"n_components": 2.5}, TypeError, "n_components must be an integer"),
        ({"gamma": 0.0}, ValueError, "gamma must be positive"),
        ({"gamma": -1.0}, ValueError, "gamma must be positive"),
        ({"gamma": float("nan")}, ValueError, "gamma must be positive"),
        ({"gamma": float("inf")}, ValueError, "gamma must be positive"),
        ({"gamma": "median"}, ValueError, "gamma must be 'auto'"),
        ({"max_length": 0}, ValueError, "max_length must be >= 1"),
        ({"max_length": None}, TypeError, "max_length must be an integer"),
        ({"sampler": "uniform"}, ValueError, "sampler must be one of"),
        ({"kernel": "rbf"}, ValueError, "kernel must be one of"),
        ({"dtype": np.int32}, ValueError, "dtype must be"),
        ({"n_jobs": 0}, ValueError, "n_jobs == 0"),
        ({"n_jobs": 1.5}, TypeError, "n_jobs must be None or an integer"),
    ],
)
def test_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        RandomStringEmbedding(**{"n_components": 8, **params}).fit(X)


def test_rsm_bad_parameters():
    with pytest.raises(ValueError, match="metric must be one of"):
        RepresentativeSetEmbedding(2, metric="hamming").fit(X)
    with pytest.warns(UserWarning, match="larger than the number of fit objects"):
        rsm = RepresentativeSetEmbedding(10, random_state=0).fit(X)
    assert rsm.n_components_ == 3


def test_only_empty_strings():
    for sampler in ("rf", "rfd", "ss", "bss"):
        with pytest.raises(ValueError, match="only empty strings"):
            RandomStringEmbedding(4, sampler=sampler).fit(["", ""])


def test_transform_type_must_match_fit():
    rse = RandomStringEmbedding(4, random_state=0).fit(X)
    with pytest.raises(TypeError, match="str was expected"):
        rse.transform([b"ACGT"])
    with pytest.raises(ValueError, match="X is empty"):
        rse.transform([])


def test_pairwise_bad_arguments():
    with pytest.raises(ValueError, match="metric must be one of"):
        pairwise_distances(X, metric="hamming")
    with pytest.raises(TypeError, match="not compared with each other"):
        pairwise_distances(X, [b"AC"])
    with pytest.raises(ValueError, match="n_jobs == 0"):
        pairwise_distances(X, n_jobs=0)
    with pytest.raises(TypeError, match=r"Y\[0\] is int"):
        pairwise_distances(X, [3])


def test_sparse_objects_are_named():
    # np.asarray of a scipy.sparse matrix is an object scalar: "dtype object" said nothing useful.
    import scipy.sparse as sp

    from pyd2ke import RandomSetEmbedding, RandomWarpingSeries

    items = [sp.csr_matrix(np.random.default_rng(i).normal(size=(5, 3))) for i in range(3)]
    for estimator in (RandomSetEmbedding(4), RandomWarpingSeries(4)):
        with pytest.raises(TypeError, match=r"X\[0\] is a scipy.sparse matrix.*toarray"):
            estimator.fit(items)


@pytest.mark.parametrize("make", [lambda: pyd2ke.RandomMaclaurin(8), lambda: pyd2ke.HashedRandomFourier(n_components=8)])
def test_vector_estimators_name_a_non_numeric_column(make):
    """A trial: a category column gave numpy's "could not convert string to
    float: 'red'", naming neither X nor the column."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"size": [1.0, 2.0, 3.0], "colour": pd.Categorical(["red", "blue", "red"])})
    with pytest.raises(TypeError, match="X has the column 'colour' of dtype category, expected numbers"):
        make().fit(frame)
    fitted = make().fit(frame[["size"]].assign(other=1.0))
    with pytest.raises(TypeError, match="X has the column 'other' of dtype category"):
        fitted.transform(frame.rename(columns={"colour": "other"}))
    with pytest.raises(TypeError, match="X holds strings|turn them into vectors"):
        make().fit(np.array([["1", "a"], ["2", "b"]]))
