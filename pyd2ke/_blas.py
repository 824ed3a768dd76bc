"""Dense products whose rows do not depend on the batch they are computed in.

A row of ``A @ B`` should depend only on that row of A and on B, so that
transforming objects one at a time, in chunks, or in Dask partitions of any
size gives the same bits. BLAS does not promise that. Measured with
single-threaded OpenBLAS:
- Haswell kernels: dgemm computes the last row of a product with an odd
  number of rows by another kernel (numpy uses a matrix-vector routine for a
  single row), and sgemm's results change with the number of rows and their
  alignment;
- SkylakeX (AVX-512) kernels: the columns past the last multiple of 8 go to
  an edge kernel, and products with few rows or few columns to a
  small-matrix kernel; each rounds differently from the main kernel.
So every product here is float64 dgemm on contiguous operands with an even
number of rows, at least 64 of them, and B padded by zero columns to a
multiple of 8, at least 32 (small inputs get zero rows): then each row is
computed by the main kernel, the same way whatever the batch (checked on
both kernel families for 1 to 2048 inner dimensions). float32 results are
rounded from the float64 ones. Callers limit BLAS to one thread with
one_blas_thread() (threaded dgemm splits work by size).
"""

import threading

import numpy as np
from threadpoolctl import ThreadpoolController

_controller = None
# The smallest shapes of a product (see the module docstring).
_MIN_ROWS = 64
_MIN_COLUMNS = 32
_COLUMN_MULTIPLE = 8


def one_blas_thread():
    """A context manager that limits BLAS to one thread while it is entered.

    ``threadpoolctl.threadpool_limits`` scans the loaded libraries on every
    call, about 4 ms, which dominated transforms of a few rows. The scan is
    done once here: the BLAS that matters is numpy's, loaded before pyd2ke.
    The limit is process-wide, so it is shared: the first caller to enter
    sets it, the last to leave restores what was there before (transforms
    overlapping on Python threads each saved the other's 1 as the original,
    and left the process at one BLAS thread for good).
    """
    return _ONE_BLAS_THREAD


class _SharedBlasLimit:
    """one_blas_thread's context manager: a count of the callers inside."""

    def __init__(self):
        self._lock = threading.Lock()
        self._holders = 0
        self._limit = None

    def __enter__(self):
        global _controller
        with self._lock:
            if self._holders == 0:
                if _controller is None:
                    _controller = ThreadpoolController()
                self._limit = _controller.limit(limits=1, user_api="blas")
            self._holders += 1

    def __exit__(self, *exc_info):
        with self._lock:
            self._holders -= 1
            if self._holders == 0:
                self._limit.restore_original_limits()
                self._limit = None


_ONE_BLAS_THREAD = _SharedBlasLimit()


def padded_width(n):
    """The width matmul_rows computes n columns in."""
    return max(_MIN_COLUMNS, -(-n // _COLUMN_MULTIPLE) * _COLUMN_MULTIPLE)


def pad_columns(B):
    """B as contiguous float64 with zero columns appended up to the width
    matmul_rows computes in: callers that multiply by one B many times pad it once."""
    B = np.ascontiguousarray(B, dtype=np.float64)
    n = B.shape[1]
    width = padded_width(n)
    if width == n:
        return B
    padded = np.zeros((B.shape[0], width))
    padded[:, :n] = B
    return padded


def product_rows(budget_bytes, row_bytes, high=8192):
    """Rows per block of products whose blocks take about budget_bytes at
    row_bytes a row: at least _MIN_ROWS, at most high, a multiple of 8. An
    odd count made matmul_rows pad every block and copy its product out of
    a fresh array (RandomMaclaurin: 221 rows a block, 8 % slower on one
    thread and 15 % on two than 256)."""
    rows = min(high, max(_MIN_ROWS, budget_bytes // max(1, row_bytes)))
    return max(_MIN_ROWS, rows - rows % 8)


def matmul_rows(A, B, out=None, columns=None):
    """A @ B for a dense 2-D A, every row computed the same way whatever len(A) is.

    B may come padded by pad_columns already (callers that multiply by one B
    many times pad it once: a copy of B per product costs about as much as a
    product of 64 rows); `columns` is then the number of its leading columns
    wanted (default: all of B's). Without `out` the result may be a view of a
    wider array (rows strided); `out` may have `columns` or the padded width.
    """
    dtype = np.result_type(A, B)
    A = np.ascontiguousarray(A, dtype=np.float64)
    m = A.shape[0]
    n = B.shape[1] if columns is None else columns
    B = pad_columns(B)
    rows = max(_MIN_ROWS, m + m % 2)
    if rows != m:
        padded = np.zeros((rows, A.shape[1]))
        padded[:m] = A
        A = padded
    if out is None:
        if dtype == np.float64:
            return np.matmul(A, B)[:m, :n]
        out = np.empty((m, n), dtype=dtype)
    if rows == m and out.shape[1] == B.shape[1] and out.dtype == np.float64 and out.flags.c_contiguous:
        np.matmul(A, B, out=out)
    else:
        out[...] = np.matmul(A, B)[:m, : out.shape[1]]
    return out
