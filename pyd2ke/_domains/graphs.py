"""Graphs: undirected weighted graphs, each a square symmetric adjacency
matrix (scipy.sparse or dense, weights >= 0), optionally with node labels
(non-negative integers, or categories mapped to integers at fit) or node
attributes (rows of floats), or a networkx graph; compared by the Earth Mover's distance between their sets of node
embeddings (Wu et al., "Scalable Global Alignment Graph Kernel Using Random
Features: From Node Embedding to Graph Embedding", KDD 2019: RGE).

A graph becomes a document of the documents domain: its words are the node
embeddings, with uniform weights, and the distance is that domain's exact EMD
(EmdEngine). Node embedding of node i in a graph of n nodes:

    [ spectral part (n_eigenvectors) | label one-hot * label_scale | attributes ]

Spectral part: the eigenvectors of the normalised Laplacian
I - D^-1/2 A D^-1/2 for its n_eigenvectors smallest eigenvalues (matrix
"laplacian"), or of A for its largest (matrix "adjacency"), in absolute value
(an eigenvector's sign is arbitrary); zero columns when n < n_eigenvectors.

Degenerate eigenvalues: within an eigenspace of dimension m > 1 an
eigensolver may return any orthonormal basis, and which one changes with the
node order. Each column j of such an eigenspace is therefore replaced by the
basis-free value sqrt(sum_k V[i, k]^2 / m) over the whole eigenspace (the
norm of node i's projection on it, spread evenly over its m columns); for a
simple eigenvalue this is |V[i, j]|. The whole eigenspace counts even when
it straddles the n_eigenvectors cut. Eigenvalues closer than
EIGEN_RTOL * max(1, |lambda|max) are treated as equal. So node embeddings
of a permuted graph are the permuted node embeddings (to rounding), and
features do not depend on node order. (Graphs above DENSE_MAX_NODES nodes
are solved by connected component, in graph_spectra.py: a component solved
by a sparse method gives n_eigenvectors + WINDOW_EXTRA eigenpairs, and an
eigenspace it cuts cannot be completed there. There, |lambda|max of the
Laplacian is taken as its bound, 2.)

Categorical node labels (strings or any hashable value, in networkx's
"label" attribute or a (adjacency, labels) pair) are mapped to integers at
fit (encode_categorical_labels; the estimator keeps the vocabulary as
node_label_vocabulary_); at transform a label the fit data did not have
goes to one extra label of its own. pairwise_distances codes X's and Y's
with one vocabulary of both. Categories and integer labels in one
collection are refused (their codes would collide).

Labels: node label l is a one-hot column l, scaled by label_scale. An engine
built over some graphs (pairwise_distances' Y, the representatives of RSM)
has one column per label up to their largest plus one "other" column, where
labels it has not seen go: Euclidean distances to its node vectors are then
exactly those of one-hot vectors over all labels, whatever the labels of X.
"""

import numbers
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from .. import _core
from .._parallel import current_threads, run_row_blocks
from .._ragged import Ragged
from .._validation import (
    as_list,
    check_choice,
    check_non_negative_real,
    check_positive_int,
    is_missing,
    real_array,
    row_labels,
    table_column,
)
from .base import Domain, Metric
from .documents import EmdEngine
from .graph_spectra import large_graph_columns

# Node embeddings: N_EIGENVECTORS eigenvectors of MATRIX, one-hot labels scaled by LABEL_SCALE.
N_EIGENVECTORS, MATRIX, LABEL_SCALE = 6, "laplacian", 0.5
MATRICES = ("laplacian", "adjacency")
# Random graphs: U{MIN_NODES..MAX_NODES} node vectors, drawn by SAMPLER.
MIN_NODES, MAX_NODES, SAMPLER = 1, 20, "anchor"
SAMPLERS = ("uniform", "anchor")
# Fit graphs whose node embeddings set the range of sampler "uniform".
RANGE_SAMPLE = 1024
# Labels are column indices of a one-hot code: bounded so the code stays small.
MAX_LABEL = (1 << 16) - 1
# Eigenvalues closer than this (relative to max(1, spectral radius)) are one eigenspace.
EIGEN_RTOL = 1e-8
# Graphs (and, in a larger graph, connected components) up to this many nodes: a dense eigensolver (the core's,
# numpy's); larger components: WINDOW_EXTRA more extreme eigenpairs than columns, by scipy's eigsh.
DENSE_MAX_NODES = 300
WINDOW_EXTRA = 4
# Relative asymmetry tolerated (and removed by averaging with the transpose).
SYMMETRY_RTOL = 1e-10


class NodeVectors(NamedTuple):
    """A random graph: its node vectors (n_nodes, width) with weights (n_nodes,)."""

    vectors: np.ndarray
    weights: np.ndarray


