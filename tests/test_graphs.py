"""Graphs: node embeddings (the core's eigensolver) against a slow
per-graph reference with numpy's eigh, the EMD against POT, invariance to
node order (degenerate spectra included), the eigsh path against the dense
one, labels unseen by the engine, input forms and bad input."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from cases import graphs

import pyd2ke
import pyd2ke._domains.graph_spectra as graph_spectra
import pyd2ke._domains.graphs as graph_domain
from pyd2ke import RandomGraphEmbedding, RepresentativeSetEmbedding
from pyd2ke._domains.graphs import NodeVectors, check_graphs, node_embeddings
from pyd2ke.distances import pairwise_distances

ot = pytest.importorskip("ot")


def cycle(n):
    A = np.zeros((n, n))
    A[np.arange(n), (np.arange(n) + 1) % n] = 1
    return A + A.T


def star(n):
    A = np.zeros((n, n))
    A[0, 1:] = A[1:, 0] = 1
    return A


def special_graphs():
    """Graphs with degenerate spectra (cycles, stars, complete graphs,
    several components, isolated nodes) and graphs smaller than n_eigenvectors."""
    two_triangles = np.kron(np.eye(2), np.ones((3, 3)) - np.eye(3))
    with_isolated = np.pad(cycle(5), (0, 2))
    return [cycle(8), cycle(12), star(7), np.ones((5, 5)) - np.eye(5), two_triangles, with_isolated,
            np.zeros((1, 1)), np.array([[0, 2.5], [2.5, 0]]), np.ones((3, 3)) - np.eye(3)]


def reference_spectral(A, d, matrix="laplacian"):
    """One graph at a time with numpy's eigh; eigenspaces made basis-free."""
    A = np.asarray(A, dtype=np.float64)
    n = len(A)
    if matrix == "laplacian":
        deg = A.sum(1)
        inv = np.where(deg > 0, 1 / np.sqrt(np.where(deg > 0, deg, 1)), 0)
        M = np.eye(n) - inv[:, None] * A * inv[None, :]
    else:
        M = A
    w, V = np.linalg.eigh(M)
    if matrix == "adjacency":
        w, V = w[::-1], V[:, ::-1]
    out = np.zeros((n, d))
    same = np.abs(np.diff(w)) <= 1e-8 * max(1.0, np.abs(w).max())  # w[k + 1] in w[k]'s eigenspace
    for j in range(min(d, n)):
        low, high = j, j + 1
        while low > 0 and same[low - 1]:
            low -= 1
        while high < n and same[high - 1]:
            high += 1
        out[:, j] = np.sqrt((V[:, low:high] ** 2).sum(1) / (high - low))
    return out


@pytest.mark.parametrize("matrix", ["laplacian", "adjacency"])
def test_node_embeddings_match_a_per_graph_reference(matrix):
    G = special_graphs() + [a for a, _ in graphs(30)]
    emb = node_embeddings(check_graphs(G), 6, matrix, 0.5)
    for i, A in enumerate(G):
        A = A.toarray() if sp.issparse(A) else A
        np.testing.assert_allclose(emb[i][0], reference_spectral(A, 6, matrix), atol=1e-9)
        assert np.array_equal(emb[i][1], np.ones(len(A)))


def weighted_graphs(sizes, seed):
    """Random weighted graphs, some with self-loops and isolated nodes."""
    rng = np.random.default_rng(seed)
    out = []
    for n in sizes:
        A = np.triu((rng.random((n, n)) < rng.uniform(0.05, 0.6)) * rng.uniform(0.1, 3.0, (n, n)))
        if rng.random() < 0.5:
            A[:, rng.integers(0, n)] = 0.0  # an isolated node (once the transpose is added)
        A = A + np.triu(A, 1).T
        A[np.arange(n), np.arange(n)] *= rng.random() < 0.3  # self-loops in some graphs
        out.append(A)
    return out


