"""One skeleton (issue 29): every public estimator derives from
pyd2ke._base.Pyd2keTransformer, declares _parameter_constraints for every
parameter, and runs the skeleton's fit and chunked transform, so that
pyd2ke.chunking() bounds every transform's memory and changes none of its
rows."""

import importlib
import importlib.util
import inspect

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.kernel_approximation import RBFSampler
from sklearn.preprocessing import Normalizer
from sklearn.utils._param_validation import InvalidParameterError

import pyd2ke
from cases import ALL_CASES, strings, vectors
from pyd2ke._base import Pyd2keTransformer

pytestmark = pytest.mark.filterwarnings("ignore:n_components=.* is larger than the number of fit objects")

# Every estimator pyd2ke exports: a new one is in this list without a word here.
ESTIMATORS = sorted((obj for obj in map(lambda name: getattr(pyd2ke, name), pyd2ke.__all__)
                     if isinstance(obj, type) and issubclass(obj, BaseEstimator)), key=lambda c: c.__name__)


def _hamming(a, b):
    return float(sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b)))


# Outputs and paths the shared cases leave out: sketches, CGK symbols, inner
# maps (stacked and shared), a Python metric.
CASES = {
    **ALL_CASES,
    "esp-sketch": (lambda rs, nj: pyd2ke.ESPVectorizer(output="sketch", n_jobs=nj), strings),
    "cgk-symbols": (lambda rs, nj: pyd2ke.CGKEmbedding(output="symbols", output_length=50, random_state=rs,
                                                       n_jobs=nj), strings),
    "maclaurin-inner": (lambda rs, nj: pyd2ke.RandomMaclaurin(48, inner=RBFSampler(n_components=20, random_state=3),
                                                              random_state=rs, n_jobs=nj), vectors),
    "maclaurin-inner-shared": (lambda rs, nj: pyd2ke.RandomMaclaurin(48, kernel="exp", inner=Normalizer(),
                                                                     random_state=rs, n_jobs=nj), vectors),
    "d2ke-callable": (lambda rs, nj: pyd2ke.D2KE(_hamming, n_components=8, random_state=rs, n_jobs=nj), strings),
}
N = 20  # objects: chunks of 7, 7 and 6 under chunking(max_items=7)
# Rows read in place, blocks written straight into the output: a chunk would
# bound no memory, so these run as one chunk whatever the limits.
ONE_CHUNK = {"fourier-rbf", "maclaurin", "maclaurin-exp-h01-f32", "maclaurin-sparse"}


def _steps(estimator):
    return [step for _, step in estimator.steps] if hasattr(estimator, "steps") else [estimator]


def _case_of(cls):
    """The first case whose estimator is cls itself (not in a pipeline)."""
    return next((make, data) for make, data in CASES.values() if type(make(0, 1)) is cls)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_every_estimator_is_the_skeleton_with_every_parameter_constrained(cls):
    assert issubclass(cls, Pyd2keTransformer)
    # fit and transform are the skeleton's: estimators write _fit and _transform_chunk.
    assert cls.fit is Pyd2keTransformer.fit
    assert inspect.unwrap(cls.transform) is inspect.unwrap(Pyd2keTransformer.transform)
    assert sorted(cls._parameter_constraints) == sorted(cls().get_params(deep=False))
    cls()._validate_params()  # the defaults satisfy the constraints


def test_the_cases_cover_every_estimator():
    covered = {type(step) for make, _ in CASES.values() for step in _steps(make(0, 1))}
    assert set(ESTIMATORS) <= covered, set(ESTIMATORS) - covered


def _assert_same(a, b):
    assert type(a) is type(b)
    if isinstance(a, pyd2ke.ESPSketches):
        pairs = [(a.labels, b.labels), (a.counts, b.counts), (a.offsets, b.offsets)]
    elif sp.issparse(a):
        assert a.shape == b.shape and a.dtype == b.dtype
        a, b = a.tocsr(), b.tocsr()
        pairs = [(a.indptr, b.indptr), (a.indices, b.indices), (a.data, b.data)]
    else:
        assert a.shape == b.shape and a.dtype == b.dtype and a.flags.c_contiguous and b.flags.c_contiguous
        pairs = [(a, b)]
    for x, y in pairs:
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_chunking_changes_no_row(name, monkeypatch):
    make, data = CASES[name]
    X = data(N)
    estimator = make(0, 2).fit(X)
    whole = estimator.transform(X)
    chunks = []
    for step in _steps(estimator):
        compute = step._transform_chunk

        def counted(chunk, out, compute=compute, step=step):
            chunks.append((type(step).__name__, chunk.shape[0] if hasattr(chunk, "shape") else len(chunk)))
            return compute(chunk, out)

        monkeypatch.setattr(step, "_transform_chunk", counted)
    with pyd2ke.chunking(max_items=7):
        chunked = estimator.transform(X)
    _assert_same(whole, chunked)
    # Every step ran the skeleton's loop, on chunks of at most 7 objects.
    sizes = (N,) if name in ONE_CHUNK else (7, 7, 6)
    assert chunks == [(type(step).__name__, size) for step in _steps(estimator) for size in sizes]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_output_type_is_what_transform_returns(name):
    """_output_type (what pyd2ke.dask promises per partition) matches the output."""
    make, data = CASES[name]
    X = data(N)
    estimator = make(0, 1).fit(X)
    Z = estimator.transform(X)
    kind, dtype = list(_steps(estimator))[-1]._output_type()
    actual = ("sparse" if sp.issparse(Z) else "sketch" if isinstance(Z, pyd2ke.ESPSketches) else "dense")
    assert kind == actual
    assert dtype == (Z.counts.dtype if kind == "sketch" else Z.dtype)


