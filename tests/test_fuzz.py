"""Fuzz: malformed and edge inputs thrown at every public estimator and function.

The contract: either a correct-looking result (right shape, every value
finite) or a ValueError / TypeError -- never another exception, a crash, a
hang, or NaN / infinity in the output.

CI runs a few examples per target. A long run:

    PYD2KE_FUZZ_EXAMPLES=20000 PYD2KE_FUZZ_COUNTS=counts.txt pytest -q -s tests/test_fuzz.py

draws that many inputs per test, at random (CI derandomizes), prints how many
inputs each target tried, and keeps the running count in counts.txt.
"""

import collections
import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pyd2ke import (
    D2KE,
    CGKEmbedding,
    DensityKernelFeatures,
    ESPSketches,
    ESPVectorizer,
    HashedRandomFourier,
    MeanEmbeddingFeatures,
    RandomMaclaurin,
    RandomSetEmbedding,
    RandomStringEmbedding,
    RandomWarpingSeries,
    RepresentativeSetEmbedding,
    WordMoversEmbedding,
    znormalize,
)
from pyd2ke.distances import pairwise_distances
from pyd2ke.sketches import esp_sketches

_LONG = "PYD2KE_FUZZ_EXAMPLES" in os.environ
FUZZ = settings(
    max_examples=int(os.environ.get("PYD2KE_FUZZ_EXAMPLES", "30")),
    deadline=None,
    derandomize=not _LONG,
    database=None,
    suppress_health_check=list(HealthCheck),
)

TRIED = collections.Counter()
_COUNTS_FILE = os.environ.get("PYD2KE_FUZZ_COUNTS")  # a file for the running count of a long run


@pytest.fixture(scope="module", autouse=True)
def _report_counts():
    yield
    if _LONG:
        print(f"\nfuzz inputs tried: {dict(TRIED)}; total {sum(TRIED.values())}")


# --- the contract ----------------------------------------------------------------


def _check_result(result):
    if isinstance(result, tuple):  # e.g. fit_transform of a pair
        for r in result:
            _check_result(r)
        return
    if isinstance(result, ESPSketches):
        assert np.isfinite(result.counts).all()
        return
    if sp.issparse(result):
        assert np.isfinite(result.data).all(), "NaN or infinity in the output"
        return
    if isinstance(result, list):  # znormalize, random objects
        for r in result:
            _check_result(np.asarray(r))
        return
    assert isinstance(result, np.ndarray), type(result)
    if result.dtype.kind in "fc":
        assert np.isfinite(result).all(), "NaN or infinity in the output"


def run(target, call, rows=None):
    """call() must return a finite result (with `rows` rows if given) or raise ValueError/TypeError."""
    TRIED[target] += 1
    if _COUNTS_FILE and sum(TRIED.values()) % 500 == 0:  # progress of long runs
        with open(_COUNTS_FILE, "w") as f:
            f.write(f"{sum(TRIED.values())} {dict(TRIED)}\n")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call()
    except (ValueError, TypeError) as error:
        assert str(error), f"{type(error).__name__} without a message"
        return None
    _check_result(result)
    if rows is not None and hasattr(result, "shape"):
        assert result.shape[0] == rows
    return result


def _len(X):
    try:
        return len(X)
    except TypeError:
        return None


# --- strategies -------------------------------------------------------------------

floats_any = st.floats(allow_nan=True, allow_infinity=True)
# Mostly moderate values; sometimes values near the float64 limit (sums and
# squares of those overflow) or subnormal ones.
floats_finite = st.one_of(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.floats(allow_nan=False, allow_infinity=False),
)
huge_ints = st.sampled_from([-(2**63), -(2**31), -1, 0, 2**24 + 1, 2**31, 2**32 + 1, 2**63, 2**64 + 5])
odd_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), huge_ints, floats_any, st.complex_numbers(max_magnitude=10),
    st.text(max_size=3), st.binary(max_size=3),
)