@pytest.mark.parametrize("matrix", ["laplacian", "adjacency"])
@pytest.mark.parametrize("node_data", [None, "labels", "attributes"])
def test_core_eigensolver_matches_numpy_eigh(matrix, node_data):
    sizes = [n for n in range(1, 66) for _ in range(2)] + [100, 211, 300]
    G = weighted_graphs(sizes, seed=len(matrix) + len(str(node_data)))
    rng = np.random.default_rng(1)
    data = [None if node_data is None else rng.integers(0, 3, len(A)) if node_data == "labels"
            else rng.normal(size=(len(A), 2)) for A in G]
    X = G if node_data is None else list(zip(G, data))
    emb = node_embeddings(check_graphs(X), 7, matrix, 0.5)
    for i, A in enumerate(G):
        values = emb[i][0]
        np.testing.assert_allclose(values[:, :7], reference_spectral(A, 7, matrix), rtol=0, atol=1e-10)
        if node_data == "labels":
            assert np.array_equal(values[:, 7:], 0.5 * np.eye(4)[data[i]])
        elif node_data == "attributes":
            assert np.array_equal(values[:, 7:], data[i])


def test_repeated_eigenvalues_give_the_reference_features():
    """Exactly repeated eigenvalues: any basis of the eigenspace gives the same features."""
    complete = lambda n: np.ones((n, n)) - np.eye(n)  # noqa: E731
    copies = lambda A, k: np.kron(np.eye(k), A)  # noqa: E731
    G = [cycle(n) for n in (3, 4, 5, 6, 9, 16, 17, 40)] + [complete(n) for n in (2, 3, 7, 20, 64)]
    G += [copies(cycle(5), 3), copies(complete(4), 5), copies(star(6), 4), np.pad(copies(cycle(6), 2), (0, 3)),
          star(30), np.zeros((4, 4)), copies(np.array([[0, 1.5], [1.5, 0]]), 6)]
    for matrix in ("laplacian", "adjacency"):
        for n_eigenvectors in (1, 3, 6, 13):
            emb = node_embeddings(check_graphs(G), n_eigenvectors, matrix, 0.5)
            for i, A in enumerate(G):
                np.testing.assert_allclose(emb[i][0], reference_spectral(A, n_eigenvectors, matrix), rtol=0,
                                           atol=1e-10, err_msg=f"graph {i}, {matrix}, {n_eigenvectors}")


@pytest.mark.parametrize("matrix", ["laplacian", "adjacency"])
def test_threads_do_not_change_the_bits(matrix):
    G = check_graphs(weighted_graphs(np.random.default_rng(2).integers(1, 80, 400), seed=3) + special_graphs())
    one = node_embeddings(G, 6, matrix, 0.5, n_threads=1).values
    for n_threads in (2, 3, 8):
        assert np.array_equal(node_embeddings(G, 6, matrix, 0.5, n_threads=n_threads).values, one)
    # A slice is embedded as in the whole.
    part = node_embeddings(G[150:260], 6, matrix, 0.5, n_threads=2).values
    assert np.array_equal(part, one[G.node_offsets[150]:G.node_offsets[260]])


def test_the_core_refuses_edges_outside_their_graph():
    from pyd2ke import _core

    G = check_graphs([cycle(4), cycle(3)])
    rows = G.rows.copy()
    rows[-1] = 3  # graph 1 has 3 nodes
    out = np.zeros((7, 2))
    with pytest.raises(ValueError, match=r"edge \(3, 1\) of a graph of 3 nodes"):
        _core.graph_spectral_into(G.node_offsets, G.edge_offsets, rows, G.cols, G.weights, True, 300, 1e-8, out, 2)
    with pytest.raises(ValueError, match="out must have shape"):
        _core.graph_spectral_into(G.node_offsets, G.edge_offsets, G.rows, G.cols, G.weights, True, 300, 1e-8,
                                  np.zeros((6, 2)), 1)


def test_labels_are_scaled_one_hot_columns_with_an_other_column():
    G = [(cycle(4), np.array([0, 2, 2, 1]))]
    emb = node_embeddings(check_graphs(G), 3, "laplacian", 0.5)
    labels = emb.values[:, 3:]
    assert labels.shape == (4, 4)  # labels 0..2 and the "other" column
    assert np.array_equal(labels, 0.5 * np.eye(4)[[0, 2, 2, 1]])


def _pot_emd(a, b):
    M = ot.dist(a, b, metric="euclidean")
    return ot.emd2(np.full(len(a), 1 / len(a)), np.full(len(b), 1 / len(b)), M)


