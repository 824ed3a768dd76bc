"""Orthonormal bases of L2([0, 1]^l) (tensor products of cosines or of the
Fourier basis) and the multi-indices that pick |V| of their functions."""

import math

import numpy as np

from .. import _core
from .._blas import matmul_rows, pad_columns


def basis_indices(n_dims, size):
    """The `size` multi-indices alpha in {0, 1, ...}^n_dims of smallest
    |alpha|^2 (ties in lexicographic order): the paper's V = {alpha :
    sum alpha_j^2 <= t} (s = 1) with t just large enough."""
    if n_dims > 3:  # a grid of (K + 1)^n_dims indices: 3 GB at 24 dimensions with K = 1
        return _indices_by_norm(n_dims, size)
    # No K below size^(1/l) - 1 can hold `size` indices ((K + 1)^l < size):
    # counting up from 1 took time quadratic in size in one dimension.
    K = max(1, int(size ** (1.0 / n_dims)) - 1)
    while True:
        grid = np.indices((K + 1,) * n_dims).reshape(n_dims, -1).T
        norms = (grid * grid).sum(axis=1)
        if np.count_nonzero(norms <= K * K) >= size:
            break
        K += 1
    order = np.lexsort([grid[:, d] for d in reversed(range(n_dims))] + [norms])
    return np.ascontiguousarray(grid[order[:size]], dtype=np.int64)


def _indices_by_norm(n_dims, size):
    """basis_indices without a grid: the indices of |alpha|^2 = 0, 1, 2, ...
    in turn, each level in lexicographic order, until `size` are found (in
    many dimensions the levels are dense, so few are needed)."""
    found, t = [], 0
    while len(found) < size:
        found.extend(_indices_of_norm(n_dims, t))
        t += 1
    return np.array(found[:size], dtype=np.int64).reshape(size, n_dims)


def _indices_of_norm(n_dims, t):
    """Every alpha in {0, 1, ...}^n_dims with sum alpha_j^2 = t, in
    lexicographic order."""
    out = []

    def extend(prefix, remaining, dims_left):
        if remaining == 0:
            out.append(prefix + (0,) * dims_left)
            return
        if dims_left == 0 or remaining > dims_left * math.isqrt(remaining) ** 2:
            return  # too much left for the coordinates left
        for v in range(math.isqrt(remaining) + 1):
            extend(prefix + (v,), remaining - v * v, dims_left - 1)

    extend((), t, n_dims)
    return out


def _basis_1d(t, k, basis):
    """Orthonormal basis functions of L2([0, 1]) number k at t: (len(t), len(k))."""
    t = t[:, None]
    if basis == "cosine":
        values = math.sqrt(2.0) * np.cos(np.pi * t * k[None, :])
    else:  # Fourier: 1, sqrt2 cos(2 pi t), sqrt2 sin(2 pi t), sqrt2 cos(4 pi t), ...
        freq = (k[None, :] + 1) // 2
        phase = 2.0 * np.pi * t * freq
        values = math.sqrt(2.0) * np.where(k[None, :] % 2 == 1, np.cos(phase), np.sin(phase))
    values[:, k == 0] = 1.0
    return values


def basis_matrix(points, indices, basis="cosine"):
    """Tensor-product basis functions phi_alpha(u) = prod_d phi_{alpha_d}(u_d),
    shape (n_points, n_indices)."""
    out = np.ones((points.shape[0], indices.shape[0]))
    for d in range(points.shape[1]):
        out *= _basis_1d(points[:, d], indices[:, d], basis)
    return out


def projection(points, indices, basis, weight, grid_side=None):
    """The map from functions at the integration points (rows) to their
    weighted projections weight * sum_u f(u) phi_alpha(u) on the basis
    functions of `indices`: a GridProjection on a grid of two or more
    dimensions where the core has vector kernels (one axis at a time), or
    in three or more dimensions anyway; else one dense product with the
    basis matrix (BLAS wins where the grid is one axis)."""
    n_dims = points.shape[1]
    if grid_side is not None and (n_dims >= 3 or (n_dims == 2 and _core.build_info()["simd"] != "scalar")):
        return GridProjection(grid_side, indices, basis, weight)
    return DenseProjection(basis_matrix(points, indices, basis) * weight)


class DenseProjection:
    """rows @ the basis matrix (scaled), each row computed the same way
    whatever the batch (matmul_rows)."""

    def __init__(self, matrix):
        self.n_basis = matrix.shape[1]
        self.padded = pad_columns(matrix)

    def __call__(self, rows):
        return matmul_rows(rows, self.padded, columns=self.n_basis)


class GridProjection:
    """The projections of functions at the midpoint grid of [0, 1]^l on
    tensor basis functions, one axis at a time in the core
    (``features/density_project.hpp``): for l = 2 on 32^2 nodes with 100
    functions about 15 thousand multiply-adds a row against 102 thousand
    for the dense product, for l = 3 (14^3 nodes, 1000 functions) 24 times
    fewer. Measured on 640 rows (AVX-512): 0.4 ms against 1.3 ms for the
    dense product with OpenBLAS, and 4.8 ms against 29 ms for l = 3."""

    def __init__(self, side, indices, basis, weight):
        self.side, self.n_dims = int(side), indices.shape[1]
        m = int(indices.max()) + 1
        nodes = (np.arange(self.side) + 0.5) / self.side
        self.table = np.ascontiguousarray(_basis_1d(nodes, np.arange(m), basis))
        self.cells = np.ascontiguousarray(np.ravel_multi_index(tuple(indices.T), (m,) * self.n_dims), dtype=np.int64)
        self.weight = float(weight)

    def __call__(self, rows):
        rows = np.ascontiguousarray(rows, dtype=np.float64)
        out = np.empty((len(rows), len(self.cells)))
        _core.density_project_grid_into(rows, self.n_dims, self.side, self.table, self.cells, self.weight, out)
        return out
