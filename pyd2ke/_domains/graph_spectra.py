"""Spectral node embeddings of one graph too large for the core's dense
eigensolver: the basis-free columns of pyd2ke/_domains/graphs.py, from the
eigenpairs of each connected component.

A graph's matrix (I + N for the Laplacian, N = D^-1/2 A D^-1/2, or A) is
block diagonal over its components, so its extreme eigenpairs are those of
its components, merged. Splitting first matters for more than speed: from
one start vector, Lanczos finds one vector per eigenspace, and rounding
brings the others only sometimes. On the whole graph it returned 6 of the
50 copies of the top eigenvalue of 50 separate paths (and 5 of 7 for a
random graph with 7 components): columns of the wrong eigenvalues.

Each component is solved by what suits it:
- up to dense_max nodes: numpy's dense eigh, batched by size (every
  eigenpair, repeated ones included);
- a narrow band after reverse Cuthill-McKee (paths, cycles, ladders, long
  meshes): shift-invert Lanczos with a banded Cholesky factor. Their top
  eigenvalues crowd together (a path's are about 1/n^2 apart), where plain
  Lanczos needed 52,597 products for 3000 nodes (2.2 s, against 0.09 s) and
  did not end for 10,000. Their factor is as cheap as a few products;
- any other: Lanczos on the largest eigenvalues (expanders and other
  well-connected graphs, where it ends within a few thousand products and
  where a factor fills in: 61 s for a random 3-regular graph of 20,000
  nodes).
An eigenspace cut by one component's window of eigenpairs (only for the
components solved by Lanczos) is the one case whose columns still depend
on the node order.
"""

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, reverse_cuthill_mckee
from scipy.sparse.linalg import LinearOperator, eigsh

# Components whose reverse Cuthill-McKee bandwidth is at most this: shift-invert with a banded Cholesky
# (its cost, n * band^2, stays below a few hundred matrix products).
BANDED_MAX_BANDWIDTH = 64
# The shift above the largest eigenvalue, relative to the bound on it: below the gaps of a path of 10^5
# nodes (1e-9 took 40 solves there, 1e-6 took 194), well above the rounding of the factor.
SHIFT = 1e-9
# Relative accuracy of the rough search for copies Lanczos missed: far below the eigenvalue tolerance of
# graphs.py (1e-8), at a quarter to a half of the first solve's time (random graphs of 20,000 nodes, a grid).
CHECK_TOL = 1e-9
# Dense blocks are solved this many values at a time.
DENSE_BATCH_VALUES = 1 << 22


def spectral_matrix(graphs, g, laplacian):
    """The CSR matrix whose largest eigenvalues graph g's columns use: I + N
    (the smallest of the Laplacian I - N, as 2 - mu) or A."""
    n = int(graphs.node_offsets[g + 1] - graphs.node_offsets[g])
    e = slice(graphs.edge_offsets[g], graphs.edge_offsets[g + 1])
    A = sp.csr_matrix((graphs.weights[e], (graphs.rows[e], graphs.cols[e])), shape=(n, n))
    if not laplacian:
        return A
    degree = np.asarray(A.sum(axis=1)).ravel()
    inv = np.zeros(n)
    np.divide(1.0, np.sqrt(degree), out=inv, where=degree > 0)
    return (sp.identity(n, format="csr") + sp.diags(inv) @ A @ sp.diags(inv)).tocsr()


class _Eigenpairs:
    """Eigenpairs of c components of one size s: keys (c, t) ascending
    (2 - mu or -lambda: the column order), their nodes (c, s) and squared
    vectors (c, s, t)."""

    def __init__(self, keys, nodes, squares):
        self.keys, self.nodes, self.squares = keys, nodes, squares


def _start_vector(n):
    # Fixed (the result must not depend on a draw) and generic: from the
    # all-ones vector, the Krylov space misses eigenvectors that differ between
    # identical parts of a component.
    return 1.0 + 0.5 * np.sin(np.arange(n) * (2.0 * np.pi * 0.6180339887498949) + 0.3)