class Graphs:
    """Checked graphs packed into flat arrays: graph g has nodes
    node_offsets[g]:node_offsets[g+1] and edges (both directions, local node
    indices) edge_offsets[g]:edge_offsets[g+1]; node_data holds one label per
    node (int64), one attribute row per node (float64), or is None.

    Not a Ragged: a graph owns two runs, its nodes and its edges, where a
    Ragged item owns one run of rows. It offers the same container protocol
    as Ragged (len, contiguous slices, total_size, lengths: nodes per graph),
    which is all that chunking and packing ask of either."""

    __slots__ = ("cols", "edge_offsets", "kind", "node_data", "node_offsets", "rows", "weights")

    def __init__(self, node_offsets, edge_offsets, rows, cols, weights, node_data, kind):
        self.node_offsets = node_offsets
        self.edge_offsets = edge_offsets
        self.rows, self.cols, self.weights = rows, cols, weights
        self.node_data = node_data
        self.kind = kind  # "structure", "labels" or "attributes"

    def __len__(self):
        return len(self.node_offsets) - 1

    def total_size(self):
        return int(self.node_offsets[-1] - self.node_offsets[0])

    def lengths(self):
        """Nodes per graph."""
        return np.diff(self.node_offsets)

    @property
    def flavour(self):
        if self.kind == "attributes":
            return ("attributes", int(self.node_data.shape[1]))
        return (self.kind, 0)

    def __getitem__(self, index):
        """A slice (Graphs, O(1)) or one graph in the input format: CSR
        adjacency, or (adjacency, node labels or attributes)."""
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("Graphs supports contiguous slices only")
            stop = max(start, stop)
            n0, n1 = self.node_offsets[start], self.node_offsets[stop]
            e0, e1 = self.edge_offsets[start], self.edge_offsets[stop]
            return Graphs(self.node_offsets[start:stop + 1] - n0, self.edge_offsets[start:stop + 1] - e0,
                          self.rows[e0:e1], self.cols[e0:e1], self.weights[e0:e1],
                          None if self.node_data is None else self.node_data[n0:n1], self.kind)
        g = range(len(self))[index]
        n = int(self.node_offsets[g + 1] - self.node_offsets[g])
        e = slice(self.edge_offsets[g], self.edge_offsets[g + 1])
        adjacency = sp.csr_matrix((self.weights[e], (self.rows[e], self.cols[e])), shape=(n, n))
        if self.node_data is None:
            return adjacency
        return adjacency, self.node_data[self.node_offsets[g]:self.node_offsets[g + 1]].copy()

    def take(self, indices):
        return pack_graphs([self[int(i)] for i in indices], "graphs")

    def to_list(self):
        return [self[i] for i in range(len(self))]


def _networkx_adjacency(graph, label):
    """The adjacency matrix (CSR, in the order of graph.nodes) of a networkx graph."""
    import networkx as nx

    if graph.is_directed():
        raise ValueError(f"{label} is a directed networkx graph; graphs must be undirected")
    if graph.number_of_nodes() == 0:
        raise ValueError(f"{label} is empty: a graph needs at least one node")
    try:
        return nx.to_scipy_sparse_array(graph, nodelist=list(graph.nodes), weight="weight", format="csr")
    except (TypeError, ValueError) as error:  # a "weight" that is not a number
        raise ValueError(f"{label} has an edge 'weight' that is not a number ({error})") from None


def _from_networkx(graph, label):
    """(adjacency, labels or None) of a networkx graph; labels from the node
    attribute "label" when every node has an integer one."""
    adjacency = _networkx_adjacency(graph, label)
    nodes = list(graph.nodes)
    labels = [graph.nodes[v].get("label") for v in nodes]
    if nodes and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in labels):
        return adjacency, np.asarray(labels, dtype=np.int64)
    # Categorical labels are encoded before this point (encode_categorical_labels):
    # whatever labels are left are not to be dropped in silence.
    for v, value in zip(nodes, labels):
        if value is None and any(other is not None for other in labels):
            raise ValueError(f"{label} node {v!r} has no 'label' while other nodes have one; label every node")
        if value is not None:
            raise ValueError(f"{label} node {v!r} has label {value!r}; node labels here must be integers")
    return adjacency, None


def _is_networkx(obj):
    return type(obj).__module__.startswith("networkx")


