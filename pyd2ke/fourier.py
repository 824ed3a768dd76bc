"""Space-efficient random Fourier features (SFM) and the SFMEDM / SFMCGK pipelines.

Y. Tabei, Y. Yamanishi and R. Pagh, "Space-efficient feature maps for string
alignment kernels" (ICDM 2019). Random Fourier features (Rahimi & Recht)
z(x) = sqrt(2/D) [cos(s_k), sin(s_k)], s_k = sum_j w[j, k] x_j, k < D/2,
approximate the Laplacian kernel exp(-||x - y||_1 / beta) when the w[j, k]
are Cauchy / beta, and the RBF kernel exp(-gamma ||x - y||^2) when they are
Gaussian with variance 2 gamma. The paper stores two random words per input
coordinate (O(d) memory); pyd2ke derives every w[j, k] from a counter-based
hash of (seed, j, k), so memory is O(D) whatever d is, and coordinates may
be any 64-bit id, such as ESP node labels.
"""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import validate_data

from sklearn.metrics.pairwise import manhattan_distances

from . import _core
from ._auto import laplacian_beta, sample_rows
from ._base import Interval, Pyd2keTransformer, StrOptions, store_parameters
from ._blas import matmul_rows
from ._parallel import THREAD_VALUES, all_rows_finite, row_blocks, run_row_blocks
from ._validation import (
    MAX_COUNT,
    check_finite_output,
    check_no_missing_rows,
    check_positive_int,
    effective_n_threads,
    is_auto,
    row_labels,
)
from ._seeds import draw_seed
from .sketches import CGKEmbedding, ESPSketches, ESPVectorizer

# Bounds on the temporaries of the dense path: weight blocks and projections.
# Projections of 2 MB a block stay in cache until cos/sin reads them (6 %
# faster on two threads than 8 MB, 50000 x 128 -> 2048); weights hashed
# again for every block want longer blocks.
_WEIGHT_BLOCK_VALUES = 1 << 22
_PROJECTION_VALUES = 1 << 18
_PROJECTION_VALUES_HASHED = 1 << 22


