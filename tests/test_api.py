"""The scikit-learn contract, checked once for every public estimator of
tests/cases.py (most take ragged inputs, so scikit-learn's own estimator
checks do not apply): parameters, cloning, NotFittedError, pickling,
fit_transform, dtypes, feature names. Same bits across n_jobs and batches
are in test_reproducibility.py."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.exceptions import NotFittedError
from sklearn.utils import get_tags

from cases import ALL_CASES as CASES, as_dense, set_dtype
from pyd2ke._base import Pyd2keTransformer

NAMES = sorted(CASES)
N = 40
pytestmark = pytest.mark.filterwarnings("ignore:n_components=.* is larger than the number of fit objects")


def fitted(name, n=N):
    make, data = CASES[name]
    X = data(n)
    return make(0, 1).fit(X), X


def _same_value(a, b):
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):  # a pipeline's steps
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, BaseEstimator) or isinstance(b, BaseEstimator):
        return type(a) is type(b) and a.get_params().keys() == b.get_params().keys()
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b or (callable(a) and a is b)


@pytest.mark.parametrize("name", NAMES)
def test_params_round_trip_and_clone(name):
    estimator, X = fitted(name)
    params = estimator.get_params(deep=False)
    twin = clone(estimator)
    assert twin.get_params(deep=False).keys() == params.keys()
    assert all(_same_value(params[k], v) for k, v in twin.get_params(deep=False).items())
    # A clone of a fitted estimator is unfitted: no attribute learnt by fit.
    for _, step in getattr(twin, "steps", [(None, twin)]):
        learnt = [k for k in vars(step) if k.endswith("_") and not k.startswith("_")]
        assert learnt == [], learnt
    assert twin.set_params(**params).get_params(deep=False) == params


@pytest.mark.parametrize("name", NAMES)
def test_transform_before_fit(name):
    make, data = CASES[name]
    estimator = make(0, 1)
    if not get_tags(estimator).requires_fit:
        pytest.skip("stateless: transform needs no fit (as HashingVectorizer)")
    with pytest.raises(NotFittedError):
        estimator.transform(data(5))


@pytest.mark.parametrize("name", NAMES)
def test_fit_transform_is_fit_then_transform(name):
    make, data = CASES[name]
    X = data(N)
    assert np.array_equal(as_dense(make(0, 1).fit_transform(X)), as_dense(make(0, 1).fit(X).transform(X)))


@pytest.mark.parametrize("name", NAMES)
def test_pickle_round_trip(name):
    estimator, X = fitted(name)
    Z = estimator.transform(X)
    twin = pickle.loads(pickle.dumps(estimator))
    assert np.array_equal(as_dense(twin.transform(X)), as_dense(Z))


@pytest.mark.parametrize("name", NAMES)
def test_float32_and_dtype_changed_after_fit(name):
    # set_params(dtype=...) takes effect without a refit (engines are rebuilt
    # at the new precision, not reused), and float32 is float64 rounded.
    estimator, X = fitted(name)
    Z64 = set_dtype(estimator, np.float64).transform(X)
    Z32 = set_dtype(estimator, np.float32).transform(X)
    if sp.issparse(Z64) or isinstance(Z64, np.ndarray) and Z64.dtype.kind == "f":
        if not (hasattr(Z32, "dtype") and Z32.dtype == np.float64):  # ESP sketches keep float64 counts
            assert Z32.dtype == np.float32, Z32.dtype
        a, b = as_dense(Z64), as_dense(Z32).astype(np.float64)
        assert np.abs(a - b).max(initial=0.0) <= 1e-3 * max(1.0, np.abs(a).max())
    assert np.array_equal(as_dense(set_dtype(estimator, np.float64).transform(X)), as_dense(Z64))


@pytest.mark.parametrize("name", NAMES)
def test_feature_names_out(name):
    estimator, X = fitted(name)
    Z = estimator.transform(X)
    if not hasattr(Z, "shape"):
        pytest.skip("ESP sketches are not a matrix")
    names = estimator.get_feature_names_out()
    assert len(names) == Z.shape[1] and len(set(names)) == len(names)
    last = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
    assert names[0] == type(last).__name__.lower() + "0"


# The make_sfm* pipelines carry scikit-learn's Pipeline tags, not pyd2ke's.
@pytest.mark.parametrize("name", [name for name in NAMES if isinstance(CASES[name][0](0, 1), Pyd2keTransformer)])
def test_input_tags_say_what_the_estimator_reads(name):
    make, data = CASES[name]
    X, tags = data(3), get_tags(make(0, 1)).input_tags
    is_text = isinstance(X, list) and isinstance(X[0], (str, bytes))
    if is_text:
        assert tags.string and not tags.two_d_array
    elif not callable(getattr(make(0, 1), "metric", None)):  # a Python distance reads anything
        assert not tags.string, "string=True on an estimator that refuses strings"
