"""DTW: the pairwise path and every SIMD lane kernel against the reference DP."""

import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyd2ke import _core
from pyd2ke.distances import pairwise_distances
from reference import dtw, dtw_matrix

SIMD_LEVELS = _core.LevenshteinBatch.supported_simd_levels()
WINDOWS = [None, 0, 1, 3]


def series(rng, length, channels, dtype=np.float64):
    return rng.standard_normal((length, channels)).astype(dtype)


@st.composite
def series_pairs(draw, max_length):
    channels = draw(st.integers(1, 25))
    n = draw(st.integers(1, max_length))
    m = draw(st.integers(1, max_length))
    seed = draw(st.integers(0, 2**32 - 1))
    window = draw(st.sampled_from(WINDOWS))
    rng = np.random.default_rng(seed)
    return series(rng, n, channels), series(rng, m, channels), window


@given(series_pairs(max_length=40))
def test_pair_matches_python_reference(case):
    x, y, window = case
    expected = dtw(x, y, window)
    w = -1 if window is None else window
    assert _core.dtw(x, y, w) == pytest.approx(expected, rel=1e-12)
    assert _core.dtw(x, y, w, "reference") == pytest.approx(expected, rel=1e-12)


@given(series_pairs(max_length=300))
def test_long_pairs_match_cpp_reference(case):
    x, y, window = case
    w = -1 if window is None else window
    assert _core.dtw(x, y, w) == pytest.approx(_core.dtw(x, y, w, "reference"), rel=1e-12)


@pytest.mark.parametrize("simd", SIMD_LEVELS)
# float32 sums of O(1) costs round by about 1e-7 of their terms, whatever the
# total: a distance near 0 (a random series close to a piece of the input)
# keeps that absolute error, hence the atol.
@pytest.mark.parametrize("dtype, rtol, atol", [(np.float64, 1e-12, 0.0), (np.float32, 2e-5, 1e-6)])
@pytest.mark.parametrize("window", WINDOWS)
def test_batch_kernels_match_reference(simd, dtype, rtol, atol, window):
    # A seed from the case (crc32, not hash(): str hashes change from run to run).
    rng = np.random.default_rng(zlib.crc32(repr((simd, window)).encode()))
    # Counts that straddle lane groups (4 registers of 2, 4, 8 or 16 lanes).
    for n_random, channels in [(1, 1), (7, 3), (16, 1), (17, 2), (33, 12), (65, 25)]:
        W = [series(rng, rng.integers(1, 13), channels) for _ in range(n_random)]
        X = [series(rng, n, channels) for n in (1, 2, 9, 40)]
        values = np.concatenate(W).astype(dtype)
        offsets = np.r_[0, np.cumsum([len(w) for w in W])].astype(np.int64)
        cls = _core.DtwBatch32 if dtype == np.float32 else _core.DtwBatch64
        batch = cls(values, offsets, -1 if window is None else window, simd)
        xv = np.concatenate(X).astype(dtype)
        xo = np.r_[0, np.cumsum([len(x) for x in X])].astype(np.int64)
        out = np.empty((len(X), n_random))
        batch.distances_into(xv, xo, out, 2)
        np.testing.assert_allclose(out, dtw_matrix(X, W, window), rtol=rtol, atol=atol)


@pytest.mark.filterwarnings("ignore::pyd2ke.SeriesLayoutWarning")  # drawn shapes may be wide
@given(series_pairs(max_length=60))
def test_pairwise_distances_matches_reference(case):
    x, y, window = case
    D = pairwise_distances([x, y], [y, x[:1], x], metric="dtw", window=window)
    expected = dtw_matrix([x, y], [y, x[:1], x], window)
    np.testing.assert_allclose(D, expected, rtol=1e-12)


def test_univariate_and_known_values():
    # (length,) and (length, 1) are the same series.
    assert pairwise_distances([[0.0, 1.0, 2.0]], [[0.0, 2.0]], metric="dtw")[0, 0] == 1.0
    a, b = np.array([[0.0, 0.0], [3.0, 4.0]]), np.array([[0.0, 0.0]])
    assert pairwise_distances([a], [b], metric="dtw")[0, 0] == 5.0
    assert pairwise_distances([a], metric="dtw")[0, 0] == 0.0


def test_window_restricts_warping():
    x = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    y = np.array([0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    free = pairwise_distances([x], [y], metric="dtw")[0, 0]
    banded = pairwise_distances([x], [y], metric="dtw", window=0)[0, 0]
    assert free == 0.0 and banded == 2.0


def test_matches_dtaidistance_where_definitions_agree():
    """dtaidistance sums squared costs along the path and takes the root at
    the end; for single-step series both definitions give ||x - y||."""
    dtw_ndim = pytest.importorskip("dtaidistance.dtw_ndim")
    rng = np.random.default_rng(5)
    for channels in (1, 3, 25):
        x, y = series(rng, 1, channels), series(rng, 1, channels)
        ours = pairwise_distances([x], [y], metric="dtw")[0, 0]
        assert ours == pytest.approx(dtw_ndim.distance(x, y), rel=1e-12)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_float32_arithmetic(n_jobs):
    rng = np.random.default_rng(6)
    X = [series(rng, rng.integers(1, 50), 4) for _ in range(20)]
    D64 = pairwise_distances(X, metric="dtw", n_jobs=n_jobs)
    D32 = pairwise_distances(X, metric="dtw", n_jobs=n_jobs, dtype=np.float32)
    assert D32.dtype == np.float32
    np.testing.assert_allclose(D32, D64, rtol=1e-5, atol=1e-5)