@pytest.mark.parametrize("labelled", [True, False])
def test_emd_equals_pot(labelled):
    X, Y = graphs(12, seed=1), graphs(7, seed=2)
    if not labelled:
        X, Y = [a for a, _ in X], [a for a, _ in Y]
    D = pairwise_distances(X, Y, metric="graph_emd")
    # Reference embeddings: one-hot over every label of X and Y.
    both = node_embeddings(check_graphs(X + Y), 6, "laplacian", 0.5)
    for i in range(len(X)):
        for j in range(len(Y)):
            assert abs(D[i, j] - _pot_emd(both[i][0], both[len(X) + j][0])) <= 1e-9


def test_labels_unseen_by_the_engine_are_exact():
    # X has labels 5 and 7 that Y (the engine's graphs) has not: still the
    # EMD of one-hot codes over all labels.
    rng = np.random.default_rng(3)
    X = [(a, np.where(rng.random(len(l)) < 0.3, rng.choice([5, 7], len(l)), l)) for a, l in graphs(6, seed=4)]
    Y = graphs(5, seed=5)
    D = pairwise_distances(X, Y, metric="graph_emd", label_scale=1.3)
    both = node_embeddings(check_graphs(X + Y), 6, "laplacian", 1.3)
    for i in range(len(X)):
        for j in range(len(Y)):
            assert abs(D[i, j] - _pot_emd(both[i][0], both[len(X) + j][0])) <= 1e-9


def test_features_are_the_emd_to_the_random_graphs():
    X = graphs(20)
    model = RandomGraphEmbedding(10, kernel="direct", standardize=False, random_state=0).fit(X)
    Z = model.transform(X)
    emb = node_embeddings(check_graphs(X), 6, "laplacian", 0.5, label_columns=model.random_objects_[0].vectors.shape[1] - 6)
    for i in (0, 7, 19):
        for j, w in enumerate(model.random_objects_):
            assert isinstance(w, NodeVectors)
            assert abs(Z[i, j] * np.sqrt(10) - _pot_emd(emb[i][0], w.vectors)) <= 1e-9


def _permuted(G, seed):
    rng = np.random.default_rng(seed)
    out = []
    for g in G:
        A, labels = g if isinstance(g, tuple) else (g, None)
        A = A.toarray() if sp.issparse(A) else A
        p = rng.permutation(len(A))
        out.append(A[np.ix_(p, p)] if labels is None else (A[np.ix_(p, p)], labels[p]))
    return out


@pytest.mark.parametrize("sampler", ["anchor", "uniform"])
@pytest.mark.parametrize("matrix", ["laplacian", "adjacency"])
def test_permuted_graphs_give_the_same_features(sampler, matrix):
    G = special_graphs() + [a for a, _ in graphs(20)]
    model = RandomGraphEmbedding(32, sampler=sampler, matrix=matrix, kernel="direct", random_state=0).fit(G)
    Z = model.transform(G)
    for seed in range(3):
        assert np.abs(model.transform(_permuted(G, seed)) - Z).max() <= 1e-9
    labelled = [(g, np.arange(len(g)) % 3) for g in special_graphs()] + graphs(20)
    model = RandomGraphEmbedding(32, sampler=sampler, matrix=matrix, random_state=0).fit(labelled)
    Z = model.transform(labelled)
    assert np.abs(model.transform(_permuted(labelled, 9)) - Z).max() <= 1e-9


@pytest.mark.parametrize("matrix", ["laplacian", "adjacency"])
def test_eigsh_path_matches_the_dense_one(matrix, monkeypatch):
    rng = np.random.default_rng(0)
    G = []
    for n in (40, 60):
        A = np.triu((rng.random((n, n)) < 0.1) * rng.uniform(0.5, 2.0, (n, n)), 1)
        G.append(A + A.T)
    # Identical components (two paths of 30, three of 20): from an all-ones
    # start vector eigsh missed the eigenvectors that differ between them.
    for copies, n in ((2, 30), (3, 20)):
        path = np.diag(np.ones(n - 1), 1)
        G.append(np.kron(np.eye(copies), path + path.T))
    dense = node_embeddings(check_graphs(G), 5, matrix, 0.5).values
    monkeypatch.setattr(graph_domain, "DENSE_MAX_NODES", 15)
    sparse = node_embeddings(check_graphs(G), 5, matrix, 0.5).values
    np.testing.assert_allclose(sparse, dense, atol=1e-8)


def path(n):
    A = np.diag(np.ones(n - 1), 1)
    return A + A.T


