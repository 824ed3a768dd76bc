"""One small configuration of every public estimator, with a data generator
for its input domain. Shared by the reproducibility and pickle-size tests and
by benchmarks/pickle_sizes.py, so that "every estimator" means the same list."""

import numpy as np
import scipy.sparse as sp

import pyd2ke

VOCABULARY, WORD_DIM = 60, 5
# Fixed word vectors for the bag-of-words form of WordMoversEmbedding.
EMBEDDINGS = np.random.default_rng(1234).normal(size=(VOCABULARY, WORD_DIM))


def strings(n, seed=0):
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(list("ACGT"), rng.integers(5, 60))) for _ in range(n)]


def series(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(rng.integers(5, 40), 2)) for _ in range(n)]


def sets(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(rng.integers(2, 12), 4)) for _ in range(n)]


def documents(n, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        m = rng.integers(1, 9)
        out.append((rng.normal(size=(m, WORD_DIM)), rng.random(m) + 0.1))
    return out


def bag_of_words(n, seed=0):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(0.15, size=(n, VOCABULARY)).astype(np.float64)
    counts[np.arange(n), rng.integers(0, VOCABULARY, n)] += 1  # no empty document
    return sp.csr_matrix(counts)


def vectors(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 12))
    return X / (2 * np.linalg.norm(X, axis=1, keepdims=True))  # norms 0.5: fine for vovk_inf too


def sample_sets(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(loc=rng.uniform(0, 3), size=(rng.integers(20, 60), 2)) for _ in range(n)]


def sparse_vectors(n, seed=0):
    rng = np.random.default_rng(seed)
    return sp.random(n, 300, density=0.05, format="csr", random_state=rng)


# name -> (make(random_state, n_jobs) -> unfitted estimator, data(n, seed))
CASES = {
    "rse-bss": (lambda rs, nj: pyd2ke.RandomStringEmbedding(24, random_state=rs, n_jobs=nj), strings),
    "rse-rfd-f32": (
        lambda rs, nj: pyd2ke.RandomStringEmbedding(24, sampler="rfd", dtype=np.float32, random_state=rs, n_jobs=nj),
        strings,
    ),
    "rws": (lambda rs, nj: pyd2ke.RandomWarpingSeries(24, random_state=rs, n_jobs=nj), series),
    "rws-window-f32": (
        lambda rs, nj: pyd2ke.RandomWarpingSeries(24, window=3, dtype=np.float32, random_state=rs, n_jobs=nj),
        series,
    ),
    "sets": (lambda rs, nj: pyd2ke.RandomSetEmbedding(24, random_state=rs, n_jobs=nj), sets),
    "sets-hausdorff-f32": (
        lambda rs, nj: pyd2ke.RandomSetEmbedding(24, metric="hausdorff", dtype=np.float32, random_state=rs,
                                                 n_jobs=nj),
        sets,
    ),
    "wme-pairs": (lambda rs, nj: pyd2ke.WordMoversEmbedding(16, random_state=rs, n_jobs=nj), documents),
    "wme-bow-tfidf": (
        lambda rs, nj: pyd2ke.WordMoversEmbedding(16, embeddings=EMBEDDINGS, weighting="tfidf",
                                                  distribution="vocabulary", random_state=rs, n_jobs=nj),
        bag_of_words,
    ),
    "d2ke-dtw": (lambda rs, nj: pyd2ke.D2KE("dtw", n_components=16, random_state=rs, n_jobs=nj), series),
    "d2ke-representative": (
        lambda rs, nj: pyd2ke.D2KE("levenshtein", sampler="representative", n_components=16, random_state=rs,
                                   n_jobs=nj),
        strings,
    ),
    "rsm-sets": (
        lambda rs, nj: pyd2ke.RepresentativeSetEmbedding(16, metric="modified_hausdorff", random_state=rs,
                                                         n_jobs=nj),
        sets,
    ),
    "maclaurin": (lambda rs, nj: pyd2ke.RandomMaclaurin(64, random_state=rs, n_jobs=nj), vectors),
    "maclaurin-exp-h01-f32": (
        lambda rs, nj: pyd2ke.RandomMaclaurin(64, kernel="exp", h01=True, max_degree=6, dtype=np.float32,
                                              random_state=rs, n_jobs=nj),
        vectors,
    ),
    "maclaurin-sparse": (lambda rs, nj: pyd2ke.RandomMaclaurin(64, random_state=rs, n_jobs=nj), sparse_vectors),
    "fourier-rbf": (
        lambda rs, nj: pyd2ke.HashedRandomFourier(kernel="rbf", n_components=64, random_state=rs, n_jobs=nj),
        vectors,
    ),
    "fourier-sparse": (
        lambda rs, nj: pyd2ke.HashedRandomFourier(n_components=64, random_state=rs, n_jobs=nj), sparse_vectors
    ),
    "density-js": (
        lambda rs, nj: pyd2ke.DensityKernelFeatures("js", n_components=64, random_state=rs, n_jobs=nj), sample_sets
    ),
    "density-tv-f32": (
        lambda rs, nj: pyd2ke.DensityKernelFeatures("tv", n_components=64, dtype=np.float32, random_state=rs,
                                                    n_jobs=nj),
        sample_sets,
    ),
    "mmd": (lambda rs, nj: pyd2ke.MeanEmbeddingFeatures(64, random_state=rs, n_jobs=nj), sample_sets),
    "esp": (lambda rs, nj: pyd2ke.ESPVectorizer(n_features=2**12, n_jobs=nj), strings),
    "cgk": (lambda rs, nj: pyd2ke.CGKEmbedding(random_state=rs, n_jobs=nj), strings),
    "sfmedm": (lambda rs, nj: pyd2ke.make_sfmedm(n_components=64, random_state=rs, n_jobs=nj), strings),
    "sfmcgk": (lambda rs, nj: pyd2ke.make_sfmcgk(n_components=64, random_state=rs, n_jobs=nj), strings),
}


