"""scikit-learn behaviour of the time-series transformers, and bad input."""


import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import pyd2ke
from pyd2ke import RandomWarpingSeries, RepresentativeSetEmbedding, znormalize
from pyd2ke._standardize import feature_statistics
from pyd2ke.distances import pairwise_distances
from reference import dtw_matrix

rng = np.random.default_rng(0)
X = [rng.standard_normal((rng.integers(5, 40), 3)) + (i % 2) for i in range(60)]
y = np.arange(60) % 2

ESTIMATORS = [
    RandomWarpingSeries(24, random_state=0),
    RandomWarpingSeries(24, kernel="direct", min_length=3, max_length=20, scale=0.5, random_state=0),
    RandomWarpingSeries(24, window=2, random_state=0),
    RandomWarpingSeries(24, random_state=0, dtype=np.float32),
    RepresentativeSetEmbedding(24, metric="dtw", random_state=0),
    RepresentativeSetEmbedding(24, metric="dtw", metric_params={"window": 1}, random_state=0),
]
IDS = ["rws", "rws-direct", "rws-window", "rws-float32", "rsm-dtw", "rsm-dtw-window"]


@pytest.fixture(params=range(len(ESTIMATORS)), ids=IDS)
def estimator(request):
    return clone(ESTIMATORS[request.param])


def _window(est):
    return est.window if isinstance(est, RandomWarpingSeries) else (est.metric_params or {}).get("window")


def test_features_are_the_d2ke_formula(estimator):
    # The papers' raw features, of the series as given.
    estimator.set_params(standardize=False, **({"derivative": False} if "derivative" in estimator.get_params() else {}))
    Z = estimator.fit_transform(X)
    R = estimator.n_components_
    assert Z.shape == (len(X), R) and Z.flags.c_contiguous and Z.dtype == estimator.dtype
    D = dtw_matrix(X, estimator.random_objects_, _window(estimator))
    expected = np.exp(-estimator.gamma_ * D) if estimator.kernel == "soft" else D
    rtol = 1e-5 if estimator.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(Z, expected / np.sqrt(R), rtol=rtol)


def test_random_series_distribution():
    rws = RandomWarpingSeries(2000, min_length=2, max_length=5, scale=0.5, derivative=False, random_state=1).fit(X)
    lengths = [len(w) for w in rws.random_objects_]
    assert set(lengths) == {2, 3, 4, 5}
    assert all(w.shape[1] == 3 for w in rws.random_objects_)
    values = np.concatenate(rws.random_objects_).ravel()
    assert abs(values.std() - 0.5) < 0.02 and abs(values.mean()) < 0.02




def test_univariate_input_and_arrays():
    U = [rng.standard_normal(n) for n in (5, 9, 30)]
    rws = RandomWarpingSeries(8, derivative=False, random_state=0).fit(U)
    assert rws.random_objects_[0].shape[1] == 1
    np.testing.assert_array_equal(rws.transform(U), rws.transform([u[:, None] for u in U]))
    equal = rng.standard_normal((4, 20, 2))  # (n_series, length, channels)
    np.testing.assert_array_equal(
        RandomWarpingSeries(8, random_state=0).fit_transform(equal),
        RandomWarpingSeries(8, random_state=0).fit_transform(list(equal)),
    )


def test_pipeline_and_grid_search():
    pipe = make_pipeline(RandomWarpingSeries(32, random_state=0), StandardScaler(), LinearSVC())
    search = GridSearchCV(pipe, {"randomwarpingseries__max_length": [3, 8], "linearsvc__C": [0.1, 1.0]}, cv=3)
    search.fit(X, y)
    assert search.best_score_ > 0.8


def test_znormalize():
    Z = znormalize([np.array([1.0, 2.0, 3.0]), np.array([5.0, 5.0])])
    np.testing.assert_allclose(Z[0], [-1.2247448714, 0.0, 1.2247448714])
    np.testing.assert_allclose(Z[1], [0.0, 0.0])  # constant: only centred
    assert Z[0].ndim == 1
    Z = znormalize(s for s in [np.array([[1.0, 5.0], [3.0, 5.0]])])  # any iterable
    np.testing.assert_allclose(Z[0], [[-1.0, 0.0], [1.0, 0.0]])


def test_znormalize_refuses_series_of_one_step():
    # A list of aeon's univariate (1, n_timepoints) cases: every value became 0.
    with pytest.raises(ValueError, match=r"single step \(X\[0\]: 1 step of 24 channels\).*\[x.T for x in X\]"):
        znormalize([np.arange(24.0)[None, :], np.ones((1, 24))])