def _raw_labels(g, label):
    """The node labels of one graph as given, when they are categories
    (strings or other non-numeric values), else None."""
    if _is_networkx(g):
        values = [g.nodes[v].get("label") for v in g.nodes]
        if not values or all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
            return None
        if all(v is None for v in values):
            return None
        for v, value in zip(g.nodes, values):
            if value is None:
                raise ValueError(f"{label} node {v!r} has no 'label' while other nodes have one; label every node")
            if isinstance(value, (float, np.floating)):
                # Each value would be a category of its own, and every new value at transform one unseen category.
                raise TypeError(f"{label} node {v!r} has the label {value!r}, a float; node labels are categories "
                                f"(integers, strings): pass real node attributes as (adjacency, a 2-D array "
                                f"(n_nodes, dim)) pairs")
        return values
    if isinstance(g, (tuple, list)) and len(g) == 2 and not isinstance(g, NodeVectors):
        data = _by_node(g[1], label)
        if type(data).__module__.startswith("pandas"):  # a Series or Categorical of labels, in node order
            data = list(data)
        if isinstance(data, dict):  # {node: label}, GraKeL's form: nodes 0 .. n-1 of the adjacency
            if set(data) != set(range(len(data))):
                raise ValueError(f"{label} node labels are a dict whose keys are not the nodes 0 .. "
                                 f"{len(data) - 1}; pass them as a list in node order")
            data = [data[j] for j in range(len(data))]
        if isinstance(data, (list, tuple)) or (isinstance(data, np.ndarray) and data.dtype.kind in "OUS"):
            values = list(data)
            if values and not all(isinstance(v, (numbers.Real, np.number)) and not isinstance(v, bool)
                                  for v in values):
                for j, value in enumerate(values):
                    if is_missing(value):
                        raise ValueError(f"{label} node {j} label is missing ({value!r}); label every node")
                return values
    return None


def _has_node_labels(g):
    """Whether a graph without categorical labels has numeric node labels
    (a networkx "label" attribute, or 1-D node data)."""
    if _is_networkx(g):
        return any(g.nodes[v].get("label") is not None for v in g.nodes)
    if isinstance(g, (tuple, list)) and len(g) == 2 and not isinstance(g, NodeVectors):
        return np.ndim(g[1]) == 1
    return False


def _refuse_one_pair(X, name):
    """A TypeError for one (adjacency, node data) pair given as X: its two
    parts would be read as two graphs, the node data as a bad adjacency."""
    if not (isinstance(X, tuple) and len(X) == 2 and (sp.issparse(X[0]) or np.ndim(X[0]) == 2)):
        return
    n, data = X[0].shape[0], np.shape(X[1])
    if (len(data) == 1 and data[0] == n) or (len(data) == 2 and data[0] == n and data[1] != n):
        raise TypeError(f"{name} must be a sequence of graphs, got one (adjacency, node data) pair "
                        f"(wrap it in a list: [{name}])")


def _graph_list(X, name):
    """X as a list when it is a sequence of graphs that may carry categories
    (a list or tuple, a pandas Series or one-column DataFrame, a 1-D object
    array), else None (a Graphs container, or one graph, which check_graphs
    refuses by name)."""
    _refuse_one_pair(X, name)
    if isinstance(X, (list, tuple)):
        return list(X)
    if isinstance(X, Graphs):
        return None
    X = table_column(X, name)
    if type(X).__module__.startswith("pandas") or (isinstance(X, np.ndarray) and X.dtype == object and X.ndim == 1):
        return list(X)
    return None


def encode_categorical_labels(X, vocabulary, fitting, name="X"):
    """Graphs whose node labels are categories (strings, any hashable value),
    with the labels as integers. Fitting, the vocabulary is built from X
    (the labels sorted by repr -> 0..k-1); otherwise the fitted vocabulary
    maps them and every label it has not seen goes to bucket k, one extra
    one-hot column that they share (the random graphs carry only the fit
    labels, so two unseen labels are alike to them anyway). Returns
    (graphs, vocabulary: a list of labels, or None when X has no
    categorical labels). Graphs without categories pass unchanged."""
    listed = _graph_list(X, name)
    if listed is None:
        return X, vocabulary
    X = listed
    raw = [_raw_labels(g, f"{name}[{i}]") for i, g in enumerate(X)]
    if all(r is None for r in raw):
        if not fitting and vocabulary is not None and len(X):
            raise ValueError(f"{name} has integer or no node labels, but the fit data had categorical labels "
                             f"({vocabulary[:3]}...); pass the same kind of labels")
        return X, vocabulary if not fitting else None
    if not fitting and vocabulary is None:
        raise ValueError(f"{name} has categorical node labels, but the fit data had integer or no node labels; "
                         "fit on graphs labelled the same way")
    if fitting:
        try:
            labels = sorted({v for r in raw if r is not None for v in r}, key=repr)
        except TypeError as error:
            raise TypeError(f"{name} has node labels that are not hashable: {error}") from None
        vocabulary = labels
    index = {v: i for i, v in enumerate(vocabulary)}
    unseen = len(vocabulary)
    out = []
    for i, (g, r) in enumerate(zip(X, raw)):
        if r is None:
            if _has_node_labels(g):  # integers would collide with the categories' codes
                first = next(j for j, other in enumerate(raw) if other is not None)
                raise ValueError(f"{name} mixes categorical node labels ({name}[{first}]: {raw[first][0]!r}, ...) "
                                 f"and numeric ones ({name}[{i}]); pass one kind (str(label) makes every label "
                                 f"a category)")
            out.append(g)  # no labels (or attributes): pack_graphs says if the kinds are mixed
            continue
        codes = np.array([index.get(v, unseen) for v in r], dtype=np.int64)
        adjacency = _networkx_adjacency(g, f"{name}[{i}]") if _is_networkx(g) else g[0]
        out.append((adjacency, codes))
    return out, vocabulary