class HashedRandomFourier(Pyd2keTransformer):
    """Random Fourier features with hashed weights: O(D) memory in any input dimension.

    Parameters
    ----------
    kernel : {"laplacian", "rbf"}, default="laplacian"
        "laplacian": exp(-||x - y||_1 / beta), Cauchy weights
        tan(pi (u - 1/2)) / beta. "rbf": exp(-gamma ||x - y||^2), Gaussian
        weights sqrt(2 gamma) Phi^{-1}(u). u = u(seed, j, k) is uniform in
        the open interval (0, 1).
    beta : float or "auto", default="auto"
        Laplacian bandwidth (> 0). "auto" (the default since issue 28;
        before, the SFM paper's 1.0) is twice the median L1 distance between
        (up to 256) fit rows, stored as ``beta_``: the kernel is exp(-1/2)
        at the median pair. With beta=1 and L1 distances of 50-100 between
        ESP vectors the kernel is 0 for every pair and the features are
        noise; the measurement behind the rule is in ``pyd2ke/_auto.py``.
    gamma : float, default=1.0
        RBF inverse width (> 0).
    n_components : int, default=1024
        D, even and >= 2: D/2 frequencies, each giving a cosine and a sine.
        The output is [cos(s_0..s_{D/2-1}), sin(s_0..s_{D/2-1})] * sqrt(2/D).
    random_state : int, RandomState or None, default=None
        Draws the 63-bit seed of the hash at fit time.
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type (projections are always accumulated in float64).

    Attributes
    ----------
    seed_ : int
    beta_ : float or None
        The Laplacian bandwidth used (resolved when beta="auto"); None for
        the rbf kernel.
    n_features_in_ : int
        Only when fitted on a dense or sparse matrix.

    Notes
    -----
    Inputs: a dense array (n, d), a scipy.sparse matrix (column j is
    coordinate j), or :class:`ESPSketches` (node label l is coordinate l).
    Dense input goes through a BLAS product with weight blocks generated on
    the fly. Sparse input is taken in blocks of rows: each distinct
    coordinate of a block gets its weights hashed once (SIMD) and added to
    every row that holds it, each row in ascending coordinate order, so a
    row's features do not depend on the rows around it.
    """

    _parameter_constraints = {
        **Pyd2keTransformer._parameter_constraints,
        "kernel": [StrOptions({"laplacian", "rbf"})],
        "beta": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "n_components": [Interval(Integral, 2, MAX_COUNT, closed="both")],
        "random_state": ["random_state"],
    }
    _fitted_attribute = "seed_"

    def __init__(
        self, *, kernel="laplacian", beta="auto", gamma=1.0, n_components=1024, random_state=None, n_jobs=None,
        dtype=np.float64,
    ):
        store_parameters(self, locals())

    def _check_params(self):
        D = check_positive_int(self.n_components, "n_components", minimum=2)
        if D % 2:
            raise ValueError(f"n_components must be even (a cosine and a sine per frequency), got {D}")
        super()._check_params()

    def _engine(self):
        # rbf: gamma; laplacian: the beta resolved at fit.
        bandwidth = self.gamma if self.kernel == "rbf" else self.beta_
        return _core.HashedFourier(self.kernel, bandwidth, self.n_components, self.seed_)

    def _kind(self, X, reset):
        if isinstance(X, ESPSketches):
            return "sketch", X
        if isinstance(X, (str, bytes)) or (isinstance(X, (list, tuple)) and X and isinstance(X[0], (str, bytes))) \
                or getattr(getattr(X, "dtype", None), "kind", "") in ("U", "S"):
            raise TypeError(
                "X holds strings; turn them into vectors first (ESPVectorizer, CGKEmbedding, "
                "or the make_sfmedm / make_sfmcgk pipelines)"
            )
        n_threads = effective_n_threads(self.n_jobs)
        checked = check_no_missing_rows(X, all_finite=lambda A: all_rows_finite(A, n_threads))
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, order="C", reset=reset,
                          ensure_all_finite=not checked)
        if sp.issparse(X):
            X = sp.csr_matrix(X)
            return "sparse", X
        return "dense", X

    def _fit(self, X, y=None):
        """Check X, draw the hash seed and resolve beta="auto"."""
        if isinstance(X, ESPSketches):
            if len(X) == 0:
                raise ValueError("X is empty: at least one sketch is required")
            for attribute in ("n_features_in_", "feature_names_in_"):
                if hasattr(self, attribute):
                    delattr(self, attribute)
        else:
            kind, X = self._kind(X, reset=True)
        self.seed_ = draw_seed(self.random_state)
        self.beta_ = None
        if self.kernel == "laplacian" and is_auto(self.beta):
            n = len(X) if isinstance(X, ESPSketches) else X.shape[0]
            self.beta_ = laplacian_beta(_l1_distances(X, sample_rows(n), effective_n_threads(self.n_jobs)))
        elif self.kernel == "laplacian":
            self.beta_ = float(self.beta)

    def _check_input(self, X):
        if not isinstance(X, ESPSketches) and not hasattr(self, "n_features_in_"):
            raise ValueError("fitted on ESPSketches: transform takes ESPSketches too")
        return self._kind(X, reset=False)[1], None

    def _chunk_bounds(self, X):
        # Dense rows: blocks of rows read in place, each projected into a
        # buffer of its own and written into the output, so chunks would bound
        # no memory; their ends cost 12 % of the time on two threads.
        if isinstance(X, np.ndarray):
            return [(0, X.shape[0])]
        return super()._chunk_bounds(X)

    def _transform_chunk(self, X, out):
        """Random Fourier features of X, shape (n_samples, n_components)."""
        engine = self._engine()
        n_threads = effective_n_threads(self.n_jobs)
        if isinstance(X, ESPSketches):
            finite = engine.sparse_into(X.labels, X.counts, X.offsets, out, n_threads)
        elif sp.issparse(X):
            indices = X.indices if X.indices.dtype in (np.int32, np.int64) else X.indices.astype(np.int64)
            finite = engine.sparse_into(indices, X.data, X.indptr.astype(np.int64), out, n_threads)
        else:
            finite = self._dense(engine, X, out, n_threads)
        # The core checks as it writes; only a failure pays for a pass over
        # the output that names the row.
        return out if finite else check_finite_output(out)

    def _check_output(self, Z, start):
        pass  # checked by _transform_chunk

    def _dense(self, engine, X, out, n_threads):
        """out = the features of dense X; returns whether they are all finite."""
        # Fixed row chunks, each a single-threaded BLAS product followed by
        # cos/sin, spread over n_threads workers: every row sees the same
        # arithmetic whatever n_threads is (a multithreaded BLAS may not).
        n, d = X.shape
        half = self.n_components // 2
        col_block = max(1, _WEIGHT_BLOCK_VALUES // half)
        blocks = [(j, min(d, j + col_block)) for j in range(0, d, col_block)]
        # Weights of a small input dimension are generated once; otherwise per
        # block. On one thread: an OpenMP region per chunk costs more than the
        # hashing (d x D/2 values against a product of 4096 x d x D/2).
        cached = [engine.weights(a, e - a, 1) for a, e in blocks] if len(blocks) == 1 else None
        # As many blocks for every thread, so that the last round keeps them all busy.
        values = _PROJECTION_VALUES if cached is not None else _PROJECTION_VALUES_HASHED
        bounds = row_blocks(n, min(1024, max(1, values // half)), n_threads)

        def work(start, stop, state):
            if cached is not None:
                P = np.ascontiguousarray(matmul_rows(X[start:stop], cached[0]))
            else:
                P = np.zeros((stop - start, half))
                for a, e in blocks:
                    P += matmul_rows(X[start:stop, a:e], engine.weights(a, e - a, 1))
            finite.append(engine.cos_sin_into(P, out[start:stop], 1))

        finite = []  # one flag per block (list.append is atomic)
        run_row_blocks(work, bounds, n_threads, min_rows=THREAD_VALUES // self.n_components)
        return all(finite)

    @property
    def _n_features_out(self):
        return self.n_components

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _l1_distances(X, rows, n_threads):
    """L1 distances between the given rows of X (dense, CSR or ESPSketches).
    CSR rows go through the sketches' merge as (column, value) lists, since
    scikit-learn's sparse manhattan_distances takes 32-bit column indices
    only (ESPVectorizer's columns are 64-bit hashes)."""
    if sp.issparse(X):
        S = sp.csr_matrix(X[rows], copy=True)
        S.sum_duplicates()  # canonical: columns ascending, each once, as the merge needs
        X, rows = ESPSketches._trusted(S.indices.astype(np.uint64), S.data.astype(np.float64),
                                       S.indptr.astype(np.int64)), np.arange(len(rows))
    if isinstance(X, ESPSketches):
        S = X.take(rows)
        out = np.empty((len(rows), len(rows)))
        _core.esp_l1_into(S.labels, S.counts, S.offsets, S.labels, S.counts, S.offsets, out, n_threads)
        return out
    return manhattan_distances(X[rows])


class SFMPipeline(Pipeline):
    """The scikit-learn Pipeline that make_sfmedm and make_sfmcgk return:
    under pandas output its DataFrame keeps the row labels of a pandas
    input. Its first step hands on a sparse matrix or ESP sketches, which
    hold none, so scikit-learn would number the rows 0..n-1 and a join with
    the input's other columns would misalign every row. (A public name:
    make_pipeline names a step after its class, and search grids name
    parameters after the step: ``sfmpipeline__fourier__beta``.)"""

    def transform(self, X, **params):
        return _with_row_labels(super().transform(X, **params), X)

    def fit_transform(self, X, y=None, **params):
        return _with_row_labels(super().fit_transform(X, y, **params), X)


def _with_row_labels(Z, X):
    labels = row_labels(X)
    if hasattr(Z, "iloc") and labels is not None and len(labels) == len(Z):
        Z.index = labels
    return Z


def make_sfmedm(*, n_components=1024, beta="auto", random_state=None, n_jobs=None, dtype=np.float64):
    """SFMEDM: ESP characteristic vectors -> hashed Laplacian random Fourier features.

    z(S)'z(S') approximates exp(-||V(S) - V(S')||_1 / beta), a kernel on the
    edit distance with moves. beta="auto": twice the median L1 distance
    between the fit strings' ESP vectors (see HashedRandomFourier). Returns
    an unfitted SFMPipeline: a scikit-learn Pipeline of the steps "esp" and
    "fourier" (whose pandas output keeps the row labels of a pandas input).
    """
    return SFMPipeline(
        [
            ("esp", ESPVectorizer(output="sketch", n_jobs=n_jobs)),
            (
                "fourier",
                HashedRandomFourier(
                    kernel="laplacian", beta=beta, n_components=n_components, random_state=random_state,
                    n_jobs=n_jobs, dtype=dtype,
                ),
            ),
        ]
    )


def make_sfmcgk(*, n_components=1024, beta="auto", output_length=None, random_state=None, n_jobs=None,
                dtype=np.float64):
    """SFMCGK: CGK walks (one-hot, L1 = Hamming) -> hashed Laplacian random Fourier features.

    beta="auto": twice the median L1 (= 2 x Hamming) distance between the
    fit strings' walks (see HashedRandomFourier). Returns an unfitted
    SFMPipeline: a scikit-learn Pipeline of the steps "cgk" and "fourier"
    (whose pandas output keeps the row labels of a pandas input). With an
    integer random_state
    both steps use it (the walk bits and the Fourier weights hash different
    keys, so they stay independent).
    """
    return SFMPipeline(
        [
            ("cgk", CGKEmbedding(output_length=output_length, random_state=random_state, n_jobs=n_jobs)),
            (
                "fourier",
                HashedRandomFourier(
                    kernel="laplacian", beta=beta, n_components=n_components, random_state=random_state,
                    n_jobs=n_jobs, dtype=dtype,
                ),
            ),
        ]
    )


__all__ = ["HashedRandomFourier", "SFMPipeline", "make_sfmedm", "make_sfmcgk"]
