"""Packing a list of arrays by the core (Ragged.pack_arrays) against the
Python packing it replaces (Ragged.pack of the checked items): same values,
offsets and dtype for every element type, layout, length and thread count;
None for items the core does not take, so the Python check names them."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyd2ke import _core
from pyd2ke._domains.point_sets import check_point_sets
from pyd2ke._domains.series import check_series
from pyd2ke._parallel import using_threads
from pyd2ke._ragged import Ragged

# Lengths that straddle SIMD widths and the core's blocks.
LENGTHS = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 128, 300]
ELEMENTS = [np.float64, np.float32, np.int64, np.int32]
# What every property test below draws: element type, memory layout, threads, seed.
ARRAY_DRAWS = dict(element=st.sampled_from(ELEMENTS), kind=st.sampled_from(["c", "fortran", "strided"]),
                   threads=st.sampled_from([1, 2, 3]), seed=st.integers(0, 2**16))


def python_pack(items, dtype):
    """The reference: the items as 2-D arrays, concatenated by numpy."""
    return Ragged.pack([np.asarray(a).reshape(len(a), -1) for a in items], dtype)


def layout(a, kind):
    """a (rows, columns) in another memory layout with the same values."""
    if kind == "fortran":
        return np.asfortranarray(a)
    if kind == "strided":  # every other row and column of a bigger array
        big = np.zeros((2 * a.shape[0], 2 * a.shape[1]), dtype=a.dtype)
        big[::2, ::2] = a
        return big[::2, ::2]
    return np.ascontiguousarray(a)


@given(
    lengths=st.lists(st.sampled_from(LENGTHS), min_size=1, max_size=12),
    columns=st.sampled_from([None, 1, 3, 17]),
    dtype=st.sampled_from([np.float64, np.float32]),
    **ARRAY_DRAWS,
)
def test_core_packing_equals_python_packing(lengths, columns, element, kind, dtype, threads, seed):
    rng = np.random.default_rng(seed)
    items = []
    for n in lengths:
        a = (rng.normal(size=(n, columns or 1)) * 1000).astype(element)
        items.append(a[:, 0].copy() if columns is None else layout(a, kind))
    fast = Ragged.pack_arrays(items, dtype, "X", "step")
    with using_threads(threads):
        again = Ragged.pack_arrays(items, dtype, "X", "step")
    slow = python_pack(items, dtype)
    assert fast is not None
    for got in (fast, again):
        assert got.values.dtype == np.dtype(dtype) and got.values.flags.c_contiguous
        np.testing.assert_array_equal(got.values, slow.values)
        np.testing.assert_array_equal(got.offsets, slow.offsets)


@pytest.mark.parametrize("check, what", [(check_series, "step"), (check_point_sets, "point")])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("length", [1, 8, 17, 65])
def test_non_finite_values_name_the_item_and_position(check, what, bad, length):
    items = [np.ones((length, 2)) for _ in range(5)]
    items[3][length - 1, 1] = bad
    with pytest.raises(ValueError, match=rf"X\[3\] contains NaN or infinity \(at {what} {length - 1}\)"):
        check(items)


def test_a_double_too_large_for_float32_is_an_infinity_named():
    items = [np.ones(4), np.array([1.0, 1e300, 2.0])]
    assert check_series(items, dtype=np.float64).values.max() == 1e300
    with pytest.raises(ValueError, match=r"X\[1\] contains NaN or infinity \(at step 1\)"):
        check_series(items, dtype=np.float32)


@pytest.mark.parametrize("items", [
    [np.ones(3), [1.0, 2.0]],                          # a list, not an array
    [np.ones(3), np.ones(3, dtype=np.float16)],        # another element type
    [np.ones(3), np.ones(3, dtype=bool)],
    [np.ones(3), np.ones(3, dtype=">f8")],             # not in native byte order
    [np.ones(3), np.ones((2, 2, 2))],                  # three dimensions
    [np.ones(3), np.ones(0)],                          # no rows
    [np.ones((3, 2)), np.ones((3, 0))],                # no columns
    [np.ones((3, 2)), np.ones((3, 3))],                # other columns than the first
])
def test_other_items_are_left_to_the_python_check(items):
    assert _core.pack_rows_float64(items, 2) is None
    assert _core.pack_rows_float32(items, 2) is None


def test_the_python_check_still_names_what_the_core_left():
    with pytest.raises(ValueError, match=r"X\[1\] has 3 channels, but X\[0\] has 2"):
        check_series([np.ones((3, 2)), np.ones((3, 3))])
    with pytest.raises(ValueError, match=r"X\[1\] is empty"):
        check_point_sets([np.ones((3, 2)), np.ones((0, 2))])
    # Non-native byte order and lists still pack, through Python.
    packed = check_series([np.arange(3.0), np.arange(3.0).astype(">f8"), [1, 2]])
    np.testing.assert_array_equal(packed.values[:, 0], [0, 1, 2, 0, 1, 2, 1, 2])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 65535, 65536, 65537, 200_003])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_parallel_finite_check_equals_numpy(dtype, size, threads):
    rng = np.random.default_rng(size)
    a = rng.normal(size=size).astype(dtype)
    assert _core.all_finite(a, threads)
    for bad in (np.nan, np.inf, -np.inf):
        for where in {0, size // 2, size - 1} if size else set():
            b = a.copy()
            b[where] = bad
            assert not _core.all_finite(b, threads)


# --- dense graphs ---------------------------------------------------------------------

from pyd2ke._domains import graphs as graph_domain  # noqa: E402


def python_pack_graphs(items, monkeypatch):
    """The reference: pack_graphs with the core's fast path switched off."""
    with monkeypatch.context() as m:
        m.setattr(_core, "pack_dense_graphs", lambda *args: None)
        return graph_domain.pack_graphs(items, "X")