def _adjacency(a, label):
    """(rows, cols, weights) of a checked square non-negative adjacency
    matrix, and n (its symmetry is checked with all graphs', by _canonical_edges)."""
    if sp.issparse(a):
        if a.ndim != 2:
            raise ValueError(f"{label} adjacency has {a.ndim} dimensions; expected a square matrix")
        if a.dtype == object or not (np.issubdtype(a.dtype, np.number) or a.dtype == bool) \
                or np.issubdtype(a.dtype, np.complexfloating):
            raise TypeError(f"{label} adjacency has dtype {a.dtype}, expected real weights")
        n, m = a.shape
        if a.format == "csr":  # read as it is: a conversion costs more than the rest of the check
            rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(a.indptr))
            cols, weights = a.indices.astype(np.int64), a.data
        else:
            coo = a.tocoo()
            rows, cols, weights = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
        weights = weights.astype(np.float64)
    else:
        a = real_array(a, f"{label} adjacency", "edge weights must be real")
        if a.ndim != 2:
            raise ValueError(f"{label} adjacency has {a.ndim} dimensions; expected a square matrix (n_nodes, n_nodes)")
        n, m = a.shape
        a = a.astype(np.float64, copy=False)
        rows, cols = np.nonzero(a)
        weights = a[rows, cols]
        rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    if n != m:
        raise ValueError(f"{label} adjacency has shape ({n}, {m}); it must be square (n_nodes, n_nodes)")
    if n == 0:
        raise ValueError(f"{label} is empty: a graph needs at least one node")
    if not np.isfinite(weights).all():
        raise ValueError(f"{label} adjacency contains NaN or infinity")
    if (weights < 0).any():
        k = int(np.argmax(weights < 0))
        raise ValueError(f"{label} adjacency has weight {float(weights[k])!r} on edge ({rows[k]}, {cols[k]}); "
                         "weights must be >= 0")
    return rows, cols, np.asarray(weights, dtype=np.float64), n


def _canonical_edges(node_offsets, edge_counts, rows, cols, weights, name):
    """The edges of all graphs at once (local indices, graph after graph) in
    canonical form: duplicates summed, zeros dropped, sorted by (graph, row,
    col), symmetric. An asymmetry up to SYMMETRY_RTOL of the graph's largest
    weight is removed by averaging with the transpose; a larger one is an
    error naming the graph. One sort over all edges: per graph, scipy's
    sparse conversions cost about a millisecond each."""
    n_graphs = len(node_offsets) - 1
    edge_graph = np.repeat(np.arange(n_graphs), edge_counts)
    base = node_offsets[edge_graph]
    n_total = max(int(node_offsets[-1]), 1)
    key = (base + rows) * n_total + (base + cols)  # global (row, col), row-major
    key, weights, edge_graph = _summed_by_key(key, weights, edge_graph)
    transposed = (key % n_total) * n_total + key // n_total
    where = np.minimum(np.searchsorted(key, transposed), max(len(key) - 1, 0))
    mirror = np.where(key[where] == transposed, weights[where], 0.0) if len(key) else weights
    diff = np.abs(weights - mirror)
    if diff.any():
        scale = np.zeros(n_graphs)
        np.maximum.at(scale, edge_graph, weights)
        bad = diff > SYMMETRY_RTOL * np.maximum(scale[edge_graph], np.finfo(np.float64).tiny)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            g = int(edge_graph[k])
            r, c = divmod(int(key[k]), n_total)
            r, c = r - int(node_offsets[g]), c - int(node_offsets[g])
            raise ValueError(f"{name}[{g}] adjacency is not symmetric (entries ({r}, {c}) and ({c}, {r}) "
                             "differ); graphs must be undirected")
        # Tiny asymmetries: (A + A^T) / 2, over the union of both patterns.
        key, weights, edge_graph = _summed_by_key(np.concatenate([key, transposed]),
                                                  np.concatenate([weights, weights]) * 0.5,
                                                  np.concatenate([edge_graph, edge_graph]))
    rows, cols = np.divmod(key, n_total)
    base = node_offsets[edge_graph]
    edge_offsets = np.searchsorted(edge_graph, np.arange(n_graphs + 1)).astype(np.int64)
    return edge_offsets, rows - base, cols - base, weights


