"""The one place where the density package imports pyd2ke's private helper
modules (ragged containers, BLAS control, chunking, validation), so that
they can be re-pointed here alone when those modules change."""

from .._blas import matmul_rows, one_blas_thread
from .._chunks import check_chunk, chunk_bounds
from .._sets import PackedSets
from .._validation import (
    check_choice,
    check_dtype,
    check_finite_output,
    check_point_sets,
    check_positive_int,
    effective_n_threads,
)

__all__ = [
    "PackedSets",
    "check_choice",
    "check_chunk",
    "check_dtype",
    "check_finite_output",
    "check_point_sets",
    "check_positive_int",
    "chunk_bounds",
    "effective_n_threads",
    "matmul_rows",
    "one_blas_thread",
]
