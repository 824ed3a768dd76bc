"""Graphs: RandomGraphEmbedding against N and graph size, next to GraKeL's
Weisfeiler-Lehman kernel matrix (the strongest peer; skipped without grakel)."""

import numpy as np
import scipy.sparse as sp

from .common import grid


def random_graphs(n, min_nodes, max_nodes, seed=0, n_labels=5):
    """n labelled graphs of U{min_nodes..max_nodes} nodes, mean degree about 3
    (as pyd2ke.reports.graphs.synthetic_graphs; not imported from it: asv runs
    older commits too)."""
    rng = np.random.default_rng(seed)
    out = []
    for m in rng.integers(min_nodes, max_nodes + 1, n):
        order = rng.permutation(m)
        rows = np.r_[order[:-1], rng.integers(0, m, m // 2)]
        cols = np.r_[order[1:], rng.integers(0, m, m // 2)]
        keep = rows != cols
        A = sp.coo_matrix((np.ones(keep.sum()), (rows[keep], cols[keep])), shape=(m, m)).tocsr()
        A = A + A.T
        A.data[:] = 1.0
        out.append((A, rng.integers(0, n_labels, m)))
    return out


def _to_grakel(graphs):
    out = []
    for A, labels in graphs:
        A = A.tocoo()
        edges = {i: [] for i in range(A.shape[0])}
        for i, j in zip(A.row.tolist(), A.col.tolist()):
            edges[i].append(j)
        out.append([edges, {i: int(l) for i, l in enumerate(labels)}])
    return out


class GraphScaling:
    """RGE features (R = 64 anchor sub-graphs) and GraKeL's WL subtree kernel
    matrix (n_iter = 3) against N, graphs of 20-200 nodes."""

    params = (grid([250, 1000, 4000], [100]), grid([1, 2], [1]))
    param_names = ["N", "n_jobs"]
    timeout = 600

    def setup(self, n, n_jobs):
        self.X = random_graphs(n, 20, 200)

    def time_fit_transform(self, n, n_jobs):
        from pyd2ke import RandomGraphEmbedding

        RandomGraphEmbedding(64, random_state=0, n_jobs=n_jobs).fit_transform(self.X)


class GraKeLWLScaling(GraphScaling):
    """The peer: GraKeL's WL subtree kernel matrix on the same graphs
    (skipped, through setup, where grakel is not installed)."""

    def setup(self, n, n_jobs):
        try:
            import grakel  # noqa: F401
        except ImportError:
            raise NotImplementedError("grakel is not installed") from None
        super().setup(n, n_jobs)

    def time_fit_transform(self, n, n_jobs):
        from grakel.kernels import VertexHistogram, WeisfeilerLehman

        WeisfeilerLehman(n_iter=3, base_graph_kernel=VertexHistogram, normalize=True,
                         n_jobs=None if n_jobs == 1 else n_jobs).fit_transform(_to_grakel(self.X))
