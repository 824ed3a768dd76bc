"""Dense products whose rows do not depend on the batch they are computed in.

A row of ``A @ B`` should depend only on that row of A and on B, so that
transforming objects one at a time, in chunks, or in Dask partitions of any
size gives the same bits. BLAS does not promise that. Measured with
single-threaded OpenBLAS (Haswell kernels): dgemm computes the last row of a
product with an odd number of rows by another kernel (and numpy uses a
matrix-vector routine for a single row), and sgemm's results change with the
number of rows and their alignment. With OpenBLAS's SkylakeX (AVX-512)
kernels, the columns past the last multiple of 8 go to an edge kernel whose
results change with the number of rows. So products here run in float64 with
an even number of rows, contiguous operands and B padded with zero columns
to a multiple of 8; float32 results are rounded from them. Callers limit BLAS to one thread with one_blas_thread() (threaded
dgemm splits work by size).
"""

import numpy as np
from threadpoolctl import ThreadpoolController

_controller = None


def one_blas_thread():
    """A context manager that limits BLAS to one thread.

    ``threadpoolctl.threadpool_limits`` scans the loaded libraries on every
    call, about 4 ms, which dominated transforms of a few rows. The scan is
    done once here: the BLAS that matters is numpy's, loaded before pyd2ke.
    """
    global _controller
    if _controller is None:
        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")


# Columns of B are padded to a multiple of this (see the module docstring).
_COLUMN_MULTIPLE = 8


def matmul_rows(A, B, out=None):
    """A @ B for a dense 2-D A, every row computed the same way whatever len(A) is."""
    dtype = np.result_type(A, B)
    A = np.ascontiguousarray(A, dtype=np.float64)
    B = np.ascontiguousarray(B, dtype=np.float64)
    m, n = A.shape[0], B.shape[1]
    if out is None:
        out = np.empty((m, n), dtype=dtype)
    if n % _COLUMN_MULTIPLE:
        padded = np.zeros((B.shape[0], n + _COLUMN_MULTIPLE - n % _COLUMN_MULTIPLE))
        padded[:, :n] = B
        out[...] = matmul_rows(A, padded)[:, :n]
        return out
    even = m - m % 2
    if even:
        if out.dtype == np.float64:
            np.matmul(A[:even], B, out=out[:even])
        else:
            out[:even] = A[:even] @ B
    if m % 2:
        # The odd row goes through a two-row product with a zero row.
        pair = np.zeros((2, A.shape[1]))
        pair[0] = A[-1]
        out[-1] = (pair @ B)[0]
    return out