def _dense_components(M, label, local, components, size, keep, rtol):
    """Every eigenpair of the components (all of `size` nodes), batched; the
    first `keep` per component, and past them every one tied with the last kept
    in any component (so a window cut does not split an eigenspace here)."""
    slot = np.full(label.max() + 1, -1)
    slot[components] = np.arange(len(components))
    coo = M.tocoo()
    inside = slot[label[coo.row]] >= 0
    rows, cols, data = coo.row[inside], coo.col[inside], coo.data[inside]
    nodes = np.empty((len(components), size), dtype=np.int64)
    members = np.flatnonzero(slot[label] >= 0)
    nodes[slot[label[members]], local[members]] = members
    batch = max(1, DENSE_BATCH_VALUES // (size * size))
    out = []
    for first in range(0, len(components), batch):
        stop = min(first + batch, len(components))
        block = np.zeros((stop - first, size, size))
        here = (slot[label[rows]] >= first) & (slot[label[rows]] < stop)
        block[slot[label[rows[here]]] - first, local[rows[here]], local[cols[here]]] = data[here]
        values, vectors = np.linalg.eigh(block)  # ascending: the largest last
        values, vectors = values[:, ::-1], vectors[:, :, ::-1]
        t = min(keep, size)
        tie = rtol * max(1.0, float(np.abs(values[:, :t]).max()))
        while t < size and (np.abs(values[:, t] - values[:, t - 1]) <= tie).any():
            t += 1
        out.append(_Eigenpairs(values[:, :t], nodes[first:stop], vectors[:, :, :t] ** 2))
    return out


def _missed_copies(M, values, vectors, bound, rtol):
    """The k largest eigenpairs, with the copies of repeated eigenvalues that
    Lanczos missed. They are the largest eigenvalues of M once the found
    pairs are moved below its spectrum, sought from another start vector (the
    first one's Krylov space holds one vector of each eigenspace): first
    roughly (a Ritz value is a lower bound on the largest, and the rough search
    costs a fraction of the first), then exactly for each one above the k-th
    value. A tie with the k-th value is the window's cut, which stays."""
    n, k = vectors.shape
    tol = rtol * max(1.0, bound)
    start = np.random.default_rng(0).standard_normal(n)  # fixed: the result must not depend on a draw
    for _ in range(k):
        shift = values + bound + 1.0  # eigenvalue v -> -bound - 1

        def deflated(x, found=vectors, shift=shift):
            x = np.ravel(x)
            return M @ x - found @ (shift * (found.T @ x))

        operator = LinearOperator((n, n), matvec=deflated, dtype=np.float64)
        if eigsh(operator, k=1, which="LA", v0=start, tol=CHECK_TOL, return_eigenvectors=False)[0] \
                <= values.min() + tol:
            break
        more, more_vectors = eigsh(operator, k=1, which="LA", v0=start, tol=0)
        values, vectors = np.concatenate([values, more]), np.hstack([vectors, more_vectors])
        top = np.argsort(values)[::-1][:k]
        values, vectors = values[top], vectors[:, top]
    return values, vectors


def _largest_eigenpairs(M, k, laplacian, rtol):
    """The k largest eigenpairs of a connected component's matrix (values descending)."""
    n = M.shape[0]
    perm = reverse_cuthill_mckee(M, symmetric_mode=True)
    banded = M[perm][:, perm].tocoo()
    band = int(np.abs(banded.row - banded.col).max())
    # An upper bound on the spectrum: I + N's is 2, a non-negative A's its largest row sum.
    bound = 2.0 if laplacian else float(np.abs(M).sum(axis=1).max())
    if band > BANDED_MAX_BANDWIDTH:
        values, vectors = eigsh(M, k=k, which="LA", v0=_start_vector(n), tol=0)
        values, vectors = _missed_copies(M, values, vectors, bound, rtol)
    else:
        # Shifted just above the bound, sigma I - M is positive definite: Cholesky needs no pivoting and keeps
        # the band.
        sigma = bound + SHIFT * max(1.0, bound)
        upper = banded.row <= banded.col
        factor = np.zeros((band + 1, n))
        r, c = banded.row[upper], banded.col[upper]
        factor[band + r - c, c] = -banded.data[upper]
        factor[band] += sigma
        factor = scipy.linalg.cholesky_banded(factor)
        inverse = np.empty(n, dtype=np.intp)
        inverse[perm] = np.arange(n)

        def solve(x):  # (M - sigma I)^-1 x
            return -scipy.linalg.cho_solve_banded((factor, False), np.ravel(x)[perm])[inverse]

        values, vectors = eigsh(M, k=k, sigma=sigma, which="LM", v0=_start_vector(n), tol=0,
                                OPinv=LinearOperator((n, n), matvec=solve, dtype=np.float64))
    order = np.argsort(values)[::-1]
    return values[order], vectors[:, order]


def large_graph_columns(graphs, g, n_eigenvectors, laplacian, window, dense_max, rtol):
    """(n, n_eigenvectors) basis-free spectral columns of graph g from the
    `window` extreme eigenpairs of the graph, completed by every computed
    eigenpair tied with the last (across components)."""
    M = spectral_matrix(graphs, g, laplacian)
    n = M.shape[0]
    count, label = connected_components(M, directed=False)
    sizes = np.bincount(label, minlength=count)
    order = np.argsort(label, kind="stable")
    local = np.empty(n, dtype=np.int64)
    local[order] = np.arange(n) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    pieces = []
    for size in np.unique(sizes[sizes <= dense_max]):
        pieces += _dense_components(M, label, local, np.flatnonzero(sizes == size), int(size), window,
                                   rtol)
    starts = np.cumsum(sizes) - sizes
    for c in np.flatnonzero(sizes > dense_max):
        nodes = order[starts[c]:starts[c] + sizes[c]]
        values, vectors = _largest_eigenpairs(M[nodes][:, nodes], min(window, int(sizes[c]) - 1), laplacian,
                                             rtol)
        pieces.append(_Eigenpairs(values[None], nodes[None], (vectors ** 2)[None]))
    # Keys ascending in column order: the Laplacian's eigenvalues 2 - mu, or -lambda for the adjacency.
    keys = np.concatenate([(2.0 - p.keys if laplacian else -p.keys).ravel() for p in pieces])
    return _basis_free_columns(keys, pieces, n, n_eigenvectors, window, rtol)


def _basis_free_columns(keys, pieces, n, n_eigenvectors, window, rtol):
    """Column j < n_eigenvectors: sqrt(node i's squared norm in the eigenspace
    of the j-th key / that eigenspace's multiplicity), eigenspaces grouped
    across components by keys within rtol * max(1, |key|max)."""
    order = np.argsort(keys, kind="stable")
    ranked = keys[order]
    width = min(window, len(ranked))
    tol = rtol * max(1.0, float(np.abs(ranked[:width]).max()))
    while width < len(ranked) and ranked[width] - ranked[width - 1] <= tol:
        width += 1
    group = np.concatenate([[0], np.cumsum(np.diff(ranked[:width]) > tol)])
    d = min(n_eigenvectors, width)
    used = int(group[d - 1]) + 1
    multiplicity = np.bincount(group, minlength=used)[:used]
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(keys))
    energy = np.zeros((n, used))
    first = 0
    for p in pieces:
        c, t = p.keys.shape
        r = rank[first:first + c * t].reshape(c, t)
        first += c * t
        for j in range(t):
            g = np.where(r[:, j] < width, group[np.minimum(r[:, j], width - 1)], used)
            mine = g < used
            # Within a column j, each (node, eigenspace) pair occurs once: plain indexed addition is exact.
            energy[p.nodes[mine], g[mine, None]] += p.squares[mine, :, j]
    out = np.zeros((n, n_eigenvectors))
    out[:, :d] = np.sqrt(np.maximum(energy[:, group[:d]], 0.0) / multiplicity[group[:d]])
    return out