def _summed_by_key(key, weights, owner):
    """Entries sorted by key (stable: duplicates summed in input order), zeros dropped."""
    order = np.argsort(key, kind="stable")
    key, weights, owner = key[order], weights[order], owner[order]
    if len(key):
        first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        key, weights, owner = key[first], np.add.reduceat(weights, first), owner[first]
    keep = weights != 0
    return key[keep], weights[keep], owner[keep]


def _by_node(data, label):
    """Node data given as a pandas Series or DataFrame, read by its index
    when that is the nodes 0 .. n-1 in another order (as a dict {node:
    label} is); with another index, a ValueError (reading it by position
    would give each node another node's label)."""
    index = row_labels(data) if type(data).__module__.startswith("pandas") else None
    if index is None:
        return data
    nodes = np.asarray(index)
    if nodes.dtype.kind in "iu" and np.array_equal(nodes, np.arange(len(nodes))):
        return data
    if nodes.dtype.kind in "iu" and np.array_equal(np.sort(nodes), np.arange(len(nodes))):
        return data.sort_index()
    raise ValueError(f"{label} node data is a pandas {type(data).__name__} whose index is not the nodes 0 .. "
                     f"{len(nodes) - 1}: it would be read by position. Index it by node, or pass .to_numpy() "
                     f"for data in node order")


def _node_data(data, n, label):
    """("labels", int64 (n,)) or ("attributes", float64 (n, dim))."""
    d = real_array(_by_node(data, label), f"{label} node data", "node attributes must be real")
    if d.ndim == 1:
        whole = np.issubdtype(d.dtype, np.floating) and np.isfinite(d).all() and (d == np.round(d)).all()
        if (d.dtype == bool or not np.issubdtype(d.dtype, np.integer)) and not whole:
            raise TypeError(f"{label} node labels have dtype {d.dtype}; labels are integers "
                                "(use a 2-D array (n_nodes, dim) for real attributes)")
        if len(d) != n:
            raise ValueError(f"{label} has {n} nodes but {len(d)} node labels; one label per node")
        if len(d) and (d.min() < 0 or d.max() > MAX_LABEL):
            bad = d[(d < 0) | (d > MAX_LABEL)][0]
            raise ValueError(f"{label} has node label {int(bad)}; labels must be integers in [0, {MAX_LABEL}] "
                             "(map other labels with numpy.unique(..., return_inverse=True), or pass them as strings, which "
                             "are categories)")
        return "labels", d.astype(np.int64)
    if d.ndim != 2:
        raise ValueError(f"{label} node data has {d.ndim} dimensions; expected labels (n_nodes,) or "
                         "attributes (n_nodes, dim)")
    if d.shape[0] != n:
        raise ValueError(f"{label} has {n} nodes but {d.shape[0]} rows of node attributes; one row per node")
    if d.shape[1] == 0:
        raise ValueError(f"{label} node attributes have no columns")
    if not np.isfinite(d).all():
        raise ValueError(f"{label} node attributes contain NaN or infinity")
    return "attributes", d.astype(np.float64)


def pack_graphs(items, name):
    """Checked graphs (a list in the input format) packed into Graphs.
    Dense matrices, bare or with integer labels, are read by the core in
    parallel; anything else (or a bad value) by the loop below, which names
    the graph."""
    fast = _core.pack_dense_graphs(items, MAX_LABEL, current_threads())
    if fast is not None:
        node_counts, edge_counts, rows, cols, weights, labels, symmetric = fast
        # Exactly symmetric: each graph's nonzeros, row-major, are canonical already.
        return _graphs_from_edges(node_counts, edge_counts, rows, cols, weights, labels,
                                  "structure" if labels is None else "labels", name, canonical=symmetric)
    n_graphs = len(items)
    node_counts = np.zeros(n_graphs, dtype=np.int64)
    edge_counts = np.zeros(n_graphs, dtype=np.int64)
    rows, cols, weights, data = [], [], [], []
    kind, dim = None, None
    for i, g in enumerate(items):
        label = f"{name}[{i}]"
        node_data = None
        if _is_networkx(g):
            g, node_data = _from_networkx(g, label)
        elif isinstance(g, (tuple, list)) and not isinstance(g, NodeVectors):
            if len(g) != 2:
                raise TypeError(f"{label} is a {type(g).__name__} of {len(g)} items; a graph is an adjacency "
                                "matrix or a pair (adjacency, node labels or attributes)")
            g, node_data = g
        elif isinstance(g, (str, bytes, NodeVectors)) or not (sp.issparse(g) or hasattr(g, "__array__")
                                                              or isinstance(g, (list, tuple))):
            raise TypeError(f"{label} is {type(g).__name__}; a graph is an adjacency matrix (scipy.sparse or "
                            "dense), a pair (adjacency, node data) or a networkx graph")
        r, c, w, n = _adjacency(g, label)
        this_kind, values = ("structure", None) if node_data is None else _node_data(node_data, n, label)
        if kind is None:
            kind = this_kind
        elif this_kind != kind:
            raise ValueError(f"{label} has {this_kind.replace('structure', 'no node data')}, but {name}[0] has "
                             f"{kind.replace('structure', 'no node data')}; all graphs must have the same kind")
        if kind == "attributes":
            if dim is not None and values.shape[1] != dim:
                raise ValueError(f"{label} has node attributes of dimension {values.shape[1]}, but {name}[0]'s "
                                 f"are {dim}")
            dim = values.shape[1]
        node_counts[i], edge_counts[i] = n, len(w)
        rows.append(r)
        cols.append(c)
        weights.append(w)
        if values is not None:
            data.append(values)
    cat = lambda parts, dtype: np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)
    node_data = np.concatenate(data, axis=0) if data else None
    return _graphs_from_edges(node_counts, edge_counts, cat(rows, np.int64), cat(cols, np.int64),
                              cat(weights, np.float64), node_data, kind, name)


