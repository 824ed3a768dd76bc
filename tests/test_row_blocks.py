"""Row blocks on threads (pyd2ke._parallel): the blocks a chunk's rows are
cut into, and the finite check of a dense input on the transform's threads."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyd2ke
from pyd2ke._parallel import all_rows_finite, row_blocks


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 5000), max_rows=st.integers(1, 1100), n_threads=st.integers(1, 17),
       multiple=st.sampled_from([1, 8]))
def test_row_blocks_cover_the_rows_in_a_multiple_of_the_threads(n, max_rows, n_threads, multiple):
    blocks = row_blocks(n, max_rows, n_threads, multiple)
    assert [start for start, _ in blocks] == [0, *[stop for _, stop in blocks]][: len(blocks)]
    assert (blocks[-1][1] if blocks else 0) == n
    sizes = [stop - start for start, stop in blocks]
    assert all(size > 0 for size in sizes)
    assert all(size % multiple == 0 for size in sizes[:-1])
    full = sizes[:-1] if n % multiple else sizes
    assert not full or max(full) - min(full) <= multiple
    assert max(sizes, default=0) <= -(-max_rows // multiple) * multiple
    # As many blocks for every thread, unless the rows are too few for that.
    assert len(blocks) % n_threads == 0 or len(blocks) == -(-n // multiple)


def test_row_blocks_of_a_chunk_keep_two_threads_equally_busy():
    # RandomMaclaurin's 4096-row chunks at 216 rows a block: 19 blocks before.
    blocks = row_blocks(4096, 216, 2)
    assert len(blocks) == 20 and {stop - start for start, stop in blocks} == {200, 208}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("rows", [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_all_rows_finite_equals_numpy(dtype, rows, threads):
    # Rows of 64 KiB: 16 rows a block, so the bad values straddle block edges.
    A = np.random.default_rng(rows).normal(size=(rows, 8192)).astype(dtype)
    assert all_rows_finite(A, threads)
    for bad in (np.nan, np.inf, -np.inf):
        for row in {0, rows // 2, 15, 16, rows - 1} & set(range(rows)):
            B = A.copy()
            B[row, -1] = bad
            assert not all_rows_finite(B, threads)


@pytest.mark.parametrize("make", [lambda: pyd2ke.RandomMaclaurin(64, random_state=0, n_jobs=2),
                                  lambda: pyd2ke.HashedRandomFourier(n_components=64, random_state=0, n_jobs=2)],
                         ids=["RandomMaclaurin", "HashedRandomFourier"])
def test_the_first_missing_row_is_named_whichever_thread_finds_one(make):
    X = np.random.default_rng(0).normal(size=(4000, 512))
    estimator = make().fit(X[:100])
    X[3900, 5] = np.nan
    X[17, 300] = np.inf
    with pytest.raises(ValueError, match=r"X\[17\] has a missing \(NaN\) or infinite value in column 300"):
        estimator.transform(X)
