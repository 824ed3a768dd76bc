"""Gaussian kernel density estimates of every set of a block, on the tensor
grid of midpoint nodes or at arbitrary points, with or without reflection
in the faces of [0, 1]^l.

A block is given as its points (values, shape (n_points, l), the sets one
after the other) and offsets (set s is values[offsets[s]:offsets[s + 1]],
every set non-empty). Nothing loops over the sets in Python: sums over the
points of each set are segment sums (bincount, reduceat) or batched matrix
products. Each set's estimate is summed in an order fixed by its own points
alone, so its bits do not depend on the other sets of the block (transforms
by chunks or Dask partitions give the same output).
"""

import math

import numpy as np

# The Gaussian KDE kernel is cut at this many bandwidths (it is below
# exp(-18) of its peak beyond): grid nodes and mirror images farther away
# are skipped.
_KERNEL_REACH = 6.0
# Khatri-Rao rows (points x side^(l-1)) per product in 3 or more dimensions.
_KHATRI_RAO_ENTRIES = 1 << 20
# Kernel-matrix entries per chunk in the random-point KDE (1 MB, up to twice
# that: a chunk's products, exp and sums stay in cache; 8 MB chunks were
# 1.3x slower), and the fixed height of its matrix products.
_KDE_CHUNK = 1 << 17
_PRODUCT_ROWS = 32
# Sets are padded with zero rows to the next size on this ladder, so that
# sets of close sizes share one batched product: sizes above 2^k are rounded
# up to a multiple of 2^(k - _PAD_LEVELS), at most 1 / 2^_PAD_LEVELS extra.
_PAD_LEVELS = 2


def _fold(index, side):
    """Node index of the mirror image of node `index` (any integer) in the
    midpoint grid of `side` nodes: reflection in both faces, repeated."""
    index = np.mod(index, 2 * side)
    return np.where(index >= side, 2 * side - 1 - index, index)


def _grid_factors(x, h, side, reflect, owner=None, n_owners=None):
    """1-D Gaussian kernels k_h(node_a - x_i) at the midpoint nodes
    (a + 1/2) / side, shape (len(x), side); with `owner` (an index per point,
    non-decreasing) their sums over the points of each owner instead, shape
    (n_owners, side).

    Only the nodes within _KERNEL_REACH bandwidths of each point are
    evaluated (a band of 2 reach + 1 nodes, often far fewer than `side`).
    With reflect, band nodes beyond a face fold back onto their mirror
    nodes: that sums the kernels of all the mirror images of x_i, so each
    point keeps its whole mass inside [0, 1]."""
    n = len(x)
    c = 1.0 / (side * h)  # node spacing in bandwidths
    reach = int(math.ceil(_KERNEL_REACH / c))
    nearest = np.rint(x * side - 0.5)
    delta = ((nearest + 0.5) / side - x) / h  # (node_nearest - x_i) / h, |delta| <= c / 2 in the cube
    values = np.empty((2 * reach + 1, n))
    if c <= 20.0:
        # exp(-(delta + k c)^2 / 2) = exp(-delta^2 / 2) exp(-delta c)^k exp(-k^2 c^2 / 2): two exps
        # per point instead of one per band node (exp is the costly part); |delta c k| stays below
        # 3 c + c^2 / 2, far from overflow for c <= 20.
        values[reach] = np.exp(-0.5 * delta * delta)
        up = np.exp(-delta * c)
        down = 1.0 / up
        for k in range(1, reach + 1):
            shrink = math.exp(-0.5 * c * c * (2 * k - 1))  # exp(-k^2 c^2/2) / exp(-(k-1)^2 c^2/2)
            np.multiply(values[reach + k - 1], up * shrink, out=values[reach + k])
            np.multiply(values[reach - k + 1], down * shrink, out=values[reach - k])
    else:  # bandwidth far below the node spacing: a narrow band, direct exps
        t = delta[None, :] + np.arange(-reach, reach + 1)[:, None] * c
        np.exp(-0.5 * t * t, out=values)
    rows = nearest.astype(np.int64)[None, :] + np.arange(-reach, reach + 1)[:, None]
    if reflect:
        low, high = int(rows.min()), int(rows.max())
        if high - low <= 8 * side:  # one gather from a small table beats mod and where
            rows = _fold(np.arange(low, high + 1), side)[rows - low]
        else:  # points far outside the cube
            rows = _fold(rows, side)
    else:
        inside = (rows >= 0) & (rows < side)
        values[~inside] = 0.0
        rows = np.clip(rows, 0, side - 1)
    # One scatter-add (bincount) for the whole band; several band nodes may
    # fold onto the same node, several points may have the same owner.
    if owner is None:
        owner, n_owners = np.arange(n), n
    flat = rows + (owner * side)[None, :]
    out = np.bincount(flat.ravel(), weights=values.ravel(), minlength=n_owners * side).reshape(n_owners, side)
    out *= 1.0 / (math.sqrt(2.0 * math.pi) * h)
    return out