def _graphs_from_edges(node_counts, edge_counts, rows, cols, weights, node_data, kind, name, canonical=False):
    """Graphs from their node and edge counts and their edges (local
    indices, graph after graph), the edges made canonical unless they are."""
    node_offsets = np.r_[0, np.cumsum(node_counts)].astype(np.int64)
    if canonical:
        edge_offsets = np.r_[0, np.cumsum(edge_counts)].astype(np.int64)
    else:
        edge_offsets, rows, cols, weights = _canonical_edges(node_offsets, edge_counts, rows, cols, weights, name)
    _check_degrees_finite(node_offsets, edge_offsets, rows, weights, name)
    return Graphs(node_offsets, edge_offsets, rows, cols, weights, node_data, kind)


def _check_degrees_finite(node_offsets, edge_offsets, rows, weights, name):
    """Weighted degrees must be finite: weights near the largest float passed
    the finiteness check, then their sums overflowed to inf and every node
    embedding came out 0 or sqrt(1/n)."""
    if not len(weights) or np.isfinite(weights.max() * max(1, np.diff(edge_offsets).max())):
        return  # no degree can overflow
    owner = np.repeat(np.arange(len(edge_offsets) - 1), np.diff(edge_offsets))
    degrees = np.zeros(int(node_offsets[-1]))
    np.add.at(degrees, node_offsets[owner] + rows, weights)
    if not np.isfinite(degrees).all():
        g = int(np.searchsorted(node_offsets, np.flatnonzero(~np.isfinite(degrees))[0], side="right") - 1)
        raise ValueError(f"{name}[{g}] has edge weights whose sums overflow float64 (largest weight "
                         f"{weights.max():.3g}): rescale them")


def check_graphs(X, name="X", dtype=None):
    """A non-empty list of graphs (see the module docstring), packed into Graphs."""
    if isinstance(X, Graphs):
        if len(X) == 0:
            raise ValueError(f"{name} is empty: at least one graph is required")
        return X
    if sp.issparse(X) or _is_networkx(X) or (isinstance(X, np.ndarray) and X.ndim == 2):
        raise TypeError(f"{name} must be a sequence of graphs, got a single {type(X).__name__} "
                        "(wrap one graph in a list)")
    _refuse_one_pair(X, name)
    X = as_list(X, name, "graphs (adjacency matrices, (adjacency, node data) pairs or networkx graphs)", "graph")
    return pack_graphs(X, name)


# ---------------------------------------------------------------- node embeddings


def spectral_embeddings(graphs, n_eigenvectors, matrix, n_threads=1):
    """(total_nodes, n_eigenvectors) spectral node embeddings of Graphs: by
    the core for graphs up to DENSE_MAX_NODES nodes (dense eigensolver, in
    parallel over graphs, without the GIL; numpy's batched eigh on Python
    threads scaled 1.4x on 16 cores), and above, one by one, by connected
    component (graph_spectra.py). Each graph's rows are the same whichever
    thread computes them."""
    laplacian = matrix == "laplacian"
    out = np.zeros((graphs.total_size(), n_eigenvectors))
    as_int64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
    _core.graph_spectral_into(as_int64(graphs.node_offsets), as_int64(graphs.edge_offsets), as_int64(graphs.rows),
                              as_int64(graphs.cols), np.ascontiguousarray(graphs.weights, dtype=np.float64),
                              laplacian, DENSE_MAX_NODES, EIGEN_RTOL, out, max(1, n_threads))
    large = np.flatnonzero(graphs.lengths() > DENSE_MAX_NODES)
    base = graphs.node_offsets[0]

    def work(start, stop, state):
        for g in large[start:stop]:
            first = int(graphs.node_offsets[g] - base)
            out[first:first + int(graphs.node_offsets[g + 1] - graphs.node_offsets[g])] = \
                large_graph_columns(graphs, int(g), n_eigenvectors, laplacian, n_eigenvectors + WINDOW_EXTRA,
                                    DENSE_MAX_NODES, EIGEN_RTOL)

    if len(large):
        run_row_blocks(work, [(i, i + 1) for i in range(len(large))], max(1, n_threads))
    return out