def numeric_arrays(max_dims=3, finite_bias=True):
    """Arrays of any dtype and 0..max_dims dimensions, occasionally empty, NaN or inf."""
    dtypes = st.sampled_from(
        [np.float64, np.float64, np.float64, np.float32, np.int64, np.int8, np.uint8, np.bool_, np.complex128,
         np.float16]
    )
    shapes = hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=5)
    elements = st.one_of(floats_finite, floats_finite, floats_any) if finite_bias else floats_any
    return dtypes.flatmap(
        lambda dt: hnp.arrays(
            dt,
            shapes,
            elements=elements if np.dtype(dt).kind in "fc" and np.dtype(dt).itemsize >= 8 else None,
        )
    )


def good_arrays(shape_dims, dim):
    """Mostly well-formed float arrays: (length,) or (length, dim)."""
    length = st.integers(1, 6)
    if shape_dims == 1:
        shapes = length.map(lambda n: (n,))
    else:
        shapes = length.map(lambda n: (n, dim))
    return hnp.arrays(np.float64, shapes, elements=floats_finite)


weird_items = st.one_of(
    odd_scalars,
    numeric_arrays(),
    st.lists(st.one_of(st.integers(-3, 3), floats_any, st.none()), max_size=4),
    st.lists(st.lists(floats_finite, max_size=3), max_size=3),  # ragged nested lists
    st.builds(lambda: np.array(["a", None], dtype=object)),
    st.builds(bytearray, st.binary(max_size=3)),
    st.tuples(numeric_arrays(2), numeric_arrays(1)),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def collections_of(item, good_item=None):
    """Lists mostly of `item`, sometimes with a weird item mixed in, or a weird whole collection."""
    mixed = item if good_item is None else st.one_of(item, good_item)
    lists = st.lists(st.one_of(mixed, mixed, mixed, mixed, mixed, mixed, weird_items), min_size=0, max_size=6)
    return st.one_of(
        st.lists(mixed, min_size=1, max_size=6),
        st.lists(mixed, min_size=1, max_size=6),
        lists,
        st.lists(mixed, min_size=1, max_size=4).map(tuple),
        st.lists(mixed, min_size=1, max_size=4).map(iter),  # a generator-like iterable
        st.lists(mixed, min_size=1, max_size=4).map(lambda xs: np.array(xs + [None], dtype=object)[:-1]),
        odd_scalars,
        numeric_arrays(),
        st.just([]),
        st.builds(lambda: sp.csr_matrix(np.eye(3))),
    )


texts = st.one_of(st.text(max_size=12), st.text(alphabet="ACGT", max_size=12), st.text(alphabet="ab", max_size=40))
binaries = st.one_of(st.binary(max_size=12), st.binary(max_size=40))
string_collections = st.one_of(
    collections_of(texts), collections_of(binaries), collections_of(texts, binaries),
    st.lists(texts, min_size=1, max_size=6).map(lambda xs: np.array(xs)),
)
series_collections = st.one_of(
    collections_of(good_arrays(1, 1)),
    collections_of(good_arrays(2, 2)),
    collections_of(good_arrays(2, 2), good_arrays(2, 3)),
    collections_of(good_arrays(2, 1), good_arrays(1, 1)),
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, max_side=4), elements=floats_any),
)
set_collections = st.one_of(
    collections_of(good_arrays(2, 3)),
    collections_of(good_arrays(2, 2), good_arrays(2, 3)),
    collections_of(good_arrays(2, 1), good_arrays(1, 1)),
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=3, max_dims=3, max_side=4), elements=floats_any),
)
weights = st.integers(1, 6).flatmap(
    lambda n: hnp.arrays(np.float64, (n,), elements=st.one_of(st.floats(0, 10), st.just(0.0), floats_any))
)
document_pairs = st.integers(1, 5).flatmap(
    lambda n: st.tuples(
        hnp.arrays(np.float64, (n, 2), elements=floats_finite),
        st.one_of(
            hnp.arrays(np.float64, (n,), elements=st.floats(0, 10)),
            hnp.arrays(np.float64, (n,), elements=floats_any),
            weights,
        ),
    )
)
document_collections = st.one_of(
    collections_of(document_pairs),
    collections_of(document_pairs, st.tuples(good_arrays(2, 3), weights)),
    collections_of(document_pairs.map(list)),
)
bow_matrices = st.one_of(
    hnp.arrays(np.float64, st.tuples(st.integers(0, 4), st.integers(0, 5)), elements=st.one_of(
        st.sampled_from([0.0, 0.0, 1.0, 2.0]), floats_any)),
    hnp.arrays(np.int64, st.tuples(st.integers(0, 4), st.integers(0, 5)), elements=st.integers(-2, 3)),
).flatmap(lambda a: st.sampled_from([a, sp.csr_matrix(a), sp.coo_matrix(a)]))
embedding_matrices = st.one_of(
    hnp.arrays(np.float64, st.tuples(st.integers(0, 5), st.integers(0, 3)), elements=floats_finite),
    numeric_arrays(),
)
vector_matrices = st.one_of(
    hnp.arrays(np.float64, st.tuples(st.integers(0, 5), st.integers(0, 4)), elements=floats_finite),
    hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 4)), elements=st.floats(-1, 1)),
    numeric_arrays(),
    st.lists(st.lists(floats_finite, max_size=3), max_size=3),
    st.builds(lambda: sp.csr_matrix(np.array([[0.0, 1.0], [2.0, 0.0]]))),
    string_collections,
)