def test_znormalize_only_centres_near_flat_channels():
    """A channel whose std is at most eps keeps its units: centred, not
    blown up to unit size (rounding noise near 0 stayed noise-sized)."""
    Z = znormalize([np.array([0.0, 1e-12, -1e-12, 0.0]), np.array([0.0, 1e-9]), np.array([5.0, 5 + 1e-9, 5.0])])
    np.testing.assert_allclose(Z[0], [0.0, 1e-12, -1e-12, 0.0], rtol=1e-12, atol=0)
    np.testing.assert_allclose(Z[1], [-5e-10, 5e-10], rtol=1e-6)
    np.testing.assert_allclose(Z[2], [-1e-9 / 3, 2e-9 / 3, -1e-9 / 3], rtol=1e-6)
    Z = znormalize([np.array([[1e300, 2.0], [1e300, 4.0]])])
    np.testing.assert_allclose(Z[0], [[0.0, -1.0], [0.0, 1.0]])  # one flat channel, one not
    assert np.isfinite(znormalize([np.array([1.7e308, 1.7e308, -1.7e308])])[0]).all()


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([], ValueError, "X is empty"),
        ([np.array([1.0, np.nan, 2.0])], ValueError, r"X\[0\] contains NaN or infinity"),
        ([np.ones(3), np.array([1.0, np.inf])], ValueError, r"X\[1\] contains NaN or infinity"),
        ([np.ones(3), np.ones(0)], ValueError, r"X\[1\] is empty"),
        ([np.ones((3, 2)), np.ones((3, 4))], ValueError, r"X\[1\] has 4 channels, but X\[0\] has 2"),
        ([np.ones((3, 2, 2))], ValueError, r"X\[0\] has 3 dimensions"),
        (np.ones((2, 3, 4, 5)), ValueError, "array of shape"),
        ([np.array(["a", "b"])], TypeError, r"X\[0\] has dtype <U1"),
        ([np.ones(3), "abc"], TypeError, r"X\[1\] is str"),
        ([np.ones(3), [1.0, None]], TypeError, r"X\[1\] has dtype object"),
        ([np.ones(3, dtype=complex)], TypeError, r"X\[0\] is complex"),
        ("abc", TypeError, "sequence of time series"),
    ],
)
def test_bad_series(bad, error, match):
    with pytest.raises(error, match=match):
        RandomWarpingSeries(4, random_state=0).fit(bad)
    with pytest.raises(error, match=match):
        pairwise_distances(bad, metric="dtw")


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"window": -1}, ValueError, "window must be >= 0"),
        ({"window": 1.5}, TypeError, "window must be None or a non-negative integer"),
        ({"min_length": 0}, ValueError, "min_length must be >= 1"),
        ({"min_length": 5, "max_length": 3}, ValueError, "min_length .5. must be <= max_length .3."),
        ({"scale": 0}, ValueError, "scale must be positive"),
        ({"scale": "big"}, TypeError, "scale must be a positive number"),
        ({"gamma": -2.0}, ValueError, "gamma must be positive"),
        ({"n_components": 0}, ValueError, "n_components must be >= 1"),
        ({"derivative": 1}, TypeError, "derivative must be True or False"),
        ({"derivative": "yes"}, TypeError, "derivative must be True or False"),
    ],
)
def test_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        RandomWarpingSeries(**{"n_components": 4, **params}).fit(X)


def test_channels_must_match_fit():
    rws = RandomWarpingSeries(4, random_state=0).fit(X)
    with pytest.raises(ValueError, match="X has series of 2 channels, but 3 were expected"):
        rws.transform([np.ones((5, 2))])
    with pytest.raises(ValueError, match="window must be >= 0"):
        pairwise_distances(X, metric="dtw", window=-3)
    with pytest.raises(ValueError, match="does not take"):
        pairwise_distances(["ab"], metric="levenshtein", window=2)
    with pytest.raises(ValueError, match="does not take"):
        RepresentativeSetEmbedding(2, metric="dtw", metric_params={"radius": 1}).fit(X)


def test_fortran_order_series_are_accepted():
    # Multivariate series given as transposes of (channels, length) arrays (as
    # aeon stores them) are Fortran-ordered; they once reached the compiled
    # batch as a Fortran-order block and failed with a TypeError.
    transposed = [np.asfortranarray(s) for s in X]
    assert not transposed[0].flags.c_contiguous
    est = RandomWarpingSeries(16, random_state=0)
    np.testing.assert_array_equal(est.fit_transform(transposed), clone(est).fit_transform(X))
    np.testing.assert_array_equal(pairwise_distances(transposed[:5], transposed[5:9], metric="dtw"),
                                  pairwise_distances(X[:5], X[5:9], metric="dtw"))


def _with_derivatives(series):
    """Slow reference: np.gradient of each channel over its root mean square."""
    out = []
    for s in series:
        s = np.asarray(s, dtype=float).reshape(len(s), -1)
        g = np.gradient(s / 4, axis=0) if len(s) > 1 else np.zeros_like(s)  # / 4: no overflow at 1e308
        rms = np.sqrt(np.mean(g**2, axis=0))
        out.append(np.hstack([s, g / np.where(rms > 0, rms, 1.0)]))
    return out


