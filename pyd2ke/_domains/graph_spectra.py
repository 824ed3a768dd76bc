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
- up to dense_max nodes (300): numpy's dense eigh, batched by size (every
  eigenpair, repeated ones included);
- up to DENSE_SUBSET_MAX_NODES (2000): LAPACK's dense solver for the
  largest eigenpairs only. Lanczos (ARPACK) missed copies of repeated
  eigenvalues there, failed on graphs with few distinct eigenvalues
  (complete multipartite graphs) and, restarting from its own random
  vectors, gave other features on each call;
- larger, with a narrow band after reverse Cuthill-McKee (paths, cycles,
  ladders, long meshes): shift-invert Lanczos with a banded Cholesky
  factor. Their top eigenvalues crowd together (a path's are about 1/n^2
  apart), where plain Lanczos needed 52,597 products for 3000 nodes (2.2 s,
  against 0.09 s) and did not end for 10,000;
- larger, with few distinct eigenvalues (a star, a hypercube: the Krylov
  space of the start vector closes within KRYLOV_PROBE_STEPS steps): the
  dense solver, up to DENSE_FALLBACK_MAX_NODES;
- any other: Lanczos on the largest eigenvalues (well-connected graphs,
  where it ends within a few thousand products and where a factor fills
  in: 61 s for a random 3-regular graph of 20,000 nodes), then a search for
  the copies of repeated eigenvalues it missed.
An eigenspace cut by a sparsely solved component's window of eigenpairs is
the one case whose columns may still depend on the node order.
"""

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, reverse_cuthill_mckee
from scipy.sparse.linalg import ArpackError, LinearOperator, eigsh

from .._validation import warn_user

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
# Components up to this many nodes: a dense solver for their largest eigenpairs only (LAPACK's dsyevr on a
# subset: 0.05 s at 1000 nodes, 0.3 s at 2000, one thread). Lanczos (ARPACK) missed copies of repeated
# eigenvalues there (a ternary tree of 1093 nodes: columns off by 0.013), failed on graphs with few distinct
# eigenvalues (complete multipartite graphs: "No shifts could be applied") and, restarting from its own
# random vectors, gave other features on each call.
DENSE_SUBSET_MAX_NODES = 2000
# A larger component whose Krylov space from the start vector closes within this many steps has few distinct
# eigenvalues (a star's three): the dense solver too, up to DENSE_FALLBACK_MAX_NODES (about 20 s at 8000).
KRYLOV_PROBE_STEPS = 32
DENSE_FALLBACK_MAX_NODES = 8000


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
    vectors (c, s, t); complete when every copy of the last one's eigenvalue
    is among them (the dense solvers'), not when a sparse solver's window may
    have cut its eigenspace."""

    def __init__(self, keys, nodes, squares, complete=True):
        self.keys, self.nodes, self.squares, self.complete = keys, nodes, squares, complete


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


def _dense_largest(M, k, rtol):
    """The k largest eigenpairs of a component by a dense solver (values
    descending), and every further one tied with the k-th."""
    n = M.shape[0]
    A = M.toarray()
    t = min(n, k + 16)
    values, vectors = scipy.linalg.eigh(A, subset_by_index=[n - t, n - 1], driver="evr")
    kept = _tied_count(values[::-1], k, rtol)
    # dsyevr may return fewer than asked in tight clusters (K(50, 300): 23 of 26), and ties may run past the
    # subset (a star's): then the whole spectrum, once (doubling the subset redid the reduction each time:
    # 42 s for a star of 4000 nodes, against 4 s).
    if len(values) != t or (kept == t < n):
        values, vectors = np.linalg.eigh(A)
    values, vectors = values[::-1], vectors[:, ::-1]
    kept = _tied_count(values, k, rtol)
    return values[:kept], vectors[:, :kept]