@pytest.mark.parametrize("dense_subset_max", [None, 300])
@pytest.mark.parametrize("matrix", ["laplacian", "adjacency"])
def test_large_graphs_are_solved_by_connected_component(matrix, dense_subset_max, monkeypatch):
    # Above DENSE_MAX_NODES (300). On a whole graph, Lanczos returned 6 of
    # the 50 copies of the top eigenvalue of 50 paths (columns of other
    # eigenvalues), and a path's crowded eigenvalues took it 52,597 matrix
    # products at 3000 nodes. Features within 1e-9 of numpy's eigh, and of
    # the same graphs with their nodes in another order. With components
    # above 300 nodes solved sparsely (dense_subset_max=300), the path and
    # the cycle go through banded shift-invert, the random graph's largest
    # component and the tree through Lanczos and its search for missed copies
    # (Lanczos found 3 of the 4 copies of the tree's 5th eigenvalue), the
    # star and the complete bipartite graph (few distinct eigenvalues, where
    # ARPACK failed or restarted from random vectors) through the dense solver.
    if dense_subset_max is not None:
        monkeypatch.setattr(graph_spectra, "DENSE_SUBSET_MAX_NODES", dense_subset_max)
    rng = np.random.default_rng(1)
    sparse = np.triu(rng.random((700, 700)) < 0.004, 1).astype(float)
    sparse = (sparse + sparse.T) * rng.uniform(0.5, 2.0, (700, 700))
    sparse = (sparse + sparse.T) / 2
    tree = np.zeros((1023, 1023))  # a binary tree
    tree[np.arange(1, 1023), (np.arange(1, 1023) - 1) // 2] = 1
    bipartite = np.zeros((350, 350))
    bipartite[:50, 50:] = 1
    G = [np.kron(np.eye(20), path(20)),  # 20 equal components, each by the dense solver
         path(1200),  # one component, by banded shift-invert
         np.pad(cycle(600), (0, 5)),  # a band and isolated nodes
         sparse,  # its largest component, and the others by the dense solver
         tree + tree.T,
         star(400),
         bipartite + bipartite.T]
    assert graph_domain.DENSE_MAX_NODES < 400
    want = np.vstack([reference_spectral(A, 6, matrix) for A in G])
    got = graph_domain.spectral_embeddings(check_graphs(G), 6, matrix)
    np.testing.assert_allclose(got, want, atol=1e-9)
    permuted = _permuted(G, 3)
    draws = np.random.default_rng(3)
    orders = [draws.permutation(len(A)) for A in G]  # _permuted's
    offsets = np.cumsum([0] + [len(A) for A in G])
    moved = graph_domain.spectral_embeddings(check_graphs(permuted), 6, matrix)
    np.testing.assert_allclose(moved, np.vstack([got[o:o + len(p)][p] for o, p in zip(offsets, orders)]), atol=1e-9)


def test_input_forms_agree():
    nx = pytest.importorskip("networkx")
    A = cycle(6)
    A[0, 3] = A[3, 0] = 2.0
    labels = np.array([0, 1, 1, 0, 2, 2])
    g = nx.from_numpy_array(A)
    nx.set_node_attributes(g, {i: int(l) for i, l in enumerate(labels)}, "label")
    forms = [[(A, labels)], [(sp.csr_matrix(A), labels)], [(sp.coo_array(A), labels.tolist())], [g],
             [(A, labels.astype(float))]]
    Y = graphs(5)
    ref = pairwise_distances(forms[0], Y, metric="graph_emd")
    for X in forms[1:]:
        assert np.array_equal(pairwise_distances(X, Y, metric="graph_emd"), ref)
    unlabelled = nx.from_numpy_array(A)
    assert np.array_equal(pairwise_distances([unlabelled], [A], metric="graph_emd"), [[0.0]])


def test_attributes_are_appended_as_given():
    rng = np.random.default_rng(0)
    G = [(a, rng.normal(size=(len(l), 3))) for a, l in graphs(15)]
    model = RandomGraphEmbedding(8, random_state=0).fit(G)
    assert model.input_flavour_ == ("attributes", 3)
    assert model.random_objects_[0].vectors.shape[1] == 6 + 3
    Z = model.transform(G)
    assert Z.shape == (15, 8) and np.isfinite(Z).all()
    emb = node_embeddings(check_graphs(G))
    assert np.array_equal(emb[0][0][:, 6:], G[0][1])


def test_rsm_and_d2ke_take_the_metric():
    X = graphs(30)
    Z = RepresentativeSetEmbedding(10, metric="graph_emd", metric_params={"n_eigenvectors": 3},
                                   kernel="direct", standardize=False, random_state=0).fit(X).transform(X[:4])
    rsm = RepresentativeSetEmbedding(10, metric="graph_emd", random_state=0).fit(X)
    D = pairwise_distances(X[:4], [X[i] for i in rsm.representative_indices_], metric="graph_emd", n_eigenvectors=3)
    assert np.allclose(Z * np.sqrt(10), D, atol=1e-12)
    Zd = pyd2ke.D2KE("graph_emd", n_components=8, random_state=0).fit_transform(X)
    assert Zd.shape == (30, 8)


def test_float32_is_close_and_n_jobs_do_not_change_bits():
    X = graphs(40)
    Z64 = RandomGraphEmbedding(16, random_state=0, n_jobs=1).fit_transform(X)
    Z2 = RandomGraphEmbedding(16, random_state=0, n_jobs=2).fit_transform(X)
    Z32 = RandomGraphEmbedding(16, random_state=0, dtype=np.float32).fit_transform(X)
    assert np.array_equal(Z64, Z2)
    assert Z32.dtype == np.float32 and np.abs(Z32 - Z64).max() < 1e-5


def test_chunks_give_the_same_rows():
    X = graphs(60)
    model = RandomGraphEmbedding(8, random_state=0).fit(X)
    whole = model.transform(X)
    with pyd2ke.chunking(max_items=7):
        assert np.array_equal(model.transform(X), whole)


BAD = [
    ([np.ones((2, 3))], ValueError, r"X\[0\] adjacency has shape \(2, 3\); it must be square"),
    ([np.array([[0, 1], [0, 0.0]])], ValueError, r"X\[0\] adjacency is not symmetric"),
    ([cycle(3), np.array([[0, -1], [-1, 0.0]])], ValueError, r"X\[1\] adjacency has weight -1.0"),
    ([np.array([[0, np.nan], [np.nan, 0]])], ValueError, r"X\[0\] adjacency contains NaN or infinity"),
    ([np.zeros((0, 0))], ValueError, r"X\[0\] is empty: a graph needs at least one node"),
    ([(cycle(4), [0, 1, 2])], ValueError, r"X\[0\] has 4 nodes but 3 node labels"),
    ([(cycle(4), [0, 1, 2, -1])], ValueError, r"X\[0\] has node label -1"),
    ([(cycle(4), [0, 1, 2, 0.5])], TypeError, r"X\[0\] node labels have dtype float64"),
    ([(cycle(4), np.ones((3, 2)))], ValueError, r"X\[0\] has 4 nodes but 3 rows of node attributes"),
    ([(cycle(3), [0, 1, 2]), cycle(3)], ValueError, r"X\[1\] has no node data, but X\[0\] has labels"),
    ([(cycle(3), np.ones((3, 2))), (cycle(3), np.ones((3, 3)))], ValueError, (r"X\[1\] has node attributes of "
     "dimension 3")),
    ([(cycle(3), ["a", "b", None])], ValueError, r"X\[0\] node 2 label is missing"),
    ([np.full((2, 2), "x")], TypeError, r"X\[0\] adjacency has dtype <U1"),
    (["abc"], TypeError, r"X\[0\] is str; a graph is"),
    ([(cycle(3), [0, 1, 2], 5)], TypeError, r"X\[0\] is a tuple of 3 items"),
    ([], ValueError, r"X is empty: at least one graph is required"),
    (cycle(3), TypeError, r"X must be a sequence of graphs, got a single ndarray"),
]


@pytest.mark.parametrize("X, error, message", BAD)
def test_bad_input_is_named(X, error, message):
    with pytest.raises(error, match=message):
        RandomGraphEmbedding(4).fit(X)


def test_categorical_labels_without_a_fit():
    """Estimators map string labels at fit (tests/test_user_data.py);
    pairwise_distances, which has no fit, codes X's and Y's with one
    vocabulary: the distances are those of the labels' integer codes."""
    strings = [(cycle(3), np.array(["a", "b", "c"])), (cycle(4), ["b", "b", "d", "a"])]
    codes = [(cycle(3), np.array([0, 1, 2])), (cycle(4), [1, 1, 3, 0])]
    np.testing.assert_array_equal(pairwise_distances(strings, metric="graph_emd"),
                                  pairwise_distances(codes, metric="graph_emd"))
    np.testing.assert_array_equal(pairwise_distances(strings[:1], strings[1:], metric="graph_emd"),
                                  pairwise_distances(codes[:1], codes[1:], metric="graph_emd"))


def test_bad_input_in_transform_names_the_whole_input_index():
    model = RandomGraphEmbedding(4, random_state=0).fit(graphs(10))
    X = graphs(30)
    X[25] = (np.ones((2, 3)), [0, 1])
    with pytest.raises(ValueError, match=r"X\[25\] adjacency has shape"), pyd2ke.chunking(max_items=8):
        model.transform(X)
    with pytest.raises(ValueError, match=r"X has graphs with no node data, but node labels was expected"):
        model.transform([cycle(4)])


@pytest.mark.parametrize("params, message", [
    ({"n_eigenvectors": 0}, "n_eigenvectors must be >= 1"),
    ({"matrix": "laplace"}, "matrix must be one of"),
    ({"label_scale": -1.0}, "label_scale must be non-negative"),
    ({"sampler": "random"}, "sampler must be one of"),
    ({"min_nodes": 5, "max_nodes": 3}, r"min_nodes \(5\) must be <= max_nodes \(3\)"),
])
def test_bad_parameters(params, message):
    with pytest.raises((ValueError, TypeError), match=message):
        RandomGraphEmbedding(4, **params).fit(graphs(5))


def test_bad_metric_params():
    with pytest.raises(ValueError, match="does not take"):
        pairwise_distances(graphs(3), metric="graph_emd", window=3)
    with pytest.raises(ValueError, match="matrix must be one of"):
        pairwise_distances(graphs(3), metric="graph_emd", matrix="x")


def test_asymmetry_within_rounding_is_averaged():
    A = cycle(5)
    B = A.copy()
    B[0, 1] += 1e-14
    assert pairwise_distances([B], [A], metric="graph_emd")[0, 0] <= 1e-12


def canonical_by_scipy(a):
    """Reference of the canonical form, one graph at a time with scipy: duplicates summed, zeros
    dropped, (A + A^T) / 2 when not exactly symmetric, rows and columns sorted."""
    A = sp.csr_matrix(a, dtype=np.float64)
    A.sum_duplicates()
    A.eliminate_zeros()
    if (A != A.T).nnz:
        A = ((A + A.T) * 0.5).tocsr()
    A.sum_duplicates()
    A.eliminate_zeros()
    coo = A.tocoo()
    return coo.row, coo.col, coo.data


@pytest.mark.parametrize("seed", range(5))
def test_edges_of_all_graphs_are_canonical_as_one_graph_at_a_time(seed):
    rng = np.random.default_rng(seed)
    inputs = []
    for _ in range(12):
        n = int(rng.integers(1, 9))
        m = int(rng.integers(0, 3 * n))
        r, c = rng.integers(0, n, m), rng.integers(0, n, m)
        w = rng.choice([0.0, 1.0, 2.5], m)  # explicit zeros too
        # Duplicated entries in COO form, both directions, and a tiny asymmetry now and then.
        rows, cols = np.r_[r, c, r], np.r_[c, r, r]
        weights = np.r_[w, w, np.zeros(m)] * (1 + rng.choice([0, 1e-13], 3 * m))
        A = sp.coo_matrix((weights, (rows, cols)), shape=(n, n))
        inputs.append(A if rng.random() < 0.5 else A.tocsr())
    packed = check_graphs(inputs)
    for g, a in enumerate(inputs):
        e = slice(packed.edge_offsets[g], packed.edge_offsets[g + 1])
        r, c, w = canonical_by_scipy(a)
        assert np.array_equal(packed.rows[e], r) and np.array_equal(packed.cols[e], c)
        assert np.allclose(packed.weights[e], w, rtol=1e-15, atol=0)


def test_asymmetric_graph_is_named_with_its_local_entry():
    B = cycle(4)
    B[2, 3] = 0.5
    with pytest.raises(ValueError, match=r"X\[2\] adjacency is not symmetric \(entries \(2, 3\) and \(3, 2\)"):
        check_graphs([cycle(3), star(5), B, cycle(6)])


def test_mutag_loader():
    from pyd2ke.datasets import load_mutag

    d = load_mutag()
    assert len(d.graphs) == 188 and np.bincount(d.y == 1).tolist() == [63, 125]
    sizes = [g[0].shape[0] for g in d.graphs]
    assert min(sizes) == 10 and max(sizes) == 28 and sum(sizes) == 3371
    assert sum(g[0].nnz for g in d.graphs) == 7442
    assert all((abs(g[0] - g[0].T)).nnz == 0 for g in d.graphs)
    assert {int(l) for g in d.graphs for l in g[1]} == set(range(7))


def test_categorical_labels_in_pairwise_distances_and_mixed_kinds():
    """pairwise_distances codes X's and Y's categories with one vocabulary
    (networkx string labels were dropped in silence: a C and an O triangle
    at distance 0); categories mixed with integer labels are refused (their
    codes collided); labels in pandas or dict form are categories too."""
    nx = pytest.importorskip("networkx")
    pd = pytest.importorskip("pandas")

    def labelled(labels):
        return _labelled_networkx(nx, nx.complete_graph(len(labels)), labels)

    tri = np.ones((3, 3)) - np.eye(3)
    carbon, oxygen = labelled(["C"] * 3), labelled(["O"] * 3)
    D = pairwise_distances([carbon, oxygen], metric="graph_emd")
    assert D[0, 1] > 0.5 and D[0, 1] == pairwise_distances([carbon], [oxygen], metric="graph_emd")[0, 0]
    pairs = pairwise_distances([(tri, ["C", "C", "O"])], [(tri, ["C", "C", "O"]), (tri, ["C", "C", "N"])],
                               metric="graph_emd")
    assert pairs[0, 0] == 0 and pairs[0, 1] > 0
    with pytest.raises(ValueError, match=r"node 1 has no 'label'"):
        pairwise_distances([labelled([1, None, 2]), carbon], metric="graph_emd")
    with pytest.raises(ValueError, match="mixes categorical node labels .* and numeric ones"):
        RandomGraphEmbedding(8, random_state=0).fit([(tri, ["C", "C", "O"]), (tri, [0, 0, 1])])
    with pytest.raises(TypeError, match="has the label 1.0, a float"):
        RandomGraphEmbedding(8, random_state=0).fit([labelled([1.0, 2.0, 1.0]), labelled([1, 2, 1])])
    forms = [(tri, pd.Series(["C", "N", "O"])), (tri, pd.Categorical(["C", "C", "O"])), (tri, {0: "C", 1: "N", 2: "N"})]
    assert RandomGraphEmbedding(8, random_state=0).fit(forms).node_label_vocabulary_ == ["C", "N", "O"]
    with pytest.raises(ValueError, match="keys are not the nodes"):
        RandomGraphEmbedding(8).fit([(tri, {1: "C", 2: "N", 3: "N"})])


def _labelled_networkx(nx, graph, labels):
    """A copy of the networkx graph with labels as its nodes' "label", in node order."""
    graph = graph.copy()
    nx.set_node_attributes(graph, dict(zip(graph.nodes, labels)), "label")
    return graph


def test_categorical_labels_are_read_from_any_sequence_of_graphs():
    """String labels in a pandas Series, a one-column DataFrame or an object
    array: the same features as in a list (they were refused as non-integers)."""
    nx = pytest.importorskip("networkx")
    pd = pytest.importorskip("pandas")
    G = [_labelled_networkx(nx, nx.path_graph(4), "ABAB"), _labelled_networkx(nx, nx.cycle_graph(4), "ABBA")]
    make = lambda: RandomGraphEmbedding(n_components=8, random_state=0)  # noqa: E731
    fitted = make().fit(G)
    expected = fitted.transform(G)
    as_array = np.empty(2, dtype=object)
    as_array[:] = G
    for X in (pd.Series(G, index=["a", "b"]), pd.DataFrame({"graph": G}), as_array):
        np.testing.assert_array_equal(make().fit_transform(X), expected)
        np.testing.assert_array_equal(fitted.transform(X), expected)
    np.testing.assert_array_equal(pairwise_distances(pd.Series(G), pd.Series(G), metric="graph_emd"),
                                  pairwise_distances(G, G, metric="graph_emd"))


def test_a_float_networkx_label_is_refused():
    """Each float would be a category of its own (and every new one unseen)."""
    nx = pytest.importorskip("networkx")
    graph = _labelled_networkx(nx, nx.path_graph(3), [0.1, 0.7, 0.2])
    with pytest.raises(TypeError, match=r"X\[0\] node 0 has the label 0.1, a float; node labels are categories.*"
                                        r"\(adjacency, a 2-D array \(n_nodes, dim\)\) pairs"):
        RandomGraphEmbedding(n_components=8, random_state=0).fit([graph])


def test_one_pair_not_in_a_list_is_named():
    """Its node labels were read as a second graph's adjacency."""
    tri = np.ones((3, 3)) - np.eye(3)
    for node_data in ([0, 1, 1], np.ones((3, 2))):
        with pytest.raises(TypeError, match=r"got one \(adjacency, node data\) pair \(wrap it in a list: \[X\]\)"):
            RandomGraphEmbedding(8).fit((tri, node_data))
    assert RandomGraphEmbedding(8, random_state=0).fit_transform((tri, tri)).shape == (2, 8)  # two graphs


def test_node_data_in_a_pandas_series_is_read_by_node():
    pd = pytest.importorskip("pandas")
    A = np.ones((4, 4)) - np.eye(4)
    A[0, 2] = A[2, 0] = 0
    fitted = RandomGraphEmbedding(8, random_state=0).fit([(A, ["a", "b", "a", "b"]), (A, ["a", "a", "b", "b"])])
    by_node = {1: "b", 0: "a", 3: "b", 2: "a"}
    shuffled = pd.Series(list(by_node.values()), index=list(by_node))
    np.testing.assert_array_equal(fitted.transform([(A, shuffled)]), fitted.transform([(A, by_node)]))
    numeric = RandomGraphEmbedding(8, random_state=0).fit([(A, [0, 1, 0, 1]), (A, [0, 0, 1, 1])])
    np.testing.assert_array_equal(numeric.transform([(A, pd.Series([1, 0, 1, 0], index=[1, 0, 3, 2]))]),
                                  numeric.transform([(A, [0, 1, 0, 1])]))
    with pytest.raises(ValueError, match=r"X\[0\] node data is a pandas Series whose index is not the nodes 0 \.\. 3"):
        fitted.transform([(A, pd.Series(["a", "b", "a", "b"], index=[1, 2, 3, 4]))])


def test_label_kinds_that_differ_from_the_fit_are_named():
    A = np.ones((3, 3)) - np.eye(3)
    model = RandomGraphEmbedding(4, random_state=0).fit([(A, [0, 1, 2]), (A, [1, 1, 0])])
    # It said "the fit data had none" of integer labels.
    with pytest.raises(ValueError, match="categorical node labels, but the fit data had integer or no node labels"):
        model.transform([(A, ["C", "N", "O"])])
    with pytest.raises(ValueError, match=r"return_inverse=True\), or pass them as strings"):
        RandomGraphEmbedding(4, random_state=0).fit([(A, [0, 1, 70000])])


def test_a_window_cut_above_the_dense_limit_is_warned_about(monkeypatch):
    # A star of 10,000 nodes: its Laplacian's eigenvalue 1 has 9998 copies,
    # and the 10 eigenpairs of the sparse solver gave leaves 0.0005 to 0.12
    # where each should have 0.01, moving with the node order. Here a star of
    # 400 with the dense limits lowered to reach that path.
    monkeypatch.setattr(graph_spectra, "DENSE_SUBSET_MAX_NODES", 300)
    monkeypatch.setattr(graph_spectra, "DENSE_FALLBACK_MAX_NODES", 300)
    with pytest.warns(UserWarning, match="component of 400 nodes with more copies of one of its 6 extreme"):
        graph_domain.spectral_embeddings(check_graphs([star(400)]), 6, "laplacian")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        graph_domain.spectral_embeddings(check_graphs([path(400)]), 6, "laplacian")
    monkeypatch.undo()
    with warnings.catch_warnings():  # exact by the dense solver
        warnings.simplefilter("error")
        graph_domain.spectral_embeddings(check_graphs([star(400)]), 6, "laplacian")


def test_weights_whose_degrees_overflow_are_refused():
    # Weights of 1e308 passed the finiteness check; their sums overflowed and
    # every node embedding came out 0 or sqrt(1/n).
    with pytest.raises(ValueError, match=r"X\[1\] has edge weights whose sums overflow float64"):
        check_graphs([path(5), path(50) * 1e308])
    assert len(check_graphs([path(5) * 1e300])) == 1
