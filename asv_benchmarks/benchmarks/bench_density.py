"""Density kernels on sample sets: JS / Hellinger / L2 features against the
number of sets N and the set size (linear in both), many small sets in 1-3
dimensions (where a per-set cost would show), threads, and the MMD
mean-embedding baseline at the same size."""

import numpy as np

from .common import grid


def mixture_sets(n, size, seed=0):
    """n sets of `size` points in R^2, each from a mixture of 1..10 Gaussians
    (means in [-5, 5]^2, random covariances), as in the paper's regression task."""
    rng = np.random.default_rng(seed)
    sets = []
    for _ in range(n):
        k = int(rng.integers(1, 11))
        means = rng.uniform(-5.0, 5.0, (k, 2))
        A = rng.uniform(-1.0, 1.0, (k, 2, 2))
        comp = rng.integers(0, k, size)
        sets.append(means[comp] + np.einsum("nij,nj->ni", A[comp], rng.standard_normal((size, 2))))
    return sets


def _fitted(method, size, n_jobs=1):
    from pyd2ke.density import DensityKernelFeatures, MeanEmbeddingFeatures

    fit_sets = mixture_sets(20, size, seed=5)
    if method == "mmd":
        return MeanEmbeddingFeatures(1000, random_state=0, n_jobs=n_jobs).fit(fit_sets)
    return DensityKernelFeatures(method, n_components=1000, random_state=0, n_jobs=n_jobs).fit(fit_sets)


class DensityScaling:
    """Transform time against N and the set size (2-D sets, |V| = 100,
    32 x 32 integration grid, M = 5, D = 1000; one thread)."""

    params = (grid(["js", "hellinger", "l2"], ["js"]), grid([50, 200], [50]), grid([100, 400, 1600], [100, 400]))
    param_names = ["divergence", "N", "set_size"]
    timeout = 120

    def setup(self, method, n, size):
        self.X = mixture_sets(n, size)
        self.est = _fitted(method, size)

    def time_transform(self, method, n, size):
        self.est.transform(self.X)

    def peakmem_transform(self, method, n, size):
        self.est.transform(self.X)


class DensityPeers:
    """JS features next to the L2 and MMD baselines (N = 50 sets of 400 points)."""

    params = ["js", "l2", "mmd"]
    param_names = ["method"]
    timeout = 120

    def setup(self, method):
        self.X = mixture_sets(50, 400)
        self.est = _fitted(method, 400)

    def time_transform(self, method):
        self.est.transform(self.X)

    def time_projection_features(self, method):
        if method == "mmd":
            self.est.mean_embeddings(self.X)
        else:
            self.est.projection_features(self.X)


class DensityThreads:
    """JS features with 1 and 2 threads (N = 256 sets of 400 points: four blocks)."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]
    timeout = 120

    def setup(self, n_jobs):
        self.X = mixture_sets(256, 400)
        self.est = _fitted("js", 400, n_jobs)

    def time_transform(self, n_jobs):
        self.est.transform(self.X)


def small_sets(n, n_dims, seed=0):
    """n Gaussian sets of 20-60 points in R^n_dims, random centres and widths."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(20, 61, n)
    return [rng.normal(rng.uniform(-1, 1, n_dims), rng.uniform(0.3, 1.5), (s, n_dims)) for s in sizes]


class DensityManySmallSets:
    """JS features of many sets of 20-60 points (fitted on 200 of them; one
    thread; 3-D with |V| = 100): grid (256, 32^2, 8^3 nodes) and random
    integration (4096 points)."""

    params = (grid([1, 2, 3], [2]), grid(["grid", "random"], ["grid"]), grid([2000, 10000], [2000]))
    param_names = ["n_dims", "integration", "N"]
    timeout = 300

    def setup(self, n_dims, integration, n):
        from pyd2ke.density import DensityKernelFeatures

        self.X = small_sets(n, n_dims)
        extra = {"basis_size": 100} if n_dims == 3 else {}
        self.est = DensityKernelFeatures("js", n_components=256, integration=integration, random_state=0,
                                         n_jobs=1, **extra).fit(self.X[:200])

    def time_transform(self, n_dims, integration, n):
        self.est.transform(self.X)
