"""Gaussian kernel density estimates of every set of a block, on the tensor
grid of midpoint nodes or at arbitrary points, with or without reflection
in the faces of [0, 1]^l."""

import math

import numpy as np

# The Gaussian KDE kernel is cut at this many bandwidths (it is below
# exp(-18) of its peak beyond): grid nodes and mirror images farther away
# are skipped.
_KERNEL_REACH = 6.0
# Khatri-Rao rows (points x side^(l-1)) per product in 3 or more dimensions.
_KHATRI_RAO_ENTRIES = 1 << 20
# Kernel-matrix entries per chunk in the random-point KDE (8 MB).
_KDE_CHUNK = 1 << 20


def _fold(index, side):
    """Node index of the mirror image of node `index` (any integer) in the
    midpoint grid of `side` nodes: reflection in both faces, repeated."""
    index = np.mod(index, 2 * side)
    return np.where(index >= side, 2 * side - 1 - index, index)


def _grid_factors(x, h, side, reflect):
    """1-D Gaussian kernels k_h(node_a - x_i) at the midpoint nodes
    (a + 1/2) / side, shape (len(x), side).

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
    # fold onto the same node.
    flat = rows + (np.arange(n) * side)[None, :]
    out = np.bincount(flat.ravel(), weights=values.ravel(), minlength=n * side).reshape(n, side)
    out *= 1.0 / (math.sqrt(2.0 * math.pi) * h)
    return out


def _kde_on_grid(block, h, side, reflect):
    """Densities of every set of a block at the tensor grid nodes^l (C order),
    shape (n_sets, side^l). The Gaussian is a product over dimensions, so the
    sum over samples is one matrix product per set:
    p(a, b) = (1/n) sum_i K_1[i, a] K_2[i, b] (the first factors are combined
    into a Khatri-Rao product in 3 or more dimensions)."""
    values, offsets = block.values, block.offsets
    n_dims = values.shape[1]
    factors = [_grid_factors(values[:, d], h, side, reflect) for d in range(n_dims)]
    out = np.empty((len(block), side**n_dims))
    for s in range(len(block)):
        a, b = offsets[s], offsets[s + 1]
        if n_dims == 1:
            dens = factors[0][a:b].sum(axis=0)
        elif n_dims == 2:
            dens = factors[0][a:b].T @ factors[1][a:b]
        else:
            dens = 0.0
            step = max(1, _KHATRI_RAO_ENTRIES // side ** (n_dims - 1))
            for lo in range(a, b, step):
                hi = min(b, lo + step)
                left = factors[0][lo:hi]
                for K in factors[1:-1]:
                    left = (left[:, :, None] * K[lo:hi, None, :]).reshape(hi - lo, -1)
                dens = dens + left.T @ factors[-1][lo:hi]
        out[s] = dens.ravel()
        out[s] /= b - a
    return out


def _reflected(points, h):
    """points folded into [0, 1]^l (reflected in the faces, repeatedly),
    plus their mirror images in every face they are within reach of (images
    of images too, for the corners): as _grid_factors does on the grid."""
    reach = _KERNEL_REACH * h
    points = np.mod(points, 2.0)
    points = np.where(points > 1.0, 2.0 - points, points)
    for d in range(points.shape[1]):
        low = points[points[:, d] < reach]
        high = points[points[:, d] > 1.0 - reach]
        low = low.copy()
        low[:, d] = -low[:, d]
        high = high.copy()
        high[:, d] = 2.0 - high[:, d]
        points = np.concatenate([points, low, high])
    return points


def _kde_at_points(block, h, U, reflect):
    """Densities of every set of a block at arbitrary points U (n_e, l),
    shape (n_sets, n_e): squared distances by one matrix product per chunk of
    samples, then exp and a row sum."""
    values, offsets = block.values, block.offsets
    n_dims = values.shape[1]
    uu = np.einsum("ij,ij->i", U, U)
    scale = (2.0 * math.pi * h * h) ** (-0.5 * n_dims)
    step = max(1, _KDE_CHUNK // len(U))
    out = np.zeros((len(block), len(U)))
    for s in range(len(block)):
        points = values[offsets[s] : offsets[s + 1]]
        n = len(points)
        if reflect:
            points = _reflected(points, h)
        for start in range(0, len(points), step):
            P = points[start : start + step]
            G = U @ P.T
            G *= 2.0
            G -= uu[:, None]
            G -= np.einsum("ij,ij->i", P, P)[None, :]
            np.minimum(G, 0.0, out=G)  # rounding can make a squared distance negative
            G *= 0.5 / (h * h)
            np.exp(G, out=G)
            out[s] += G.sum(axis=1)
        out[s] *= scale / n
    return out
