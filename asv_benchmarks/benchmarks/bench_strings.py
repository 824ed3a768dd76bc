"""Random String Embedding: scaling in N and L, threads, and rapidfuzz side by side."""

import numpy as np

from .common import SIMD_LEVELS, grid, random_short_strings, random_strings


class BuildInfo:
    """What the measured build runs: SIMD level (0 scalar, 1 SSE2, 2 AVX2,
    3 AVX-512) and OpenMP threads, recorded once with the results."""

    def track_simd_level(self):
        import pyd2ke

        return SIMD_LEVELS[pyd2ke.build_info()["simd"]]

    track_simd_level.unit = "level"

    def track_openmp_threads(self):
        from pyd2ke import _core

        return _core.max_threads() if _core.build_info()["openmp"] else 0

    track_openmp_threads.unit = "threads"


def _fitted_rse(n_components=256, max_length=10, n_jobs=1):
    from pyd2ke import RandomStringEmbedding

    rse = RandomStringEmbedding(n_components, sampler="rf", max_length=max_length, random_state=0, n_jobs=n_jobs)
    return rse.fit(random_strings(50, 64, seed=5))


class RSEScaling:
    """Transform time against the number of strings N and their length L
    (R = 256 random strings of length U{1..10}); linear in both."""

    params = (grid([1000, 10000, 100000], [1000]), grid([128, 512, 2048, 8192], [128, 512]))
    param_names = ["N", "L"]
    timeout = 600

    def setup(self, n, length):
        self.X = random_strings(n, length)
        self.rse = _fitted_rse(n_jobs=1)

    def time_transform(self, n, length):
        self.rse.transform(self.X)

    def peakmem_transform(self, n, length):
        self.rse.transform(self.X)


class RSEThreads:
    """Transform time against threads (N = 10000, L = 512, R = 256)."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]

    def setup(self, n_jobs):
        self.X = random_strings(10000, 512)
        self.rse = _fitted_rse(n_jobs=n_jobs)

    def time_transform(self, n_jobs):
        self.rse.transform(self.X)


class RSEFit:
    """Fit time per sampler (draws R = 1024 random strings, resolves gamma)."""

    params = ["rf", "rfd", "ss", "bss"]
    param_names = ["sampler"]

    def setup(self, sampler):
        from pyd2ke import RandomStringEmbedding

        self.X = random_strings(2000, 512)
        self.rse = RandomStringEmbedding(1024, sampler=sampler, max_length=10, random_state=0)

    def time_fit(self, sampler):
        self.rse.fit(self.X)


class RSMTransform:
    """The representative-set baseline: R = 256 training strings of length L
    as the "random" objects, so the cost grows with L squared (RSE's random
    strings stay short)."""

    params = (grid([300, 3000], [300]), grid([64, 256], [64]), grid([1, 2], [2]))
    param_names = ["N", "L", "n_jobs"]

    def setup(self, n, length, n_jobs):
        from pyd2ke import RepresentativeSetEmbedding

        self.X = random_strings(n, length)
        self.rsm = RepresentativeSetEmbedding(256, random_state=0, n_jobs=n_jobs).fit(self.X)

    def time_transform(self, n, length, n_jobs):
        self.rsm.transform(self.X)

    def peakmem_transform(self, n, length, n_jobs):
        self.rsm.transform(self.X)


class CompareRapidfuzz:
    """The acceptance benchmark: N = 10000 strings of length 512 against
    R = 256 random strings of length U{1..10}; pyd2ke's RSE features vs
    rapidfuzz.process.cdist(random_strings, strings, Levenshtein.distance)."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]

    def setup(self, n_jobs):
        from pyd2ke import _core

        self.X = random_strings(10000, 512)
        self.W = random_short_strings(256)
        self.engine = _core.LevenshteinBatch(self.W)
        self.out = np.empty((len(self.X), len(self.W)))

    def time_pyd2ke_features(self, n_jobs):
        self.engine.features_into(self.X, 0.1, "soft", self.out, n_jobs)

    def time_rapidfuzz_cdist(self, n_jobs):
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        process.cdist(self.W, self.X, scorer=Levenshtein.distance, workers=n_jobs)


class PairwiseLevenshtein:
    """pairwise_distances on N x N strings of length 60 (the DNA task's shape)."""

    params = [500, 2000]
    param_names = ["N"]

    def setup(self, n):
        self.X = random_strings(n, 60, alphabet=b"ACGT")

    def time_pairwise(self, n):
        from pyd2ke.distances import pairwise_distances

        pairwise_distances(self.X, n_jobs=1)

    def time_rapidfuzz_cdist(self, n):
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        process.cdist(self.X, self.X, scorer=Levenshtein.distance, workers=1)


class PairwiseLongLevenshtein:
    """pairwise_distances on N x N DNA strings of length 400: patterns of
    seven 64-bit words, side by side in SIMD lanes."""

    params = [300]
    param_names = ["N"]

    def setup(self, n):
        self.X = random_strings(n, 400, alphabet=b"ACGT")

    def time_pairwise(self, n):
        from pyd2ke.distances import pairwise_distances

        pairwise_distances(self.X, n_jobs=1)

    def time_rapidfuzz_cdist(self, n):
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        process.cdist(self.X, self.X, scorer=Levenshtein.distance, workers=1)