def set_dtype(estimator, dtype):
    """The output dtype of an estimator, or of every step of a pipeline that has one."""
    if hasattr(estimator, "steps"):
        for name, step in estimator.steps:
            if "dtype" in step.get_params(deep=False):
                estimator.set_params(**{f"{name}__dtype": dtype})
        return estimator
    if isinstance(estimator, pyd2ke.ESPVectorizer) and estimator.output == "sketch":
        return estimator  # sketches are uint64 labels and float64 counts whatever dtype is
    return estimator.set_params(dtype=dtype)


def as_dense(Z):
    """Outputs as comparable arrays (ESP and CGK give scipy.sparse)."""
    if sp.issparse(Z):
        Z = Z.tocsr()
        return np.concatenate([Z.indptr.astype(np.float64), Z.indices.astype(np.float64), Z.data.astype(np.float64)])
    return np.asarray(Z)


def graphs(n, seed=0):
    """Random labelled graphs of 2-25 nodes (some disconnected, some with
    isolated nodes), as (adjacency, labels) pairs, sparse and dense."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        m = int(rng.integers(2, 26))
        A = np.triu((rng.random((m, m)) < rng.uniform(0.1, 0.5)).astype(np.float64), 1)
        A += A.T
        labels = rng.integers(0, 4, m)
        out.append((sp.csr_matrix(A) if i % 2 else A, labels))
    return out


def ring_graphs(n, seed=0):
    """Labelled rings of 10 nodes with two random chords: representatives
    drawn from them pickle to nearly the same size whatever n is."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        A = np.eye(10, k=1) + np.eye(10, k=-9)
        A[rng.integers(0, 10, 2), rng.integers(0, 10, 2)] = rng.uniform(0.5, 2.0, 2)
        A = np.triu(A + A.T, 1)
        out.append((sp.csr_matrix(A + A.T), rng.integers(0, 4, 10)))
    return out


def unlabelled_graphs(n, seed=0):
    return [a for a, _ in graphs(n, seed)]


# Graph estimators: kept apart from CASES, whose key set tests/test_golden.py
# records; test_api.py and test_reproducibility.py run over ALL_CASES.
GRAPH_CASES = {
    "rge-anchor": (lambda rs, nj: pyd2ke.RandomGraphEmbedding(16, random_state=rs, n_jobs=nj), graphs),
    "rge-uniform-direct-f32": (
        lambda rs, nj: pyd2ke.RandomGraphEmbedding(16, sampler="uniform", kernel="direct", n_eigenvectors=4,
                                                   dtype=np.float32, random_state=rs, n_jobs=nj),
        unlabelled_graphs,
    ),
    "rsm-graphs": (
        lambda rs, nj: pyd2ke.RepresentativeSetEmbedding(12, metric="graph_emd", random_state=rs, n_jobs=nj),
        ring_graphs,
    ),
}
ALL_CASES = {**CASES, **GRAPH_CASES}