def assert_same_graphs(a, b):
    assert a.kind == b.kind
    for field in ("node_offsets", "edge_offsets", "rows", "cols", "weights"):
        got, expected = getattr(a, field), getattr(b, field)
        assert got.dtype == expected.dtype, field
        np.testing.assert_array_equal(got, expected, err_msg=field)
    if b.node_data is None:
        assert a.node_data is None
    else:
        assert a.node_data.dtype == b.node_data.dtype
        np.testing.assert_array_equal(a.node_data, b.node_data)


@given(
    sizes=st.lists(st.sampled_from([1, 2, 7, 8, 9, 17, 65]), min_size=1, max_size=8),
    labels=st.sampled_from([None, np.int64, np.int32]),
    pair=st.sampled_from([tuple, list]),
    **ARRAY_DRAWS,
)
def test_core_graph_packing_equals_python_packing(sizes, element, kind, labels, pair, threads, seed):
    from _pytest.monkeypatch import MonkeyPatch

    rng = np.random.default_rng(seed)
    items = []
    for n in sizes:
        A = np.triu((rng.random((n, n)) < 0.3) * rng.integers(1, 5, (n, n)), 1).astype(element)
        A = layout(A + A.T, kind)
        items.append(A if labels is None else pair([A, rng.integers(0, 7, n).astype(labels)]))
    with using_threads(threads):
        fast = graph_domain.pack_graphs(items, "X")
    assert _core.pack_dense_graphs(items, graph_domain.MAX_LABEL, threads) is not None
    with MonkeyPatch.context() as m:
        slow = python_pack_graphs(items, m)
    assert_same_graphs(fast, slow)


@pytest.mark.parametrize("element", [np.float64, np.float32])
def test_nearly_symmetric_dense_graphs_are_made_symmetric_as_by_python(element, monkeypatch):
    """An asymmetry within SYMMETRY_RTOL: the core's edges are not canonical
    then, and the domain's sort averages them as the Python path does."""
    rng = np.random.default_rng(5)
    items = []
    for n in (1, 2, 7, 8, 9, 17, 65):
        A = np.triu((rng.random((n, n)) < 0.3) * rng.uniform(1, 5, (n, n)), 1)
        A = A + A.T
        if n > 1:
            r, c = np.argwhere(A > 0)[0]
            A[r, c] *= 1 + 4e-11 if element == np.float64 else 1
        items.append(A.astype(element))
    fast = _core.pack_dense_graphs(items, graph_domain.MAX_LABEL, 2)
    assert fast is not None and fast[-1] == (element == np.float32)
    assert_same_graphs(graph_domain.pack_graphs(items, "X"), python_pack_graphs(items, monkeypatch))


@pytest.mark.parametrize("items, message", [
    ([np.ones((2, 2)), -np.ones((2, 2))], r"X\[1\] adjacency has weight -1.0"),
    ([np.ones((2, 2)), np.full((2, 2), np.nan)], r"X\[1\] adjacency contains NaN or infinity"),
    ([np.ones((2, 2)), np.array([[0, 1], [2, 0]])], r"X\[1\] adjacency is not symmetric"),
    ([(np.ones((2, 2)), np.array([0, 1])), (np.ones((2, 2)), np.array([0, 70000]))], r"X\[1\] has node label 70000"),
    ([(np.ones((2, 2)), np.array([0, 1])), (np.ones((2, 2)), np.array([0]))], r"X\[1\] has 2 nodes but 1 node labels"),
    ([(np.ones((2, 2)), np.array([0, 1])), np.ones((2, 2))], r"X\[1\] has no node data, but X\[0\] has labels"),
    ([np.ones((2, 2)), np.ones((2, 3))], r"X\[1\] adjacency has shape \(2, 3\)"),
])
def test_bad_graphs_are_named_by_the_python_check(items, message):
    with pytest.raises(ValueError, match=message):
        graph_domain.pack_graphs(items, "X")


