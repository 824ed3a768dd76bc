"""Random Warping Series: scaling in N and L, threads, and dtaidistance side by side."""

import numpy as np

from .common import grid


def random_series(n, length, channels=3, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((n * length, channels), dtype=np.float32)
    return [values[i * length : (i + 1) * length] for i in range(n)]


def _fitted_rws(n_jobs=1, dtype=np.float32):
    from pyd2ke import RandomWarpingSeries

    return RandomWarpingSeries(256, max_length=10, derivative=False, random_state=0, n_jobs=n_jobs, dtype=dtype).fit(
        random_series(20, 50, seed=5)
    )


class RWSScaling:
    """Transform time against the number of series N and their length L
    (3 channels, R = 256 random series of length U{1..10}); linear in both."""

    params = (grid([100, 1000, 10000], [100]), grid([128, 512, 2048, 8192], [128, 512]))
    param_names = ["N", "L"]
    timeout = 600

    def setup(self, n, length):
        self.X = random_series(n, length)
        self.rws = _fitted_rws()

    def time_transform(self, n, length):
        self.rws.transform(self.X)

    def peakmem_transform(self, n, length):
        self.rws.transform(self.X)


class RWSThreads:
    """Transform time against threads and precision (N = 2000, L = 150, 3 channels)."""

    params = (grid([1, 2], [2]), ["float32", "float64"])
    param_names = ["n_jobs", "dtype"]

    def setup(self, n_jobs, dtype):
        self.X = random_series(2000, 150)
        self.rws = _fitted_rws(n_jobs, np.dtype(dtype))

    def time_transform(self, n_jobs, dtype):
        self.rws.transform(self.X)


class CompareDtaidistance:
    """The acceptance benchmark: N = 2000 series of 3 channels and length
    100..200 against R = 256 random series of length 1..10; RWS features vs
    dtaidistance.dtw_ndim.distance_matrix_fast on the same N x R block."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]
    timeout = 300

    def setup(self, n_jobs):
        rng = np.random.default_rng(0)
        self.X = [rng.standard_normal((rng.integers(100, 201), 3)) for _ in range(2000)]
        self.rws = _fitted_rws(n_jobs)
        self.both = self.X + [w.astype(np.float64) for w in self.rws.random_objects_]

    def time_pyd2ke_rws_float32(self, n_jobs):
        self.rws.transform(self.X)

    def time_dtaidistance_block(self, n_jobs):
        from dtaidistance import dtw_ndim

        n = len(self.X)
        dtw_ndim.distance_matrix_fast(self.both, block=((0, n), (n, len(self.both))), parallel=n_jobs > 1,
                                      compact=True)