def node_embeddings(graphs, n_eigenvectors=N_EIGENVECTORS, matrix=MATRIX, label_scale=LABEL_SCALE,
                    label_columns=None, n_threads=1):
    """The graphs as documents: a Ragged of node embeddings (total_nodes,
    width) with uniform weights. label_columns: width of the one-hot code,
    whose last column takes every label >= label_columns - 1 (None: one
    column per label up to the largest, plus that column)."""
    parts = [spectral_embeddings(graphs, n_eigenvectors, matrix, n_threads)]
    if graphs.kind == "labels":
        labels = graphs.node_data
        if label_columns is None:
            label_columns = int(labels.max(initial=0)) + 2
        onehot = np.zeros((len(labels), label_columns))
        onehot[np.arange(len(labels)), np.minimum(labels, label_columns - 1)] = label_scale
        parts.append(onehot)
    elif graphs.kind == "attributes":
        parts.append(graphs.node_data)
    values = np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]
    offsets = graphs.node_offsets - graphs.node_offsets[0]
    return Ragged(np.ascontiguousarray(values), offsets.astype(np.int64), np.ones(len(values)))


def check_embedding_params(params):
    """n_eigenvectors, matrix, label_scale with their defaults."""
    out = {"n_eigenvectors": N_EIGENVECTORS, "matrix": MATRIX, "label_scale": LABEL_SCALE, **params}
    check_positive_int(out["n_eigenvectors"], "n_eigenvectors", maximum=4096)
    check_choice(out["matrix"], "matrix", set(MATRICES))
    check_non_negative_real(out["label_scale"], "label_scale")
    return out


