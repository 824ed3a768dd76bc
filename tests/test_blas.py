"""matmul_rows: a row of A @ B comes out with the same bits whatever batch
it is computed in (the BLAS kernels pick paths by shape; see pyd2ke._blas)."""

import numpy as np
import pytest

from pyd2ke._blas import matmul_rows, one_blas_thread, pad_columns, product_rows


@pytest.mark.parametrize("k", [1, 2, 3, 30, 500])
@pytest.mark.parametrize("n", [1, 7, 8, 9, 16, 24, 31, 32, 33, 200])
def test_rows_do_not_depend_on_the_batch(k, n):
    rng = np.random.default_rng(k * 1000 + n)
    A, B = rng.normal(size=(301, k)), rng.normal(size=(k, n))
    with one_blas_thread():
        whole = matmul_rows(A, B)
        np.testing.assert_allclose(whole, A @ B, rtol=1e-12, atol=1e-12 * np.abs(A @ B).max())
        for start, stop in [(0, 1), (5, 6), (300, 301), (3, 5), (0, 63), (1, 65), (64, 129), (2, 300)]:
            assert np.array_equal(matmul_rows(A[start:stop], B), whole[start:stop]), (start, stop)


def test_out_float32_and_padded_width():
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(9, 5)), rng.normal(size=(5, 13))
    exact = matmul_rows(A, B)
    out32 = matmul_rows(A, B, out=np.empty((9, 13), dtype=np.float32))
    assert np.array_equal(out32, exact.astype(np.float32))
    padded = pad_columns(B)
    assert padded.shape == (5, 32) and np.array_equal(padded[:, :13], B) and not padded[:, 13:].any()
    wide = matmul_rows(A, padded, out=np.empty((9, 32)))
    assert np.array_equal(wide[:, :13], exact) and not wide[:, 13:].any()


@pytest.mark.parametrize("budget, row_bytes, high, rows", [
    (1 << 20, 592 * 8, 8192, 216),  # RandomMaclaurin's 221 rows, down to a multiple of 8
    (1 << 20, 1 << 20, 8192, 64),   # at least 64 rows
    (1 << 30, 8, 8192, 8192),       # at most high
    (1 << 20, 0, 8192, 8192),
    (1 << 30, 8, 100, 96),
])
def test_product_rows_are_a_multiple_of_8_within_the_bounds(budget, row_bytes, high, rows):
    assert product_rows(budget, row_bytes, high) == rows


def test_overlapping_blas_limits_restore_the_original():
    """A deployment trial: transforms overlapping on Python threads each
    saved the other's limit of 1 as the original, and the process was left
    at one BLAS thread for good. Entered, entered again, left in the
    opposite order: the limit holds until the last one leaves."""
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas_threads():
        return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]

    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        first, second = one_blas_thread(), one_blas_thread()
        first.__enter__()
        second.__enter__()
        assert set(blas_threads()) <= {1}
        first.__exit__(None, None, None)
        assert set(blas_threads()) <= {1}  # the second is still inside
        second.__exit__(None, None, None)
        assert blas_threads() == before
