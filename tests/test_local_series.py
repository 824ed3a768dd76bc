"""RandomWarpingSeries' local features (pyd2ke/_local_series.py): the core's
subsequence DTW against a slow Python DP, the best-match and occurrence
features against their definitions, and the estimator's local="auto" rule,
threads, chunks, pickling and bad arguments."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyd2ke
from pyd2ke import _core
from pyd2ke._auto import LOCAL_FRACTION, LOCAL_MIN_MEDIAN_LENGTH, series_local_fraction

# Lengths that straddle SIMD widths and words.
LENGTHS = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 128, 300]


def slow_end_costs(x, w, k):
    """Subsequence DTW by its definition: D[i][t] = c(i, t) + min(D[i-1][t],
    D[i][t-k], D[i-1][t-k]), row 0 free to start anywhere; the last row."""
    D = np.full((len(w), len(x)), np.inf)
    for i in range(len(w)):
        for t in range(len(x)):
            cost = float(np.sum((x[t] - w[i]) ** 2))
            if i == 0:
                D[i, t] = cost
                continue
            best = D[i - 1, t]
            if t >= k:
                best = min(best, D[i, t - k], D[i - 1, t - k])
            D[i, t] = cost + best
    return D[-1]


@settings(max_examples=60, deadline=None)
@given(length=st.sampled_from(LENGTHS), shape=st.integers(1, 9), dilation=st.integers(1, 20),
       channels=st.integers(1, 3), dtype=st.sampled_from([np.float64, np.float32]), seed=st.integers(0, 2**16))
def test_end_costs_match_the_definition(length, shape, dilation, channels, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((length, channels)).astype(dtype)
    w = rng.standard_normal((shape, channels)).astype(dtype)
    expected = slow_end_costs(x.astype(np.float64), w.astype(np.float64), dilation)
    got = _core.subsequence_end_costs(x, w, dilation)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, expected, rtol=1e-12 if dtype == np.float64 else 1e-5, atol=1e-9)
    np.testing.assert_allclose(_core.subsequence_end_costs(x, w, dilation, "reference"), expected, rtol=1e-6)


def test_end_costs_known_values():
    # w = [0, 1] against x = [5, 0, 1, 5]: the exact match ends at step 2; at
    # step 1 both of w's steps sit on x[1] = 0 (cost 0 + 1).
    x = np.array([[5.0], [0.0], [1.0], [5.0]])
    w = np.array([[0.0], [1.0]])
    np.testing.assert_array_equal(_core.subsequence_end_costs(x, w, 1), [41.0, 1.0, 0.0, 16.0])
    # With dilation 2, step 2 follows step 0 (5), not step 1: the match
    # [0, 1] is gone and the best at step 2 is both of w's steps on x[2] = 1.
    np.testing.assert_array_equal(_core.subsequence_end_costs(x, w, 2), [41.0, 1.0, 1.0, 16.0])


def test_bad_core_arguments():
    x, w = np.zeros((5, 1)), np.zeros((2, 1))
    with pytest.raises(ValueError, match="dilation"):
        _core.subsequence_end_costs(x, w, 0)
    with pytest.raises(ValueError, match="channels"):
        _core.subsequence_end_costs(x, np.zeros((2, 2)), 1)
    for algorithm in ("auto", "reference"):
        with pytest.raises(ValueError, match="at least one step"):
            _core.subsequence_end_costs(x, np.zeros((0, 1)), 1, algorithm)
        with pytest.raises(ValueError, match="dilation"):
            _core.subsequence_end_costs(x, w, 0, algorithm)


def packed(series, dtype):
    values = np.concatenate(series).astype(dtype)
    offsets = np.concatenate([[0], np.cumsum([len(s) for s in series])]).astype(np.int64)
    return values, offsets


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), n_match=st.integers(0, 5), n_occurrence=st.integers(0, 4),
       kernel=st.sampled_from(["soft", "direct"]), dtype=st.sampled_from([np.float64, np.float32]),
       threads=st.sampled_from([1, 2, 3]))
def test_features_match_their_definition(seed, n_match, n_occurrence, kernel, dtype, threads):
    rng = np.random.default_rng(seed)
    channels = int(rng.integers(1, 3))
    series = [rng.standard_normal((int(rng.choice(LENGTHS)), channels)) for _ in range(int(rng.integers(1, 6)))]
    shapes = [rng.standard_normal((int(rng.integers(1, 10)), channels)) for _ in range(n_match + n_occurrence)]
    dilations = rng.integers(1, 6, size=len(shapes)).astype(np.int64)
    thresholds = rng.uniform(0, 20, size=n_occurrence)
    gamma = 0.1
    values, offsets = packed(series, dtype)
    shape_values, shape_offsets = packed(shapes, dtype) if shapes else (np.zeros((0, channels), dtype),
                                                                      np.zeros(1, np.int64))
    out = np.empty((len(series), len(shapes)), dtype=dtype)
    _core.local_series_features_into(values, offsets, shape_values, shape_offsets, dilations, n_match,
                                     thresholds.astype(dtype), gamma, kernel, 1.0, out, threads)
    for n, x in enumerate(series):
        for j, w in enumerate(shapes):
            costs = slow_end_costs(x.astype(dtype).astype(np.float64), w.astype(dtype).astype(np.float64),
                                   dilations[j])
            if j < n_match:
                expected = np.exp(-gamma * costs.min()) if kernel == "soft" else costs.min()
                np.testing.assert_allclose(out[n, j], expected, rtol=1e-10 if dtype == np.float64 else 1e-4)
            else:
                # Counts at a threshold that a rounding could move are not checked.
                near = np.isclose(costs, thresholds[j - n_match], rtol=1e-4)
                if not near.any():
                    assert out[n, j] == pytest.approx(np.mean(costs < thresholds[j - n_match]))


def long_series(n=12, length=LOCAL_MIN_MEDIAN_LENGTH + 20, seed=0):
    rng = np.random.default_rng(seed)
    return [np.cumsum(rng.standard_normal(length + i)) / 10 for i in range(n)]


def test_auto_rule_follows_the_median_length():
    assert series_local_fraction([LOCAL_MIN_MEDIAN_LENGTH - 1] * 3) == 0.0
    assert series_local_fraction([LOCAL_MIN_MEDIAN_LENGTH] * 3) == LOCAL_FRACTION
    short = [np.sin(np.linspace(0, 6, 50))] * 4
    rws = pyd2ke.RandomWarpingSeries(16, random_state=0).fit(short)
    assert rws.local_ == 0.0 and rws.local_features_ is None and rws.n_components_ == 16
    rws = pyd2ke.RandomWarpingSeries(16, random_state=0).fit(long_series())
    assert rws.local_ == LOCAL_FRACTION
    n_local = round(LOCAL_FRACTION * 16)
    assert rws.local_features_.n_features == n_local and len(rws.random_objects_) == 16 - n_local
    assert rws.local_features_.n_match == n_local - n_local // 5
    assert rws.transform(long_series(3, seed=1)).shape == (3, 16)
    assert len(rws.get_feature_names_out()) == 16


def test_local_zero_gives_the_whole_series_features():
    X = long_series()
    plain = pyd2ke.RandomWarpingSeries(24, local=0.0, random_state=3).fit(X)
    assert plain.local_features_ is None
    assert len(plain.random_objects_) == plain.n_components_ == 24
    mixed = pyd2ke.RandomWarpingSeries(24, local=0.5, random_state=3).fit(X)
    assert len(mixed.random_objects_) == mixed.local_features_.n_features == 12
    # At least one whole-series feature, whatever the share.
    assert len(pyd2ke.RandomWarpingSeries(4, local=0.99, random_state=0).fit(X).random_objects_) == 1


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kernel", ["soft", "direct"])
@pytest.mark.parametrize("standardize", [True, False])
def test_same_rows_for_any_threads_chunks_and_after_pickling(dtype, kernel, standardize):
    X = long_series()
    make = lambda n_jobs: pyd2ke.RandomWarpingSeries(20, kernel=kernel, standardize=standardize, dtype=dtype,
                                                     random_state=1, n_jobs=n_jobs)
    reference = make(1).fit(X)
    Z = reference.transform(X)
    assert Z.dtype == dtype and np.isfinite(Z).all()
    np.testing.assert_array_equal(make(3).fit(X).transform(X), Z)
    with pyd2ke.chunking(max_items=5):
        np.testing.assert_array_equal(reference.transform(X), Z)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(reference)).transform(X), Z)
    if standardize:  # the fit data are the whole sample: each local column is centred on them
        local = Z[:, len(reference.random_objects_):]
        assert np.abs(local.mean(axis=0)).max() < (1e-9 if dtype == np.float64 else 1e-4)


def test_local_features_are_the_block_definition():
    """The last columns are the local features of the derivative-augmented
    series: best matches, then occurrences, standardised with their own
    mean and factor."""
    X = long_series(6)
    rws = pyd2ke.RandomWarpingSeries(16, standardize=False, random_state=2).fit(X)
    local = rws.local_features_
    # Each local feature divided by sqrt(number of local features), as the
    # whole-series ones by sqrt(number of random series).
    Z = rws.transform(X)[:, len(rws.random_objects_):] * np.sqrt(local.n_features)
    from pyd2ke._domains.series import append_derivatives, check_series

    D = append_derivatives(check_series(X))
    for n in range(len(X)):
        x = D.values[D.offsets[n]:D.offsets[n + 1]]
        for j, w in enumerate(local.shapes):
            costs = slow_end_costs(x, w, local.dilations[j])
            if j < local.n_match:
                assert Z[n, j] == pytest.approx(np.exp(-local.gamma * costs.min()), rel=1e-9)
            else:
                assert Z[n, j] == pytest.approx(np.mean(costs < local.thresholds[j - local.n_match]))


@pytest.mark.parametrize("local, error, match", [
    (1.0, ValueError, "local"), (-0.1, ValueError, "local"), ("half", TypeError, "local"),
    (True, TypeError, "local"), (np.nan, ValueError, "local"),
])
def test_bad_local_is_named(local, error, match):
    with pytest.raises(error, match=match):
        pyd2ke.RandomWarpingSeries(8, local=local).fit(long_series(3))


def test_both_blocks_approximate_a_kernel_of_their_own():
    """Raw features: each block's Z Z' diagonal stays O(1) whatever R (the
    1 / sqrt(R) of D2KE), so neither block outweighs the other as R grows."""
    X = long_series(4)
    for R in (16, 256):
        rws = pyd2ke.RandomWarpingSeries(R, standardize=False, random_state=0).fit(X)
        Z = rws.transform(X)
        n_whole = len(rws.random_objects_)
        whole = (Z[:, :n_whole] ** 2).sum(axis=1)
        local = (Z[:, n_whole:] ** 2).sum(axis=1)
        assert np.all(whole <= 1 + 1e-12) and np.all(local <= 1 + 1e-12)


@pytest.mark.parametrize("framework", ["aeon", "sktime"])
def test_adapters_take_local_last_so_old_positional_calls_keep_their_meaning(framework):
    """local (issue 28) came after every older parameter of the aeon and
    sktime adapters: a call that passes random_state by position still
    sets random_state."""
    import importlib
    import inspect

    pytest.importorskip(framework, reason=f"the {framework} extra")
    module = importlib.import_module(f"pyd2ke.{framework}")
    for cls in (module.RandomWarpingSeriesTransformer, module.RandomWarpingSeriesClassifier):
        names = list(inspect.signature(cls.__init__).parameters)
        assert names[-1] == "local" and names.index("random_state") < names.index("local")
    assert module.RandomWarpingSeriesTransformer(16, "auto", True, 0).random_state == 0