@pytest.mark.parametrize("name", sorted(CASES))
def test_transform_leaves_the_fitted_estimator_as_it_was(name):
    """scikit-learn's check_dict_unchanged, on every estimator's own input (a
    trial: DensityKernelFeatures.transform added a cache of padded weights)."""
    make, data = CASES[name]
    X = data(N)
    estimator = make(0, 1).fit(X)
    before = {step: dict(vars(step)) for step in _steps(estimator)}
    estimator.transform(X)
    for step, state in before.items():
        assert vars(step).keys() == state.keys(), type(step).__name__
        for key, value in state.items():
            assert vars(step)[key] is value, f"{type(step).__name__}.{key}"


class _Nonsense:
    """A value no constraint takes: no number, string, callable, array, estimator or None."""

    def __repr__(self):
        return "<nonsense>"


@pytest.mark.parametrize("cls, param", [(cls, param) for cls in ESTIMATORS
                                        for param in sorted(cls().get_params(deep=False))],
                         ids=lambda v: v if isinstance(v, str) else v.__name__)
def test_a_bad_value_is_refused_by_name_before_the_data_is_read(cls, param):
    with pytest.raises(InvalidParameterError, match=f"'{param}' parameter of {cls.__name__}"):
        cls(**{param: _Nonsense()})._validate_params()
    make, data = _case_of(cls)
    estimator = make(0, 1).set_params(**{param: _Nonsense()})
    with pytest.raises((ValueError, TypeError), match=rf"\b{param}\b"):
        estimator.fit(data(5))


@pytest.mark.parametrize("estimator, param", [
    (pyd2ke.ESPVectorizer(n_features=True), "n_features"),
    (pyd2ke.CGKEmbedding(output_length=np.True_), "output_length"),
    (pyd2ke.HashedRandomFourier(gamma=True), "gamma"),
])
def test_a_bool_is_no_number(estimator, param):
    with pytest.raises(TypeError, match=f"'{param}' parameter"):
        estimator.fit(strings(3) if not isinstance(estimator, pyd2ke.HashedRandomFourier) else np.eye(3))


def test_metric_docstrings_come_from_the_registry():
    """Every built-in metric (graph_emd and esp included) is described where
    a metric is chosen, by the registry's own text."""
    from pyd2ke._domains import METRICS, METRICS_DOC_TOKEN
    from pyd2ke.distances import pairwise_distances

    for documented in (pyd2ke.D2KE, pyd2ke.RepresentativeSetEmbedding, pairwise_distances):
        assert METRICS_DOC_TOKEN not in documented.__doc__
        for name, domain in METRICS.items():
            assert f'"{name}": {domain.name}' in documented.__doc__, (documented, name)
            assert domain.metrics[name].summary


def test_shared_docstring_paragraphs_are_filled_in():
    """Every placeholder of a shared paragraph (pyd2ke/_docstrings.py) is
    replaced by its text in the docstrings users see."""
    from pyd2ke._docstrings import PARAGRAPHS

    documented = list(ESTIMATORS)
    for extra in ("aeon", "sktime"):
        if importlib.util.find_spec(extra) is not None:  # an optional extra
            documented.append(importlib.import_module(f"pyd2ke.{extra}").RandomWarpingSeriesClassifier)
    for cls in documented:
        for placeholder in PARAGRAPHS:
            assert placeholder not in cls.__doc__, (cls, placeholder)
    assert "    " + PARAGRAPHS["<standardize>"].replace("\n", "\n    ") in pyd2ke.RandomWarpingSeries.__doc__


def test_running_out_of_memory_names_the_size_parameters(monkeypatch):
    # CGKEmbedding(output_length=2**31 - 1) ended in numpy's "Unable to
    # allocate 48.0 GiB" alone.
    model = pyd2ke.CGKEmbedding(output_length=5000, random_state=0).fit(strings(4))

    def short_of_memory(*args):
        raise MemoryError("Unable to allocate 48.0 GiB")

    monkeypatch.setattr(type(model), "_transform_chunk", short_of_memory)
    with pytest.raises(MemoryError, match=r"CGKEmbedding.transform ran out of memory \(Unable to allocate 48.0 GiB\); "
                                          r"the parameters that size it: output_length=5000") as caught:
        model.transform(strings(4))
    assert isinstance(caught.value.__cause__, MemoryError)
    monkeypatch.setattr(type(model), "_fit", short_of_memory)
    with pytest.raises(MemoryError, match=r"CGKEmbedding.fit ran out of memory"):
        model.fit(strings(4))
