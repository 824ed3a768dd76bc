"""Gaussian kernel density estimates of every set of a block, on the tensor
grid of midpoint nodes or at arbitrary points, with or without reflection
in the faces of [0, 1]^l.

A block is given as its points (values, shape (n_points, l), the sets one
after the other) and offsets (set s is values[offsets[s]:offsets[s + 1]],
every set non-empty). Each set's estimate is summed in an order fixed by its
own points alone, so its bits do not depend on the other sets of the block
(transforms by chunks or Dask partitions give the same output).

On the grid (the default) the core computes the estimates
(``features/density_grid.hpp``) without holding the GIL: the estimator runs
its blocks on Python threads, and as numpy code this step held the GIL for
two thirds of the time the blocks held it. At arbitrary points
(integration="random") nothing loops over the sets in Python: the sums over
the points of each set are segment sums (reduceat) of batched products.
"""

import math

import numpy as np

from .. import _core

# The Gaussian KDE kernel is cut at this many bandwidths (it is below
# exp(-18) of its peak beyond): mirror images farther away are skipped (the
# core's grid estimate cuts at the same reach).
_KERNEL_REACH = 6.0
# Kernel-matrix entries per chunk in the random-point KDE (1 MB, up to twice
# that: a chunk's products, exp and sums stay in cache; 8 MB chunks were
# 1.3x slower), and the fixed height of its matrix products.
_KDE_CHUNK = 1 << 17
_PRODUCT_ROWS = 32


def kde_on_grid(values, offsets, h, side, reflect):
    """Densities of every set at the tensor grid nodes^l (C order), shape
    (n_sets, side^l): the Gaussian of width h is a product over dimensions,
    each 1-D kernel cut at 6 bandwidths and, with reflect, folded back at
    the faces of the cube (the kernels of the point's mirror images), so
    that each point keeps its whole mass inside [0, 1]^l."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    out = np.empty((len(offsets) - 1, side ** values.shape[1]))
    _core.kde_on_grid_into(values, offsets, float(h), int(side), bool(reflect), out)
    return out


# More mirror images than this per sample (3-D has at most 27) is refused.
_MAX_IMAGES_PER_SAMPLE = 32


def _reflected(points, owner, h):
    """points folded into [0, 1]^l (reflected in the faces, repeatedly),
    plus their mirror images in every face they are within reach of (images
    of images too, for the corners), as the core does on the grid;
    with the owner of each (images belong to their point's owner)."""
    reach = _KERNEL_REACH * h
    points = np.mod(points, 2.0)
    points = np.where(points > 1.0, 2.0 - points, points)
    n_samples, n_dims = points.shape
    for d in range(n_dims):
        if len(points) > max(_MAX_IMAGES_PER_SAMPLE * n_samples, 1 << 20):
            # Up to 3^l images a sample: 27 in 3-D, 59049 in 10-D (34 GB of sums for 1000 samples).
            raise ValueError(
                f"boundary='reflect' in {n_dims} dimensions: the mirror images of {n_samples} samples in the "
                f"faces of [0, 1]^{n_dims} within the kernel's reach pass {len(points)} after {d} of the "
                f"{n_dims} dimensions (up to 3^{n_dims} a sample): pass boundary='none', or fewer dimensions")
        low = points[:, d] < reach
        high = points[:, d] > 1.0 - reach
        mirrored_low = points[low]
        mirrored_low[:, d] = -mirrored_low[:, d]
        mirrored_high = points[high]
        mirrored_high[:, d] = 2.0 - mirrored_high[:, d]
        points = np.concatenate([points, mirrored_low, mirrored_high])
        owner = np.concatenate([owner, owner[low], owner[high]])
    return points, owner


def _pieces(sizes, max_rows):
    """Cut consecutive segments of `sizes` rows into pieces of at most
    max_rows rows, at multiples of max_rows from each segment's own start.
    Returns the pieces' first rows and the first piece of each segment."""
    n_pieces = -(-sizes // max_rows)
    first_piece = np.concatenate([[0], np.cumsum(n_pieces)[:-1]])
    segment = np.repeat(np.arange(len(sizes)), n_pieces)
    rank = np.arange(int(n_pieces.sum())) - first_piece[segment]
    segment_start = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return segment_start[segment] + rank * max_rows, first_piece


def kde_at_points(values, offsets, h, U, reflect):
    """Densities of every set at arbitrary points U (n_e, l), shape
    (n_sets, n_e).

    The squared distances |u|^2 + |x|^2 - 2 u.x of all samples (and mirror
    images) of the block come from products of rows [x, 1, -|x|^2] with
    [2u, -|u|^2, 1]^T; then exp, and segment sums over the rows of each set
    (reduceat). A set's sum does not depend on the other sets of the block:
    the products have a fixed height of _PRODUCT_ROWS rows (BLAS rounds a
    row differently with the height of the product, not with its place in
    it), and the rows are cut into pieces per set at offsets of the set's
    own (see _pieces).
    """
    n_dims = values.shape[1]
    sizes = np.diff(offsets)
    owner = np.repeat(np.arange(len(sizes)), sizes)
    points = values
    if reflect:
        points, owner = _reflected(values, owner, h)
        order = np.argsort(owner, kind="stable")  # each set's rows together, in their own order
        points = points[order]
        rows_per_set = np.bincount(owner, minlength=len(sizes))
    else:
        rows_per_set = sizes
    # Zero rows at the end, so that every product takes _PRODUCT_ROWS rows.
    lifted = np.zeros((len(points) + _PRODUCT_ROWS, n_dims + 2))
    lifted[: len(points), :n_dims] = points
    lifted[: len(points), n_dims] = 1.0
    lifted[: len(points), n_dims + 1] = -np.einsum("ij,ij->i", points, points)
    targets = np.empty((n_dims + 2, len(U)))
    targets[:n_dims] = 2.0 * U.T
    targets[n_dims] = -np.einsum("ij,ij->i", U, U)
    targets[n_dims + 1] = 1.0
    # Chunks of whole pieces: those starting in [k max_rows, (k + 1) max_rows),
    # at most 2 max_rows rows.
    max_rows = _PRODUCT_ROWS * max(1, _KDE_CHUNK // (_PRODUCT_ROWS * len(U)))
    piece_start, first_piece = _pieces(rows_per_set, max_rows)
    piece_sums = np.empty((len(piece_start), len(U)))
    chunk_first = np.flatnonzero(np.diff(piece_start // max_rows, prepend=-1))
    chunk_bounds = np.append(chunk_first, len(piece_start))
    buffer = np.empty((2 * max_rows + _PRODUCT_ROWS, len(U)))
    for p, q in zip(chunk_bounds[:-1], chunk_bounds[1:]):
        lo = piece_start[p]
        hi = piece_start[q] if q < len(piece_start) else len(points)
        for row in range(lo, hi, _PRODUCT_ROWS):
            np.matmul(lifted[row : row + _PRODUCT_ROWS], targets, out=buffer[row - lo : row - lo + _PRODUCT_ROWS])
        G = buffer[: hi - lo]  # minus the squared distances
        np.minimum(G, 0.0, out=G)  # rounding can make a squared distance negative
        G *= 0.5 / (h * h)
        np.exp(G, out=G)
        piece_sums[p:q] = np.add.reduceat(G, piece_start[p:q] - lo, axis=0)
    out = np.add.reduceat(piece_sums, first_piece, axis=0)
    out *= ((2.0 * math.pi * h * h) ** (-0.5 * n_dims) / sizes)[:, None]
    return out