gammas = st.one_of(st.just("auto"), st.floats(min_value=1e-3, max_value=10), floats_any, odd_scalars)
small_ints = st.one_of(st.integers(1, 4), st.integers(-2, 0), huge_ints, odd_scalars)
dtypes = st.one_of(st.sampled_from([np.float64, np.float32]), st.sampled_from([np.int32, "float16", None, "x", complex]))
kernels = st.one_of(st.sampled_from(["soft", "direct"]), odd_scalars)
n_jobs = st.one_of(st.sampled_from([None, 1, 2, -1, -100, 10**6, 2**31 - 1]), small_ints)


def _maybe(strategy, good):
    """Mostly the good value, sometimes a value from strategy."""
    return st.one_of(st.just(good), st.just(good), st.just(good), strategy)


# --- targets -------------------------------------------------------------------------


def _fit_transform(estimator, X, X2):
    def call():
        fitted = estimator.fit(X)
        Z = fitted.transform(X2)
        if isinstance(Z, np.ndarray):
            assert Z.shape[1] == getattr(fitted, "n_components_", Z.shape[1])
        return Z

    return call


@FUZZ
@given(data=st.data())
def test_fuzz_strings(data):
    X = data.draw(string_collections, "X")
    X2 = data.draw(st.one_of(st.just(X), string_collections), "X2")
    which = data.draw(st.sampled_from(["rse", "d2ke", "rsm", "esp", "cgk", "pairwise", "esp_sketches"]), "target")
    if which == "rse":
        estimator = RandomStringEmbedding(
            data.draw(_maybe(small_ints, 3)),
            sampler=data.draw(_maybe(st.one_of(st.sampled_from(["rf", "rfd", "ss", "bss"]), odd_scalars), "bss")),
            kernel=data.draw(_maybe(kernels, "soft")),
            gamma=data.draw(_maybe(gammas, "auto")),
            max_length=data.draw(_maybe(st.one_of(st.integers(1, 5), small_ints.filter(lambda v: not (
                isinstance(v, int) and v > 1000))), 4)),
            random_state=0,
            n_jobs=data.draw(_maybe(n_jobs, None)),
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        run(which, _fit_transform(estimator, X, X2), _len(X2))
    elif which in ("d2ke", "rsm"):
        cls = D2KE if which == "d2ke" else RepresentativeSetEmbedding
        metric = data.draw(_maybe(st.sampled_from(["esp", "dtw", "hamming"]), "levenshtein"))
        estimator = cls(metric=metric, n_components=data.draw(_maybe(small_ints, 2)), random_state=0,
                        gamma=data.draw(_maybe(gammas, "auto")), kernel=data.draw(_maybe(kernels, "soft")))
        run(which, _fit_transform(estimator, X, X2), _len(X2))
    elif which == "esp":
        estimator = ESPVectorizer(
            n_features=data.draw(_maybe(small_ints, 64)),
            output=data.draw(_maybe(st.one_of(st.just("sketch"), odd_scalars), "csr")),
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        run(which, _fit_transform(estimator, X, X2), _len(X2))
    elif which == "cgk":
        estimator = CGKEmbedding(
            output_length=data.draw(_maybe(st.one_of(small_ints.filter(lambda v: not (isinstance(v, int) and v > 10**6))), None)),
            output=data.draw(_maybe(st.one_of(st.just("symbols"), odd_scalars), "onehot")),
            random_state=0,
        )
        run(which, _fit_transform(estimator, X, X2), _len(X2))
    elif which == "esp_sketches":
        run(which, lambda: esp_sketches(X))
    else:
        metric = data.draw(st.sampled_from(["levenshtein", "esp"]))
        Y = data.draw(st.one_of(st.none(), string_collections))
        run(which, lambda: pairwise_distances(X, Y, metric=metric, n_jobs=data.draw(_maybe(n_jobs, None))), _len(X))


windows = st.one_of(st.none(), st.integers(0, 3), st.integers(-3, -1), huge_ints, odd_scalars)


@FUZZ
@given(data=st.data())
def test_fuzz_series(data):
    X = data.draw(series_collections, "X")
    X2 = data.draw(st.one_of(st.just(X), series_collections), "X2")
    which = data.draw(st.sampled_from(["rws", "d2ke", "rsm", "pairwise", "znormalize"]), "target")
    if which == "rws":
        estimator = RandomWarpingSeries(
            data.draw(_maybe(small_ints, 3)),
            min_length=data.draw(_maybe(st.integers(-1, 4), 1)),
            max_length=data.draw(_maybe(st.integers(-1, 6), 4)),
            scale=data.draw(_maybe(st.one_of(floats_any, odd_scalars), 1.0)),
            kernel=data.draw(_maybe(kernels, "soft")),
            gamma=data.draw(_maybe(gammas, "auto")),
            window=data.draw(_maybe(windows, None)),
            random_state=0,
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        run(which, _fit_transform(estimator, X, X2), _len(X2))
    elif which in ("d2ke", "rsm"):
        cls = D2KE if which == "d2ke" else RepresentativeSetEmbedding
        params = data.draw(_maybe(st.dictionaries(st.sampled_from(["window", "p"]), windows, max_size=2), {}))
        estimator = cls(metric="dtw", n_components=data.draw(_maybe(small_ints, 2)), metric_params=params,
                        random_state=0, kernel=data.draw(_maybe(kernels, "soft")),
                        dtype=data.draw(_maybe(dtypes, np.float64)))
        run(which, _fit_transform(estimator, X, X2), _len(X2))
    elif which == "znormalize":
        run(which, lambda: znormalize(X, eps=data.draw(_maybe(floats_any, 1e-8))))
    else:
        Y = data.draw(st.one_of(st.none(), series_collections))
        window = data.draw(_maybe(windows, None))
        run(which, lambda: pairwise_distances(X, Y, metric="dtw", window=window,
                                              dtype=data.draw(_maybe(dtypes, np.float64))), _len(X))


@FUZZ
@given(data=st.data())
def test_fuzz_sets(data):
    X = data.draw(set_collections, "X")
    X2 = data.draw(st.one_of(st.just(X), set_collections), "X2")
    metric = data.draw(_maybe(st.one_of(st.just("hausdorff"), odd_scalars), "modified_hausdorff"))
    which = data.draw(st.sampled_from(["rse", "rsm", "pairwise"]), "target")
    if which == "rse":
        estimator = RandomSetEmbedding(
            data.draw(_maybe(small_ints, 3)), metric=metric,
            min_size=data.draw(_maybe(st.integers(-1, 4), 1)), max_size=data.draw(_maybe(st.integers(-1, 5), 4)),
            kernel=data.draw(_maybe(kernels, "soft")), gamma=data.draw(_maybe(gammas, "auto")), random_state=0,
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        run("sets_" + which, _fit_transform(estimator, X, X2), _len(X2))
    elif which == "rsm":
        estimator = RepresentativeSetEmbedding(2, metric=metric, random_state=0)
        run("sets_" + which, _fit_transform(estimator, X, X2), _len(X2))
    else:
        Y = data.draw(st.one_of(st.none(), set_collections))
        run("sets_" + which, lambda: pairwise_distances(X, Y, metric=metric,
                                                        dtype=data.draw(_maybe(dtypes, np.float64))), _len(X))


@FUZZ
@given(data=st.data())
def test_fuzz_sample_sets(data):
    """Density kernels: the same point-set inputs, read as samples of densities."""
    X = data.draw(set_collections, "X")
    X2 = data.draw(st.one_of(st.just(X), set_collections), "X2")
    which = data.draw(st.sampled_from(["js", "hellinger", "tv", "l2", "mmd"]), "target")
    if which == "mmd":
        estimator = MeanEmbeddingFeatures(
            data.draw(_maybe(st.sampled_from([2, 4, 3, 0, -2]), 4)), n_base_components=8,
            random_state=0, dtype=data.draw(_maybe(dtypes, np.float64)),
        )
    else:
        estimator = DensityKernelFeatures(
            which, n_components=data.draw(_maybe(st.sampled_from([2, 4, 3, 0, -2]), 4)),
            n_lambdas=data.draw(_maybe(small_ints, 2)), basis_size=data.draw(_maybe(small_ints, 4)),
            bandwidth=data.draw(_maybe(st.one_of(st.sampled_from(["cv", "scott"]), gammas), "scott")),
            random_state=0, dtype=data.draw(_maybe(dtypes, np.float64)),
        )
    run("density_" + which, _fit_transform(estimator, X, X2), _len(X2))


@FUZZ
@given(data=st.data())
def test_fuzz_documents(data):
    which = data.draw(st.sampled_from(["wme", "wme_bow", "pairwise", "pairwise_bow"]), "target")
    if which.endswith("bow"):
        E = data.draw(embedding_matrices, "embeddings")
        X = data.draw(bow_matrices, "bow")
        X2 = data.draw(st.one_of(st.just(X), bow_matrices), "bow2")
    else:
        X = data.draw(document_collections, "X")
        X2 = data.draw(st.one_of(st.just(X), document_collections), "X2")
    if which.startswith("wme"):
        estimator = WordMoversEmbedding(
            data.draw(_maybe(small_ints, 3)),
            embeddings=E if which == "wme_bow" else None,
            weighting=data.draw(_maybe(st.one_of(st.just("tfidf"), odd_scalars), "nbow")),
            min_words=data.draw(_maybe(st.integers(-1, 3), 1)), max_words=data.draw(_maybe(st.integers(-1, 4), 3)),
            distribution=data.draw(_maybe(st.one_of(st.sampled_from(["box", "vocabulary"]), odd_scalars), "sphere")),
            kernel=data.draw(_maybe(kernels, "soft")), gamma=data.draw(_maybe(gammas, "auto")), random_state=0,
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        run(which, _fit_transform(estimator, X, X2), _len(X2) if which == "wme" else None)
    elif which == "pairwise_bow":
        run(which, lambda: pairwise_distances((E, X), (E, X2), metric="emd"))
    else:
        run(which, lambda: pairwise_distances(X, X2, metric="emd"), _len(X))


@FUZZ
@given(data=st.data())
def test_fuzz_vectors(data):
    X = data.draw(vector_matrices, "X")
    X2 = data.draw(st.one_of(st.just(X), vector_matrices), "X2")
    which = data.draw(st.sampled_from(["maclaurin", "fourier", "fourier_sketch"]), "target")
    if which == "maclaurin":
        estimator = RandomMaclaurin(
            data.draw(_maybe(small_ints, 4)),
            kernel=data.draw(_maybe(st.one_of(st.sampled_from(["exp", "vovk_poly", "vovk_inf"]),
                                              st.lists(floats_any, max_size=3), odd_scalars), "poly")),
            degree=data.draw(_maybe(st.one_of(st.integers(-1, 4), st.sampled_from([1000, 4096, 4097]), odd_scalars), 2)),
            gamma=data.draw(_maybe(st.one_of(floats_any, odd_scalars), 1.0)),
            coef0=data.draw(_maybe(st.one_of(floats_any, odd_scalars), 1.0)),
            p=data.draw(_maybe(st.one_of(floats_any, odd_scalars), 2.0)),
            max_degree=data.draw(_maybe(st.one_of(st.integers(-1, 5), st.sampled_from([1000, 4097]), odd_scalars), None)),
            n_jobs=data.draw(_maybe(n_jobs, None)),
            h01=data.draw(st.booleans()),
            random_state=0,
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        run(which, _fit_transform(estimator, X, X2))
    else:
        estimator = HashedRandomFourier(
            kernel=data.draw(_maybe(st.one_of(st.just("rbf"), odd_scalars), "laplacian")),
            beta=data.draw(_maybe(st.one_of(floats_any, odd_scalars), 1.0)),
            gamma=data.draw(_maybe(st.one_of(floats_any, odd_scalars), 1.0)),
            n_components=data.draw(_maybe(st.one_of(st.integers(-1, 6), huge_ints.filter(lambda v: v < 2**31),
                                                    odd_scalars), 4)),
            random_state=0,
            dtype=data.draw(_maybe(dtypes, np.float64)),
        )
        if which == "fourier_sketch":
            strings = data.draw(string_collections)
            X = run("esp_sketches", lambda: esp_sketches(strings))
            if X is None:
                return
            X2 = X
        run(which, _fit_transform(estimator, X, X2))


def _return_values():
    return st.one_of(st.floats(0, 10), floats_any, odd_scalars, st.just(np.float32(1.5)), st.just(np.array([1.0])))


@FUZZ
@given(data=st.data())
def test_fuzz_callable_metric(data):
    """A user metric returning anything: a number >= 0 or a clear error."""
    values = data.draw(st.lists(_return_values(), min_size=1, max_size=5), "returns")
    X = data.draw(st.one_of(st.lists(st.integers(), min_size=1, max_size=5), collections_of(texts)), "X")
    calls = iter(range(10**9))

    def metric(a, b):
        return values[next(calls) % len(values)]

    estimator = D2KE(metric=metric, n_components=data.draw(_maybe(small_ints, 2)),
                     sampler=data.draw(_maybe(st.one_of(st.just("random"), odd_scalars), None)),
                     gamma=data.draw(_maybe(gammas, "auto")), kernel=data.draw(_maybe(kernels, "soft")),
                     n_jobs=data.draw(st.sampled_from([1, 2])), random_state=0)
    run("callable", _fit_transform(estimator, X, X))
    run("callable_pairwise", lambda: pairwise_distances(X, metric=metric), _len(X))


ANY = st.one_of(string_collections, series_collections, set_collections, document_collections, vector_matrices)


@FUZZ
@given(X=ANY, which=st.integers(0, 13))
def test_fuzz_any_input_anywhere(X, which):
    """Input of one domain thrown at every other domain's estimator."""
    factories = [
        lambda: RandomStringEmbedding(2, random_state=0),
        lambda: RandomWarpingSeries(2, random_state=0),
        lambda: RandomSetEmbedding(2, random_state=0),
        lambda: WordMoversEmbedding(2, random_state=0),
        lambda: RepresentativeSetEmbedding(2, metric="dtw", random_state=0),
        lambda: ESPVectorizer(n_features=16),
        lambda: CGKEmbedding(random_state=0),
        lambda: RandomMaclaurin(3, random_state=0),
        lambda: HashedRandomFourier(n_components=4, random_state=0),
        lambda: D2KE(metric="emd", n_components=2, random_state=0),
        lambda: DensityKernelFeatures("js", n_components=2, basis_size=4, random_state=0),
    ]
    if which < len(factories):
        run("any_" + str(which), lambda: factories[which]().fit_transform(X))
    else:
        metric = ["levenshtein", "dtw", "hausdorff", "modified_hausdorff", "emd", "esp"][which % 6]
        run("any_pairwise", lambda: pairwise_distances(X, metric=metric), _len(X))


# --- found by fuzzing: kept as plain regression tests ---------------------------------


def test_znormalize_constant_series_with_eps_zero():
    assert np.array_equal(znormalize([np.zeros(3)], eps=0.0)[0], np.zeros(3))
    with pytest.raises(ValueError, match="eps"):
        znormalize([np.zeros(3)], eps=float("nan"))
    z = znormalize([np.array([1e308, -1e308, 1e308])])[0]  # mean and std would overflow
    assert np.isfinite(z).all()


def test_overflowing_distances_are_errors():
    big = [np.full((1, 3), 1e200)]
    with pytest.raises(ValueError, match=r"overflowed .*X\[0\]"):
        pairwise_distances(big, [np.zeros((1, 3))], metric="modified_hausdorff")
    with pytest.raises(ValueError, match="overflowed"):
        rws = RandomWarpingSeries(4, kernel="direct", gamma=1.0, random_state=0).fit([np.zeros((2, 2))])
        rws.transform([np.full((2, 2), 1e200)])



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("standardize", [False, True])
def test_overflowing_distances_are_errors_with_the_soft_kernel_too(dtype, standardize):
    # exp(-gamma * inf) is 0: the soft kernel's features of an overflowed
    # distance looked like a far object (or, standardised, like -mean /
    # scale) instead of an error naming it.
    rng = np.random.default_rng(0)
    X = [rng.normal(size=(5, 2)) for _ in range(6)]
    big = X[:2] + [np.full((5, 2), 1e200)]
    for estimator in (RandomWarpingSeries(4, derivative=False, standardize=standardize, random_state=0, dtype=dtype),
                      RandomSetEmbedding(4, standardize=standardize, random_state=0, dtype=dtype)):
        estimator.fit(X)
        # In float32 the packing finds 1e200 first: beyond float32's range.
        match = r"overflowed .*X\[2\]" if dtype == np.float64 else r"X\[2\] .* beyond float32's range"
        with pytest.raises(ValueError, match=match):
            estimator.transform(big)
        if dtype == np.float32:  # finite in float32, overflowing in the distances
            with pytest.raises(ValueError, match=r"overflowed .*X\[2\]"):
                estimator.transform(X[:2] + [np.full((5, 2), 1e30)])



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_overflowing_word_distances_name_the_document(dtype):
    # The transport's ground costs overflowed: "emd: costs must be finite",
    # naming neither the argument nor the document.
    rng = np.random.default_rng(0)
    docs = [(rng.normal(size=(n, 5)), np.ones(n)) for n in (4, 7, 2, 5)]
    wme = WordMoversEmbedding(8, random_state=0, dtype=dtype).fit(docs)
    big = 1e200 if dtype == np.float64 else 1e20
    with pytest.raises(ValueError, match=r"overflowed .*X\[2\]"):
        wme.transform(docs[:2] + [(docs[2][0] * big, docs[2][1])])
    with pytest.raises(ValueError, match=r"overflowed .*X\[0\]"):
        pairwise_distances([docs[0], (docs[2][0] * 1e200, docs[2][1])], metric="emd")


def test_bag_of_words_with_empty_last_document():
    E = np.array([[0.0]])
    bow = sp.csr_matrix(np.array([[1.0], [0.0]]))
    with pytest.raises(ValueError, match=r"X\[1\] has only zero weights"):
        pairwise_distances((E, bow), metric="emd")
    # An empty document between two others is found too (reduceat missed it).
    bow = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 2.0]]))
    with pytest.raises(ValueError, match=r"X\[1\] has only zero weights"):
        pairwise_distances((np.eye(2), bow), metric="emd")


def test_huge_counts_are_errors_not_hangs():
    for estimator in (RandomStringEmbedding(2**63), RandomStringEmbedding(2**24 + 1), RandomWarpingSeries(2**31),
                      RandomStringEmbedding(4, max_length=2**40)):
        with pytest.raises(ValueError, match="must be <="):
            estimator.fit(["ab", "abc"] if not isinstance(estimator, RandomWarpingSeries) else [np.zeros(3)])


def test_huge_n_jobs_is_capped():
    # 2**31 - 1 threads made the OpenMP runtime abort the process.
    Z = RandomStringEmbedding(4, random_state=0, n_jobs=2**31 - 1).fit_transform(["ab", "abc"] * 100)
    assert Z.shape == (200, 4)


def test_maclaurin_coefficient_overflow_is_an_error():
    with pytest.raises(ValueError, match="overflows float64"):
        RandomMaclaurin(4, degree=4096, coef0=1e300, random_state=0).fit(np.eye(3) * 0.1)