def _tied_count(values, k, rtol):
    """k, or more while the next of the descending values ties with the last kept."""
    tie = rtol * max(1.0, float(np.abs(values).max(initial=0.0)))
    kept = min(k, len(values))
    while kept < len(values) and values[kept - 1] - values[kept] <= tie:
        kept += 1
    return kept


def _krylov_closes(M, steps):
    """Whether the Krylov space of the start vector is invariant within
    `steps` steps: M then has at most that many distinct eigenvalues with a
    component in it (a generic vector has one in every eigenspace)."""
    basis = np.empty((steps, M.shape[0]))
    v = _start_vector(M.shape[0])
    scale = None
    for j in range(steps):
        basis[j] = v / np.linalg.norm(v)
        w = M @ basis[j]
        scale = np.linalg.norm(w) if scale is None else max(scale, np.linalg.norm(w))
        for _ in range(2):  # twice: Gram-Schmidt keeps the basis orthogonal to rounding
            w -= basis[:j + 1].T @ (basis[:j + 1] @ w)
        if np.linalg.norm(w) <= 1e-10 * max(scale, 1e-300):
            return True
        v = w
    return False


def _missed_copies(M, values, vectors, bound, rtol):
    """The k largest eigenpairs, with the copies of repeated eigenvalues that
    Lanczos missed. They are the largest eigenvalues of M once the found
    pairs are moved below its spectrum, sought from other start vectors (one
    start vector's Krylov space holds one vector of each eigenspace): first
    roughly (a Ritz value is a lower bound on the largest, and the rough search
    costs a fraction of the first), then exactly for each one above the k-th
    value. A tie with the k-th value is the window's cut, which stays."""
    n, k = vectors.shape
    tol = rtol * max(1.0, bound)
    draws = np.random.default_rng(0)  # fixed: the result must not depend on a draw
    for _ in range(k):
        # A new start vector each round: from the last one, the Krylov space holds
        # no direction of an eigenspace beyond the copy just found.
        start = draws.standard_normal(n)
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
    """The k largest eigenpairs of a connected component's matrix (values
    descending), and whether they are complete (see _Eigenpairs)."""
    n = M.shape[0]
    if n <= DENSE_SUBSET_MAX_NODES or (n <= DENSE_FALLBACK_MAX_NODES and _krylov_closes(M, KRYLOV_PROBE_STEPS)):
        return (*_dense_largest(M, k, rtol), True)
    perm = reverse_cuthill_mckee(M, symmetric_mode=True)
    banded = M[perm][:, perm].tocoo()
    band = int(np.abs(banded.row - banded.col).max())
    # An upper bound on the spectrum: I + N's is 2, a non-negative A's its largest row sum.
    bound = 2.0 if laplacian else float(np.abs(M).sum(axis=1).max())
    try:
        if band <= BANDED_MAX_BANDWIDTH:
            values, vectors = _shift_invert(M, k, perm, banded, band, bound, laplacian)
        else:
            values, vectors = eigsh(M, k=k, which="LA", v0=_start_vector(n), tol=0)
            values, vectors = _missed_copies(M, values, vectors, bound, rtol)
    except ArpackError as error:
        if n > DENSE_FALLBACK_MAX_NODES:
            raise RuntimeError(f"the sparse eigensolver failed on a connected component of {n} nodes ({error}), "
                               "too large for the dense one") from error
        return (*_dense_largest(M, k, rtol), True)
    order = np.argsort(values)[::-1]
    return values[order], vectors[:, order], False