class GraphEmdEngine:
    """EMD between node-embedding sets: an EmdEngine over the objects'
    node embeddings (graphs, or NodeVectors drawn by a sampler); X's graphs
    are embedded a chunk at a time with the same parameters."""

    def __init__(self, objects, params, dtype):
        self._params = check_embedding_params(params)
        if isinstance(objects, (list, tuple)) and objects and all(isinstance(o, NodeVectors) for o in objects):
            docs = [(np.asarray(o.vectors, dtype=np.float64), np.asarray(o.weights, dtype=np.float64))
                    for o in objects]
        else:
            docs = node_embeddings(check_graphs(objects, "graphs"), **self._params, n_threads=current_threads())
        self._emd = EmdEngine(docs, dtype)
        self._width = docs.dim if isinstance(docs, Ragged) else docs[0][0].shape[1]

    def _embed(self, X, n_threads):
        columns = None
        if X.kind == "labels":
            columns = self._width - self._params["n_eigenvectors"]
            if columns < 1:
                raise ValueError("X has node labels, but the graphs it is compared with have none")
        return node_embeddings(X, **self._params, label_columns=columns, n_threads=n_threads)

    def distances_into(self, X, out, n_threads):
        self._emd.distances_into(self._embed(X, n_threads), out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        self._emd.features_into(self._embed(X, n_threads), gamma, kernel, out, n_threads)


def draw_random_graphs(X, n, rng, sampler=SAMPLER, min_nodes=MIN_NODES, max_nodes=MAX_NODES,
                       n_eigenvectors=N_EIGENVECTORS, matrix=MATRIX, label_scale=LABEL_SCALE):
    """n random graphs as NodeVectors of U{min_nodes..max_nodes} nodes with uniform weights.

    sampler "uniform" (RGE's data-independent random graphs): every
    coordinate uniform between its smallest and largest value over the node
    embeddings of (up to RANGE_SAMPLE) fit graphs; the one-hot label columns
    uniform in [0, label_scale], the "other" column 0. "anchor" (RGE's anchor
    sub-graphs, data-dependent): a fit graph drawn uniformly, an anchor node
    drawn uniformly in it, and the node embeddings (computed on the whole fit
    graph) of the anchor and its nearest nodes in breadth-first order (ties in
    random order), as many as drawn (the whole graph if it is smaller).
    """
    params = {"n_eigenvectors": n_eigenvectors, "matrix": matrix, "label_scale": label_scale}
    sizes = rng.randint(min_nodes, max_nodes + 1, size=n)
    out = []
    if sampler == "uniform":
        pick = np.arange(len(X)) if len(X) <= RANGE_SAMPLE else np.sort(rng.choice(len(X), RANGE_SAMPLE, False))
        sample = X if len(pick) == len(X) else X.take(pick)
        emb = node_embeddings(sample, **params, n_threads=current_threads()).values
        low, high = emb.min(axis=0), emb.max(axis=0)
        if X.kind == "labels":
            first = n_eigenvectors
            columns = int(X.node_data.max(initial=0)) + 2
            low[first:first + columns] = 0.0
            high[first:first + columns - 1] = label_scale
            high[first + columns - 1] = 0.0
        for m in sizes:
            out.append(NodeVectors(rng.uniform(low, high, size=(m, len(low))), np.full(m, 1.0 / m)))
        return out
    graphs = rng.randint(0, len(X), size=n)
    anchors_u = rng.random_sample(n)
    used, where = np.unique(graphs, return_inverse=True)
    subset = X.take(used)
    columns = int(X.node_data.max(initial=0)) + 2 if X.kind == "labels" else None
    emb = node_embeddings(subset, **params, label_columns=columns, n_threads=current_threads())
    for j in range(n):
        g = int(graphs[j])
        vectors = emb[int(where[j])][0]
        nodes = _anchor_nodes(X, g, int(anchors_u[j] * len(vectors)), int(sizes[j]), rng)
        out.append(NodeVectors(vectors[nodes].copy(), np.full(len(nodes), 1.0 / len(nodes))))
    return out


def _anchor_nodes(X, g, anchor, m, rng):
    """The anchor and its nearest nodes of graph g in breadth-first order
    (each level in random order), m of them at most; when the anchor's
    component is smaller, nodes of other components follow in random order."""
    n = int(X.node_offsets[g + 1] - X.node_offsets[g])
    e = slice(X.edge_offsets[g], X.edge_offsets[g + 1])
    A = sp.csr_matrix((np.ones(e.stop - e.start), (X.rows[e], X.cols[e])), shape=(n, n))
    seen = np.zeros(n, dtype=bool)
    seen[anchor] = True
    order, level = [anchor], np.array([anchor])
    while len(order) < m and len(level):
        nxt = np.unique(A[level].indices)
        nxt = nxt[~seen[nxt]]
        nxt = nxt[rng.permutation(len(nxt))]
        seen[nxt] = True
        order.extend(nxt.tolist())
        level = nxt
    if len(order) < m:
        rest = np.flatnonzero(~seen)
        order.extend(rest[rng.permutation(len(rest))].tolist())
    return np.asarray(order[:m], dtype=np.int64)


class GraphDomain(Domain):
    name = "graphs"
    input_format = ("a square symmetric adjacency matrix (weights >= 0), a pair (adjacency, node labels or "
                    "attributes), or a networkx graph")
    metrics = {"graph_emd": Metric("graph_emd", params=("n_eigenvectors", "matrix", "label_scale"),
                                   summary="the Earth Mover's distance between the graphs' sets of node embeddings "
                                           "(spectral part, label one-hot, attributes: RGE); keywords "
                                           "``n_eigenvectors``, ``matrix``, ``label_scale``")}
    packs_lists = True
    sampler_defaults = {"sampler": SAMPLER, "min_nodes": MIN_NODES, "max_nodes": MAX_NODES}

    def check(self, X, name="X", dtype=None):
        graphs = check_graphs(X, name)
        return graphs, graphs.flavour

    def encode_categories(self, X, vocabulary, fitting, name="X"):
        return encode_categorical_labels(X, vocabulary, fitting, name)

    def encode_pairwise(self, X, Y):
        """X and Y with categorical node labels coded by one vocabulary, built
        from both (each label its own code, as distances between the two
        collections need)."""
        if Y is None:
            return encode_categorical_labels(X, None, True, "X")[0], None
        X_list, Y_list = _graph_list(X, "X"), _graph_list(Y, "Y")
        if X_list is None or Y_list is None:
            return X, Y
        _, vocabulary = encode_categorical_labels(X_list + Y_list, None, True, "X and Y")
        if vocabulary is None:
            return X, Y
        return (encode_categorical_labels(X, vocabulary, False, "X")[0],
                encode_categorical_labels(Y, vocabulary, False, "Y")[0])

    def flavour_error(self, name, got, expected):
        def say(flavour):
            kind, dim = flavour
            return {"structure": "no node data", "labels": "node labels"}.get(kind, f"node attributes of dimension {dim}")

        return ValueError(f"{name} has graphs with {say(got)}, but {say(expected)} was expected "
                          "(as in X or the fit data)")

    def check_params(self, metric, params):
        check_embedding_params(params)
        return params

    def make_engine(self, metric, objects, params, dtype):
        return GraphEmdEngine(objects, params, dtype)

    def draw_random_objects(self, X, flavour, n, rng, **params):
        return draw_random_graphs(X, n, rng, **{**self.sampler_defaults, **params})


GRAPHS = GraphDomain()