def kde_on_grid(values, offsets, h, side, reflect):
    """Densities of every set at the tensor grid nodes^l (C order), shape
    (n_sets, side^l). The Gaussian is a product over dimensions, so in 1-D
    the sum over a set's samples is a segment sum of the 1-D kernels, and in
    l >= 2 dimensions a matrix product per set:
    p(a, b) = (1/n) sum_i K_1[i, a] K_2[i, b] (the first factors combined
    into a Khatri-Rao product in 3 or more dimensions)."""
    n_dims = values.shape[1]
    sizes = np.diff(offsets)
    if n_dims == 1:
        owner = np.repeat(np.arange(len(sizes)), sizes)
        out = _grid_factors(values[:, 0], h, side, reflect, owner, len(sizes))
    else:
        out = _summed_tensor_products(values, sizes, h, side, reflect)
    out /= sizes[:, None]
    return out


def _padded_sizes(sizes):
    """Each size rounded up on the _PAD_LEVELS ladder (it depends on that size only)."""
    step = np.left_shift(1, np.maximum(np.frexp(sizes)[1] - 1 - _PAD_LEVELS, 0))
    return -(-sizes // step) * step


def _summed_tensor_products(values, sizes, h, side, reflect):
    """For every set, the sum over its points of the tensor product of the
    1-D kernel factors of its coordinates, shape (n_sets, side^l) in C order.

    The sum of a set is left^T @ right over its points, left the Khatri-Rao
    product of all factors but the last. The factors are written straight
    into a padded layout: sets sorted by padded size, each set's rows
    followed by zero rows up to its padded size, so that the sets of one
    padded size form a stack of equal matrices for one batched product
    (np.matmul: one BLAS call per set, from C). The padded size, and the
    chunks of _KHATRI_RAO_ENTRIES that bound the memory in 3 or more
    dimensions, depend on the set's own size only, so its BLAS calls do not
    depend on the other sets."""
    n_dims = values.shape[1]
    width = side ** (n_dims - 1)  # columns of left
    padded = _padded_sizes(sizes)
    order = np.argsort(padded, kind="stable")
    slot = np.empty(len(sizes), dtype=np.int64)  # first padded row of each set
    slot[order] = np.concatenate([[0], np.cumsum(padded[order])[:-1]])
    first_point = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    point_set = np.repeat(np.arange(len(sizes)), sizes)
    padded_row = slot[point_set] + np.arange(len(values)) - first_point[point_set]
    n_padded = int(padded.sum())
    factors = [_grid_factors(values[:, d], h, side, reflect, padded_row, n_padded) for d in range(n_dims)]
    out = np.empty((len(sizes), width * side))
    step = max(1, _KHATRI_RAO_ENTRIES // width)  # rows per product
    group_first = np.flatnonzero(np.diff(padded[order], prepend=0))
    for first, stop in zip(group_first, np.append(group_first[1:], len(order))):
        n_rows = int(padded[order[first]])
        batch = max(1, _KHATRI_RAO_ENTRIES // (min(step, n_rows) * width))
        for begin in range(first, stop, batch):
            sets = order[begin : min(stop, begin + batch)]
            start = slot[sets[0]]
            stacks = [F[start : start + len(sets) * n_rows].reshape(len(sets), n_rows, side) for F in factors]
            total = 0.0
            for lo in range(0, n_rows, step):
                hi = min(n_rows, lo + step)
                left = stacks[0][:, lo:hi]
                for K in stacks[1:-1]:
                    left = (left[..., :, None] * K[:, lo:hi, None, :]).reshape(len(sets), hi - lo, -1)
                total = total + np.matmul(left.transpose(0, 2, 1), stacks[-1][:, lo:hi])
            out[sets] = total.reshape(len(sets), -1)
    return out


def _reflected(points, owner, h):
    """points folded into [0, 1]^l (reflected in the faces, repeatedly),
    plus their mirror images in every face they are within reach of (images
    of images too, for the corners), as _grid_factors does on the grid;
    with the owner of each (images belong to their point's owner)."""
    reach = _KERNEL_REACH * h
    points = np.mod(points, 2.0)
    points = np.where(points > 1.0, 2.0 - points, points)
    for d in range(points.shape[1]):
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