def _shift_invert(M, k, perm, banded, band, bound, laplacian):
    """Shift-invert Lanczos with a banded Cholesky factor of sigma I - M
    (positive definite: no pivoting, the band kept), sigma just above the
    largest eigenvalue. I + N's is 2; the adjacency's is found by bisection
    between 0 and its bound, since a factor exists exactly when sigma is above
    it (a row-sum bound of 4 for a largest eigenvalue of 3.41, on a 3 x 10000
    grid, took 76 s where the found one takes well under a second)."""
    n = M.shape[0]
    upper = banded.row <= banded.col
    r, c = banded.row[upper], banded.col[upper]
    lower_band = np.zeros((band + 1, n))
    lower_band[band + r - c, c] = -banded.data[upper]

    def factor(sigma):
        shifted = lower_band.copy()
        shifted[band] += sigma
        return scipy.linalg.cholesky_banded(shifted)

    margin = SHIFT * max(1.0, bound)
    sigma = bound + margin
    chol = factor(sigma)
    if not laplacian:
        low = 0.0
        while sigma - low > margin:
            middle = 0.5 * (low + sigma)
            try:
                chol, sigma = factor(middle), middle
            except np.linalg.LinAlgError:
                low = middle
    inverse = np.empty(n, dtype=np.intp)
    inverse[perm] = np.arange(n)

    def solve(x):  # (M - sigma I)^-1 x
        return -scipy.linalg.cho_solve_banded((chol, False), np.ravel(x)[perm])[inverse]

    return eigsh(M, k=k, sigma=sigma, which="LM", v0=_start_vector(n), tol=0,
                 OPinv=LinearOperator((n, n), matvec=solve, dtype=np.float64))


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
        values, vectors, complete = _largest_eigenpairs(M[nodes][:, nodes], min(window, int(sizes[c]) - 1),
                                                        laplacian, rtol)
        pieces.append(_Eigenpairs(values[None], nodes[None], (vectors ** 2)[None], complete))
    # Keys ascending in column order: the Laplacian's eigenvalues 2 - mu, or -lambda for the adjacency.
    keys = np.concatenate([(2.0 - p.keys if laplacian else -p.keys).ravel() for p in pieces])
    # Eigenvalues within rtol * max(1, |lambda|max) are one eigenspace: the Laplacian's |lambda|max is taken
    # as its bound, 2 (the dense solver of smaller graphs sees the whole spectrum, whose top is 2 for a
    # bipartite component and near it for most others); the adjacency's is its top, the first key.
    scale = 2.0 if laplacian else max(1.0, float(np.abs(keys).max(initial=0.0)))
    columns, cut = _basis_free_columns(keys, pieces, n, n_eigenvectors, window, rtol * scale)
    if cut is not None:
        warn_user(f"a graph of {n} nodes has a connected component of {cut} nodes with more copies of one of "
                  f"its {n_eigenvectors} extreme eigenvalues than the {window} eigenpairs computed there (a star "
                  f"or a complete bipartite graph of that size): its node embeddings then depend on the node "
                  f"order (components of up to {DENSE_FALLBACK_MAX_NODES} nodes with few distinct eigenvalues "
                  f"are exact)")
    return columns


def _basis_free_columns(keys, pieces, n, n_eigenvectors, window, tol):
    """Column j < n_eigenvectors: sqrt(node i's squared norm in the eigenspace
    of the j-th key / that eigenspace's multiplicity), eigenspaces grouped
    across components by keys within tol; and the size of an incomplete
    piece whose last eigenpair lies in a used eigenspace (which may then miss
    copies), or None."""
    order = np.argsort(keys, kind="stable")
    ranked = keys[order]
    width = min(window, len(ranked))
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
    cut = None
    for p in pieces:
        c, t = p.keys.shape
        r = rank[first:first + c * t].reshape(c, t)
        first += c * t
        if not p.complete and r[0, -1] < width and group[r[0, -1]] < used:
            cut = p.nodes.shape[1]
        for j in range(t):
            g = np.where(r[:, j] < width, group[np.minimum(r[:, j], width - 1)], used)
            mine = g < used
            # Within a column j, each (node, eigenspace) pair occurs once: plain indexed addition is exact.
            energy[p.nodes[mine], g[mine, None]] += p.squares[mine, :, j]
    out = np.zeros((n, n_eigenvectors))
    out[:, :d] = np.sqrt(np.maximum(energy[:, group[:d]], 0.0) / multiplicity[group[:d]])
    return out, cut
