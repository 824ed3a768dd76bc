"""pairwise_distances(X) of a symmetric metric computes each pair once and
mirrors it: the same bits as the full matrix pairwise_distances(X, Y) with
Y a copy of X, for every metric flagged symmetric, at sizes around the
column blocks."""

import numpy as np
import pytest

from pyd2ke._domains import METRICS
from pyd2ke.distances import pairwise_distances
from pyd2ke.reports.data import random_strings


def _objects(metric, n, rng):
    if metric in ("levenshtein", "esp"):
        lengths = rng.integers(0, 150, n)
        return ["".join(rng.choice(list("ACGT"), m)) for m in lengths]
    if metric == "dtw":
        return [rng.normal(size=(int(m), 2)) for m in rng.integers(1, 40, n)]
    return [rng.normal(size=(int(m), 3)) for m in rng.integers(1, 20, n)]  # sets


SYMMETRIC = sorted(name for name, domain in METRICS.items() if domain.metrics[name].symmetric)


def test_the_symmetric_metrics_are_the_bit_symmetric_ones():
    assert SYMMETRIC == ["dtw", "esp", "hausdorff", "levenshtein"]


@pytest.mark.parametrize("metric", SYMMETRIC)
@pytest.mark.parametrize("n", [127, 128, 129, 300])
def test_symmetric_path_is_the_full_matrix(metric, n):
    rng = np.random.default_rng(n)
    X = _objects(metric, n, rng)
    for params in ({}, {"dtype": np.float32}) + (({"window": 3},) if metric == "dtw" else ()):
        full = pairwise_distances(X, list(X), metric=metric, **params)
        np.testing.assert_array_equal(pairwise_distances(X, metric=metric, **params), full)
        np.testing.assert_array_equal(pairwise_distances(X, metric=metric, n_jobs=1, **params), full)


def test_an_overflow_is_named_in_the_symmetric_path():
    X = [np.full((3, 1), 1.7e308 * s) for s in np.linspace(-1, 1, 200)]
    with pytest.raises(ValueError, match=r"X\[\d+\]"):
        pairwise_distances(X, metric="dtw")


def test_strings_on_the_symmetric_path_with_a_pandas_series():
    pd = pytest.importorskip("pandas")
    X = random_strings(200, 30)
    np.testing.assert_array_equal(pairwise_distances(pd.Series(X)), pairwise_distances(X, list(X)))
