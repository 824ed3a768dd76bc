"""Orthonormal bases of L2([0, 1]^l) (tensor products of cosines or of the
Fourier basis) and the multi-indices that pick |V| of their functions."""

import math

import numpy as np


def basis_indices(n_dims, size):
    """The `size` multi-indices alpha in {0, 1, ...}^n_dims of smallest
    |alpha|^2 (ties in lexicographic order): the paper's V = {alpha :
    sum alpha_j^2 <= t} (s = 1) with t just large enough."""
    K = 1
    while True:
        grid = np.indices((K + 1,) * n_dims).reshape(n_dims, -1).T
        norms = (grid * grid).sum(axis=1)
        if np.count_nonzero(norms <= K * K) >= size:
            break
        K += 1
    order = np.lexsort([grid[:, d] for d in reversed(range(n_dims))] + [norms])
    return np.ascontiguousarray(grid[order[:size]], dtype=np.int64)


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
