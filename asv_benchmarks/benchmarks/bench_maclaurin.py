"""Random Maclaurin features: scaling in N, d and D, threads, and the peers
(the bare BLAS product the transform needs, scikit-learn's PolynomialCountSketch)."""

import numpy as np

from .common import grid


def _data(n, d, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d))


class MaclaurinScaling:
    """Transform time against N, d and D (poly kernel of degree 2)."""

    params = (grid([1000, 10000, 100000], [1000]), [16, 128], grid([256, 4096], [256]))
    param_names = ["N", "d", "D"]
    timeout = 300

    def setup(self, n, d, n_components):
        from pyd2ke import RandomMaclaurin

        self.X = _data(n, d)
        self.rm = RandomMaclaurin(n_components, kernel="poly", degree=2, random_state=0, n_jobs=1).fit(self.X[:10])

    def time_transform(self, n, d, n_components):
        self.rm.transform(self.X)

    def peakmem_transform(self, n, d, n_components):
        self.rm.transform(self.X)


class MaclaurinPeers:
    """The acceptance benchmark: X of shape (100000, 128), D = 4096."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]
    timeout = 300

    def setup(self, n_jobs):
        from sklearn.kernel_approximation import PolynomialCountSketch

        from pyd2ke import RandomMaclaurin

        self.X = _data(100000, 128)
        self.rm = RandomMaclaurin(4096, kernel="poly", degree=2, random_state=0, n_jobs=n_jobs).fit(self.X[:10])
        self.W = self.rm.rademacher_.astype(np.float64)
        self.pcs = PolynomialCountSketch(degree=2, n_components=4096, random_state=0).fit(self.X[:10])

    def time_random_maclaurin(self, n_jobs):
        self.rm.transform(self.X)

    def time_bare_blas_product(self, n_jobs):
        self.X @ self.W

    def time_polynomial_count_sketch(self, n_jobs):
        # In 10000-row chunks: its complex FFTs of all 100000 rows exceed the memory.
        for i in range(0, len(self.X), 10000):
            self.pcs.transform(self.X[i : i + 10000])