def test_append_derivatives_matches_the_reference():
    from pyd2ke._domains.series import append_derivatives, check_series

    odd = [np.ones((1, 3)), np.arange(6.0).reshape(2, 3), np.full((4, 3), 7.0), np.array([[1e308, -1e308, 0.0]] * 3)]
    series = X + odd
    packed = append_derivatives(check_series(series))
    assert packed.dim == 6 and np.array_equal(packed.offsets, check_series(series).offsets)
    for got, expected in zip(packed.to_list(), _with_derivatives(series)):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    # A slice (offsets not starting at 0) gives the same rows.
    part = append_derivatives(check_series(series)[5:9])
    for got, expected in zip(part.to_list(), _with_derivatives(series[5:9])):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert append_derivatives(check_series(X, dtype=np.float32)).values.dtype == np.float32


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_derivative_channels(dtype):
    rws = RandomWarpingSeries(24, derivative=True, standardize=False, random_state=0, dtype=dtype).fit(X)
    assert rws.input_flavour_ == 3 and all(w.shape[1] == 6 for w in rws.random_objects_)
    Z = rws.transform(X)
    # The D2KE formula on the inputs with their derivative channels.
    D = dtw_matrix(_with_derivatives(X), rws.random_objects_, None)
    np.testing.assert_allclose(Z, np.exp(-rws.gamma_ * D) / np.sqrt(24), rtol=1e-5 if dtype == np.float32 else 1e-12)
    # The same random values as without derivatives, drawn with twice the channels.
    plain = RandomWarpingSeries(24, derivative=False, standardize=False, random_state=0).fit([np.hstack([s, s]) for s in X])
    for a, b in zip(rws.random_objects_, plain.random_objects_):
        np.testing.assert_array_equal(a, b)
    # Same bits whatever n_jobs and chunking; pickling keeps them.
    one = clone(rws).set_params(n_jobs=1).fit(X)
    np.testing.assert_array_equal(one.transform(X), Z)
    np.testing.assert_array_equal(np.vstack([rws.transform(X[:7]), rws.transform(X[7:])]), Z)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(rws)).transform(X), Z)
    # The fitted random series decide, not a later set_params.
    np.testing.assert_array_equal(rws.set_params(derivative=False).transform(X), Z)
    with pytest.raises(ValueError, match="X has series of 2 channels, but 3 were expected"):
        rws.transform([np.ones((5, 2))])


def test_derivative_separates_what_values_alone_do_not():
    # The same values in rising or falling order: a length-1 random series
    # (a constant) sees no difference without the derivative channel.
    t = np.linspace(0, 1, 40)
    up, down = znormalize([t, t[::-1]])
    Z = RandomWarpingSeries(8, min_length=1, max_length=1, derivative=False, standardize=False,
                            random_state=0).fit_transform([up, down])
    np.testing.assert_allclose(Z[0], Z[1], rtol=1e-12)
    Z = RandomWarpingSeries(8, min_length=1, max_length=1, derivative=True, random_state=0).fit_transform([up, down])
    assert np.abs(Z[0] - Z[1]).max() > 1e-3


def _waves(n, offset=0.0, seed=0):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 6, 60)
    return [np.sin(t * rng.uniform(0.5, 2)) + 0.1 * rng.normal(size=60) + offset for _ in range(n)]


def test_series_far_from_the_random_series_are_warned_about_and_still_standardised():
    with pytest.warns(UserWarning, match=r"the values of X have root mean square 100, over 5 times the scale of the "
                                         r"random series.*pyd2ke\.timeseries\.znormalize"):
        rws = pyd2ke.RandomWarpingSeries(32, random_state=0).fit(_waves(30, offset=100.0))
    # Their features' spread is 1e-7 of their size: real in float64, so it is divided out (it was
    # taken for rounding, scale 1.0 left the features all but constant and models at chance).
    assert rws.feature_scale_ < 1e-3
    assert 0.3 < rws.transform(_waves(30, offset=100.0, seed=1)).std() < 3.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # values near the random series' scale: no warning
        pyd2ke.RandomWarpingSeries(32, random_state=0).fit(_waves(30, offset=2.0))


def test_fit_objects_without_spread_are_warned_about():
    with pytest.warns(UserWarning, match=r"standardize=True found no spread in the fit objects' features.*z-normalise"):
        Z = pyd2ke.RandomWarpingSeries(16, random_state=0).fit_transform(np.ones((20, 50)))
    assert np.abs(Z).max() < 1e-12


def test_a_spread_is_rounding_only_at_the_output_precision():
    features = 1.0 + 1e-8 * np.random.default_rng(0).normal(size=(50, 8))
    assert feature_statistics(features, np.float64)[1:] == (pytest.approx(1e-8, rel=0.2), True)
    assert feature_statistics(features, np.float32)[1:] == (1.0, False)
    assert feature_statistics(np.ones((50, 8)), np.float64)[1:] == (1.0, False)