def test_other_graph_inputs_are_left_to_the_python_check():
    import scipy.sparse as sp

    A = np.ones((3, 3))
    for items in ([sp.csr_matrix(A)], [(A, np.ones((3, 2)))], [(A, np.array([0.0, 1.0, 2.0]))], [A.astype(bool)],
                  [graph_domain.NodeVectors(A, np.ones(3))], [[A, np.arange(3), 0]]):
        assert _core.pack_dense_graphs(items, graph_domain.MAX_LABEL, 2) is None


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("rows, columns", [(1, 1), (7, 9), (65, 17), (300, 256)])
@pytest.mark.parametrize("threads", [1, 3])
def test_standardisation_in_the_core_is_numpys_bits(dtype, rows, columns, threads):
    from pyd2ke._standardize import standardize_into

    rng = np.random.default_rng(rows)
    Z = rng.random((rows, columns)).astype(dtype)
    mean, scale = rng.random(columns), float(rng.uniform(1e-4, 1))
    expected = Z.copy()
    expected -= mean.astype(dtype)
    expected *= dtype(1.0 / scale)
    got = standardize_into(Z.copy(), mean, scale, threads)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # scikit-learn's cast
def test_a_longdouble_too_large_for_float64_is_still_refused():
    # Finite as numpy.longdouble, infinite once cast to float64: the check that
    # lets scikit-learn skip its own pass must not vouch for it.
    import scipy.sparse as sp

    from pyd2ke import HashedRandomFourier, RandomMaclaurin

    # (Where numpy.longdouble is float64 the value is an infinity from the start,
    # refused by pyd2ke's own check: "infinite"; elsewhere by scikit-learn's: "infinity".)
    big = np.array([[np.longdouble("1e400"), 1.0], [2.0, 3.0]], dtype=np.longdouble)
    for X in (big, sp.csr_matrix(big)):
        for estimator in (RandomMaclaurin(n_components=8, random_state=0),
                          HashedRandomFourier(kernel="rbf", n_components=8, random_state=0)):
            with pytest.raises(ValueError, match="infinit"):
                estimator.fit(X)


def test_pairwise_distances_packs_on_its_own_n_jobs(monkeypatch):
    from pyd2ke.distances import pairwise_distances

    seen = []
    real = _core.pack_rows_float64

    def spy(items, n_threads):
        seen.append(n_threads)
        return real(items, n_threads)

    monkeypatch.setattr(_core, "pack_rows_float64", spy)
    X = [np.arange(5.0), np.arange(7.0)]
    pairwise_distances(X, metric="dtw", n_jobs=1)
    assert seen == [1]


# --- lists of strings --------------------------------------------------------------------


@given(
    texts=st.lists(st.one_of(st.text(max_size=70), st.binary(max_size=70).map(lambda b: b"" if not b else b)),
                   min_size=1, max_size=30),
)
def test_text_list_info_equals_python(texts):
    kinds = {type(t) for t in texts}
    kind, total, first_empty, longest = _core.text_list_info(texts)
    if kinds == {str}:
        assert kind == 1
    elif kinds == {bytes}:
        assert kind == 2
    else:
        assert kind == 0
        return
    assert total == sum(map(len, texts))
    assert first_empty == next((i for i, t in enumerate(texts) if len(t) == 0), -1)
    assert longest == max(map(len, texts))


def test_text_list_info_leaves_everything_else_to_python():
    import pyd2ke._domains.strings as strings

    assert _core.text_list_info([np.str_("ab"), "c"])[0] == 1  # subclasses are str
    for items in (["a", b"b"], ["a", None], ["a", bytearray(b"b")], [1, 2]):
        assert _core.text_list_info(items)[0] == 0
    with pytest.raises(TypeError, match=r"X mixes str and bytes \(X\[1\] is bytes"):
        strings.check_strings(["a", b"b"])
    with pytest.raises(ValueError, match=r"X\[1\] is missing \(None\)"):
        strings.check_strings(["a", None])
    with pytest.raises(ValueError, match=r"X\[2\] is an empty string"):
        strings.check_strings(["a", "\u20ac", "", "b"], allow_empty=False)
