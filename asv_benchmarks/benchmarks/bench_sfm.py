"""SFMEDM / SFMCGK building blocks: ESP parsing, CGK walks, hashed random
Fourier features (dense, sketch) against scikit-learn's RBFSampler, and the
O(D) memory of the hashed map at input dimension 2^63. Every case runs well
under a second."""

import numpy as np

from .common import grid, random_strings


class ESPParse:
    """ESP characteristic vectors of random protein strings of length 300."""

    params = (grid([1000, 3000], [1000]), grid([1, 2], [2]))
    param_names = ["N", "n_jobs"]

    def setup(self, n, n_jobs):
        from pyd2ke.sketches import ESPVectorizer, esp_sketches

        self.X = random_strings(n, 300)
        self.esp_sketches = esp_sketches
        self.vectorizer = ESPVectorizer(n_jobs=n_jobs).fit(self.X[:1])

    def time_esp_sketches(self, n, n_jobs):
        self.esp_sketches(self.X, n_jobs=n_jobs)

    def time_esp_vectorizer_csr(self, n, n_jobs):
        self.vectorizer.transform(self.X)


class ESPOneString:
    """ESPVectorizer on one short string: the fixed cost of a transform (its
    output arrays once took a fresh huge page each: 0.5 ms, against 20 us)."""

    params = ["csr", "sketch"]
    param_names = ["output"]

    def setup(self, output):
        from pyd2ke.sketches import ESPVectorizer

        self.X = ["MKVLAAGIVGLLLA"]
        self.vectorizer = ESPVectorizer(output=output, n_jobs=1).fit(self.X)

    def time_transform(self, output):
        self.vectorizer.transform(self.X)


class CGKWalks:
    params = (grid([1000, 3000], [1000]), grid([1, 2], [2]))
    param_names = ["N", "n_jobs"]

    def setup(self, n, n_jobs):
        from pyd2ke.sketches import CGKEmbedding

        self.X = random_strings(n, 300)
        self.cgk = CGKEmbedding(output="symbols", random_state=0, n_jobs=n_jobs).fit(self.X[:10])

    def time_transform(self, n, n_jobs):
        self.cgk.transform(self.X)


class HashedFourierDense:
    """RBF features of dense X (1000, 128), D = 4096, next to RBFSampler at the same thread count
    (benchmarks/sfm_report.py runs the full (100000, 128) case)."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]

    def setup(self, n_jobs):
        from sklearn.kernel_approximation import RBFSampler

        from pyd2ke.fourier import HashedRandomFourier

        self.X = np.random.default_rng(0).standard_normal((1000, 128))
        self.h = HashedRandomFourier(kernel="rbf", gamma=1 / 128, n_components=4096, random_state=0, n_jobs=n_jobs)
        self.h.fit(self.X[:10])
        self.r = RBFSampler(gamma=1 / 128, n_components=4096, random_state=0).fit(self.X[:10])

    def time_hashed_random_fourier(self, n_jobs):
        self.h.transform(self.X)

    def time_sklearn_rbf_sampler(self, n_jobs):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=n_jobs):
            self.r.transform(self.X)


class HashedFourierSketch:
    """SFMEDM's projection: Laplacian features of ESP sketches (500 strings of length 60)."""

    params = (grid([512, 2048], [512]), grid([1, 2], [2]))
    param_names = ["D", "n_jobs"]

    def setup(self, n_components, n_jobs):
        from pyd2ke.fourier import HashedRandomFourier
        from pyd2ke.sketches import esp_sketches

        self.S = esp_sketches(random_strings(500, 60, alphabet=b"ACGT"))
        self.h = HashedRandomFourier(beta=50.0, n_components=n_components, random_state=0, n_jobs=n_jobs).fit(self.S)

    def time_transform(self, n_components, n_jobs):
        self.h.transform(self.S)


class HashedFourierMemory:
    """Acceptance 3: input ids anywhere in [0, 2^63), D = 16384. The hashed
    map's peak is its output plus D/2 doubles per thread; an explicit FM needs
    d x D/2 doubles (here d = 300: 19 MiB; at d = 10^6: 61 GiB)."""

    def setup(self):
        from pyd2ke.fourier import HashedRandomFourier
        from pyd2ke.sketches import ESPSketches

        rng = np.random.default_rng(0)
        ids = np.sort(rng.integers(0, 2**63, size=1000, dtype=np.uint64))
        self.S = ESPSketches(ids, np.ones(1000), np.arange(0, 1001, 100))
        self.h = HashedRandomFourier(n_components=16384, random_state=0, n_jobs=1).fit(self.S)
        self.dense = rng.random((10, 300))

    def peakmem_hashed_d_2_63_D_16384(self):
        self.h.transform(self.S)

    def peakmem_explicit_fm_d_300_D_16384(self):
        W = np.random.default_rng(0).standard_cauchy(size=(300, 8192))
        P = self.dense @ W
        np.hstack([np.cos(P), np.sin(P)])


class SFMPipelines:
    """End-to-end SFMEDM / SFMCGK (default parameters, D = 1024) against N,
    L and threads: the numbers behind `python -m pyd2ke scaling`."""

    params = (["sfmedm", "sfmcgk"], grid([300, 3000], [300]), grid([16, 128], [16]), grid([1, 2], [2]))
    param_names = ["method", "N", "L", "n_jobs"]

    def setup(self, method, n, length, n_jobs):
        from pyd2ke import make_sfmcgk, make_sfmedm

        make = make_sfmedm if method == "sfmedm" else make_sfmcgk
        self.X = random_strings(n, length)
        self.model = make(random_state=0, n_jobs=n_jobs).fit(self.X[:50])

    def time_transform(self, method, n, length, n_jobs):
        self.model.transform(self.X)

    def peakmem_transform(self, method, n, length, n_jobs):
        self.model.transform(self.X)
