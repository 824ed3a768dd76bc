"""pyd2ke.aeon: RWS as an aeon collection transformer and classifier, on
aeon's own collections (3-D arrays and unequal-length lists of
(n_channels, n_timepoints) arrays), passing aeon's estimator checks."""

import warnings

import numpy as np
import pytest

aeon = pytest.importorskip("aeon", reason="the aeon extra: pip install '.[aeon]'")

from aeon.datasets import load_classification  # noqa: E402
from aeon.testing.estimator_checking import check_estimator  # noqa: E402

import pyd2ke  # noqa: E402
from pyd2ke.aeon import RandomWarpingSeriesClassifier, RandomWarpingSeriesTransformer  # noqa: E402


@pytest.mark.parametrize("cls", [RandomWarpingSeriesTransformer, RandomWarpingSeriesClassifier])
def test_aeon_check_estimator_passes(cls):
    results = check_estimator(cls, raise_exceptions=False)
    failed = {name: result for name, result in results.items() if result != "PASSED"}
    assert results and not failed, failed


@pytest.mark.parametrize("cls", [RandomWarpingSeriesTransformer, RandomWarpingSeriesClassifier])
def test_capabilities(cls):
    estimator = cls()
    assert estimator.get_tag("capability:unequal_length") and estimator.get_tag("capability:multivariate")


def test_transformer_reads_aeon_layouts():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 3, 40))  # (n_cases, n_channels, n_timepoints)
    Z = RandomWarpingSeriesTransformer(16, random_state=0).fit_transform(X)
    ours = pyd2ke.RandomWarpingSeries(16, random_state=0, dtype=np.float32).fit_transform(X.transpose(0, 2, 1))
    np.testing.assert_array_equal(Z, ours)
    unequal = [rng.normal(size=(3, n)) for n in (20, 35, 50, 41)]
    Z = RandomWarpingSeriesTransformer(16, random_state=0).fit_transform(unequal)
    ours = pyd2ke.RandomWarpingSeries(16, random_state=0, dtype=np.float32).fit_transform([u.T for u in unequal])
    np.testing.assert_array_equal(Z, ours)
    # Fewer steps than channels: pyd2ke refuses such a 3-D array and warns on
    # such a list; the adapter knows the layout, and does neither.
    short = rng.normal(size=(6, 12, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert RandomWarpingSeriesTransformer(8, random_state=0).fit_transform(short).shape == (6, 8)


def test_steps_first_univariate_series_are_warned_about():
    # GunPoint as (50, 150, 1) was read as one time point of 150 channels,
    # silently: accuracy 0.83 for 0.99.
    X = np.random.default_rng(0).normal(size=(6, 40, 1))
    with pytest.warns(pyd2ke.SeriesLayoutWarning, match=r"single time point \(40 channels\).*X.transpose\(0, 2, 1\)"):
        RandomWarpingSeriesClassifier(8, random_state=0).fit(X, np.array([0, 1] * 3))
    with pytest.warns(pyd2ke.SeriesLayoutWarning, match="aeon's layout"):
        RandomWarpingSeriesTransformer(8, random_state=0).fit(X)


def test_classifier_on_unequal_length_pickup_gestures():
    """PickupGestureWiimoteZ: 50 + 50 series of 29-361 steps, no padding
    (MiniRocket needs the padded copy: 0.80 in docs/results_timeseries.md)."""
    X_train, y_train = load_classification("PickupGestureWiimoteZ", split="train")
    X_test, y_test = load_classification("PickupGestureWiimoteZ", split="test")
    assert isinstance(X_train, list) and len({x.shape[1] for x in X_train}) > 1
    clf = RandomWarpingSeriesClassifier(random_state=0).fit(X_train, y_train)
    assert clf.score(X_test, y_test) >= 0.80
