"""Random Graph Embedding (Wu et al., "Scalable Global Alignment Graph Kernel
Using Random Features: From Node Embedding to Graph Embedding", KDD 2019;
D2KE with the Earth Mover's distance between sets of node embeddings).

Each graph becomes the set of its nodes' spectral embeddings (plus one-hot
labels or attributes), with uniform weights; features are
exp(-gamma EMD(x, w_j)) / sqrt(R) for R random graphs w_j, themselves sets of
U{min_nodes..max_nodes} node vectors. The EMD is the documents domain's
exact solver; pyd2ke/_domains/graphs.py has the node embeddings.
"""

from numbers import Integral, Real

import numpy as np

from ._base import COUNT, Interval, StrOptions, store_parameters
from ._docstrings import fill_doc
from ._domains.graphs import (
    LABEL_SCALE,
    MATRICES,
    MATRIX,
    MAX_NODES,
    MIN_NODES,
    N_EIGENVECTORS,
    SAMPLER,
    SAMPLERS,
)
from ._validation import check_choice, check_size_range
from .d2ke import D2KEBase


@fill_doc
class RandomGraphEmbedding(D2KEBase):
    """D2KE features for graphs: EMD between node embeddings, to random graphs (RGE).

    Parameters
    ----------
    n_components : int, default=128
        Number of random graphs R (= number of output features).
    n_eigenvectors : int, default=6
        Spectral node embedding size d: the absolute values of the
        eigenvectors of the normalised Laplacian for its d smallest
        eigenvalues (or of the adjacency matrix for its d largest); zero
        columns for graphs of fewer than d nodes. Degenerate eigenspaces are
        made basis-free (see pyd2ke/_domains/graphs.py), so features do not
        depend on the order of the nodes, except for an eigenspace of a
        connected component above 2000 nodes larger than the d + 4
        eigenpairs computed there: see the user guide.
    matrix : {"laplacian", "adjacency"}, default="laplacian"
    label_scale : float, default=0.5
        Node labels are appended as one-hot columns times label_scale (two
        nodes of different labels are label_scale * sqrt(2) apart on them).
        Node attributes are appended as given. Labels may be integers or
        categories (strings or any hashable value, e.g. networkx's "label"
        node attribute): categories are mapped to integers at fit
        (``node_label_vocabulary_``); at transform, the categories the fit
        graphs did not have share one extra one-hot column (the random graphs
        carry only the fit categories, so any two unseen ones are alike to
        them). Real node attributes go in (adjacency, 2-D array) pairs; a
        float "label" is refused.
    sampler : {"anchor", "uniform"}, default="anchor"
        "anchor": RGE's data-dependent anchor sub-graphs: a random fit graph,
        a random anchor node, and the node embeddings of the anchor and its
        nearest nodes (breadth-first). "uniform": RGE's data-independent
        random graphs: node vectors uniform in the range of the fit graphs'
        node embeddings.
    min_nodes, max_nodes : int, default=1, 20
        Random graphs have U{min_nodes..max_nodes} nodes.
    kernel : {"soft", "direct"}, default="soft"
    gamma : float or "auto", default="auto"
        "auto" uses 1 / median EMD between (up to 256) fit graphs and the
        random graphs.
    <standardize>
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads of the EMD (None and -1: all cores). The output does not
        depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type and the precision of the node distances (eigenvectors
        and transportation problems are computed in float64 either way).
    verbose : int, default=0
        When > 0, ``transform`` reports its progress to stderr, one line per chunk.

    Notes
    -----
    Input: a list of graphs, each a square symmetric adjacency matrix with weights
    >= 0 (scipy.sparse or dense), or a pair (adjacency, node data) where node
    data is a 1-D array of node labels (integers in [0, 65535], used as they
    are, or categories: strings or other hashable values, mapped to integers
    at fit, see ``node_label_vocabulary_``) or a 2-D array (n_nodes, dim) of
    real attributes (all graphs alike), or a networkx graph (its node
    attribute "label"; when some nodes have one, every node must).

    Attributes
    ----------
    <feature_mean_, feature_scale_>
    random_objects_ : list of NodeVectors (vectors (n_nodes, width), weights (n_nodes,))
        The random graphs as node-embedding sets.
    gamma_ : float
    n_components_ : int
    input_flavour_ : tuple
        ("structure", 0), ("labels", 0) or ("attributes", dim) of the fit graphs.
    node_label_vocabulary_ : list or None
        The categorical node labels of the fit graphs, in the order of their
        integer codes (None for integer labels or none).

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke import RandomGraphEmbedding
    >>> path = np.diag(np.ones(4), 1); path += path.T
    >>> ring = path.copy(); ring[0, 4] = ring[4, 0] = 1
    >>> RandomGraphEmbedding(n_components=8, random_state=0).fit_transform([path, ring]).shape
    (2, 8)
    """

    metric = "graph_emd"
    _parameter_constraints = {
        **D2KEBase._parameter_constraints,
        "n_eigenvectors": [Interval(Integral, 1, 4096, closed="both")],
        "matrix": [StrOptions(set(MATRICES))],
        "label_scale": [Interval(Real, 0, None, closed="left")],
        "sampler": [StrOptions(set(SAMPLERS))],
        "min_nodes": [COUNT],
        "max_nodes": [COUNT],
    }

    def __init__(self, n_components=128, *, n_eigenvectors=N_EIGENVECTORS, matrix=MATRIX, label_scale=LABEL_SCALE,
                 sampler=SAMPLER, min_nodes=MIN_NODES, max_nodes=MAX_NODES, kernel="soft", gamma="auto",
                 standardize=True, random_state=None, n_jobs=None, dtype=np.float64, verbose=0):
        store_parameters(self, locals())

    def _metric_params(self):
        return {"n_eigenvectors": self.n_eigenvectors, "matrix": self.matrix, "label_scale": self.label_scale}

    def _check_params(self):
        check_choice(self.matrix, "matrix", set(MATRICES))
        check_choice(self.sampler, "sampler", set(SAMPLERS))
        super()._check_params()
        check_size_range(self.min_nodes, self.max_nodes, "min_nodes", "max_nodes")

    def _draw_random_objects(self, X, rng):
        return self._draw_from_domain(X, rng, sampler=self.sampler, min_nodes=self.min_nodes,
                                      max_nodes=self.max_nodes, **self._metric_params())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = False
        return tags
