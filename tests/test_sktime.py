"""pyd2ke.sktime: RWS as an sktime transformer and classifier, passing
sktime's own estimator checks, on equal- and unequal-length panels."""

import numpy as np
import pytest

pytest.importorskip("sktime", reason="the sktime extra: pip install '.[sktime]'")

import pandas as pd  # noqa: E402
from sktime.utils.estimator_checks import check_estimator  # noqa: E402

import pyd2ke  # noqa: E402
from pyd2ke.sktime import RandomWarpingSeriesClassifier, RandomWarpingSeriesTransformer  # noqa: E402


@pytest.mark.parametrize("cls", [RandomWarpingSeriesTransformer, RandomWarpingSeriesClassifier])
def test_sktime_check_estimator_passes(cls):
    results = check_estimator(cls, raise_exceptions=False, verbose=False)
    failed = {name: result for name, result in results.items() if result != "PASSED"}
    assert results and not failed, failed


def test_unequal_length_panel_of_dataframes():
    rng = np.random.default_rng(0)
    frames = [pd.DataFrame(rng.normal(size=(n, 2))) for n in (20, 31, 45, 27)]
    Z = RandomWarpingSeriesTransformer(8, random_state=0).fit_transform(frames)
    ours = pyd2ke.RandomWarpingSeries(8, random_state=0, dtype=np.float32).fit_transform(
        [f.to_numpy() for f in frames])
    np.testing.assert_array_equal(np.asarray(Z), ours)
    y = np.array([0, 1, 0, 1])
    assert RandomWarpingSeriesClassifier(8, random_state=0).fit(frames, y).predict(frames).shape == (4,)
