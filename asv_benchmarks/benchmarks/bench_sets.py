"""Sets of vectors and documents: RandomSetEmbedding and WordMoversEmbedding
scaling in N, set size and threads, and their peers (numpy GEMM, POT)."""

import numpy as np

from .common import grid


def random_sets(n, size, dim=128, seed=0):
    """n float32 sets of `size` unit vectors in R^dim."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((n * size, dim), dtype=np.float32)
    values /= np.linalg.norm(values, axis=1, keepdims=True)
    return [values[i * size : (i + 1) * size] for i in range(n)]


def random_documents(n, words, dim=50, seed=0):
    """n documents of `words` Gaussian word vectors with random weights."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((n * words, dim))
    weights = rng.random(n * words) + 0.1
    return [(values[i * words : (i + 1) * words], weights[i * words : (i + 1) * words]) for i in range(n)]


def _fitted_sets(n_jobs=1):
    from pyd2ke import RandomSetEmbedding

    return RandomSetEmbedding(128, random_state=0, n_jobs=n_jobs, dtype=np.float32).fit(random_sets(10, 20, seed=5))


def _fitted_documents(n_jobs=1, dim=50):
    from pyd2ke import WordMoversEmbedding

    return WordMoversEmbedding(128, max_words=21, random_state=0, n_jobs=n_jobs).fit(
        random_documents(10, 20, dim, seed=5)
    )


class SetScaling:
    """Modified Hausdorff features against N and the set size (128-d unit
    vectors, R = 128 random sets of U{3..15} points); linear in both."""

    params = (grid([100, 1000], [100]), grid([16, 128, 512], [16, 128]))
    param_names = ["N", "set_size"]
    timeout = 300

    def setup(self, n, size):
        self.X = random_sets(n, size)
        self.est = _fitted_sets()

    def time_transform(self, n, size):
        self.est.transform(self.X)

    def peakmem_transform(self, n, size):
        self.est.transform(self.X)


class DocumentScaling:
    """Word Mover's features against N and the document length (50-d words,
    R = 128 random documents of U{1..21} words); linear in both."""

    params = (grid([100, 1000], [100]), [50, 200])
    param_names = ["N", "words"]
    timeout = 300

    def setup(self, n, words):
        self.X = random_documents(n, words)
        self.est = _fitted_documents()

    def time_transform(self, n, words):
        self.est.transform(self.X)

    def peakmem_transform(self, n, words):
        self.est.transform(self.X)


class DocumentBagOfWords:
    """Word Mover's features of the first N BBC News training articles (50-d
    GloVe) in the bag-of-words form, which computes the ground costs once
    per distinct word, and as (word vectors, counts) pairs, once per word
    occurrence; R = 128 random documents of U{1..21} words."""

    params = (grid([100, 1000], [100]), ["bag_of_words", "pairs"])
    param_names = ["N", "form"]
    timeout = 300

    def setup(self, n, form):
        from pyd2ke import WordMoversEmbedding
        from pyd2ke.datasets import load_bbc_news

        bbc = load_bbc_news()
        bow = bbc.bow_train[:n]
        if form == "bag_of_words":
            self.X = bow
            self.est = WordMoversEmbedding(128, embeddings=bbc.embeddings, max_words=21, random_state=0)
        else:
            self.X = [(bbc.embeddings[bow[i].indices], bow[i].data) for i in range(n)]
            self.est = WordMoversEmbedding(128, max_words=21, random_state=0)
        self.est.fit(self.X[:10])

    def time_transform(self, n, form):
        self.est.transform(self.X)

    def peakmem_transform(self, n, form):
        self.est.transform(self.X)


class SetThreads:
    """Both transformers against n_jobs (N = 200 sets of 200 vectors, 200
    documents of 100 words)."""

    params = grid([1, 2], [2])
    param_names = ["n_jobs"]

    def setup(self, n_jobs):
        self.sets = random_sets(200, 200)
        self.docs = random_documents(200, 100)
        self.set_est = _fitted_sets(n_jobs)
        self.doc_est = _fitted_documents(n_jobs)

    def time_sets(self, n_jobs):
        self.set_est.transform(self.sets)

    def time_documents(self, n_jobs):
        self.doc_est.transform(self.docs)


class CompareSetPeers:
    """One core, same pairs: WordMoversEmbedding vs POT's ot.emd2 with the
    costs precomputed (100 documents of 50..200 words x 128 random
    documents); RandomSetEmbedding vs the numpy GEMM formulation (100 sets of
    50..500 vectors x 128 random sets)."""

    timeout = 300

    def setup(self):
        from threadpoolctl import threadpool_limits

        rng = np.random.default_rng(0)
        n_docs = grid(100, 20)  # POT takes seconds for 100 x 128 pairs: fewer in the smoke run
        self.docs = [(rng.standard_normal((m, 50)), rng.random(m) + 0.1) for m in rng.integers(50, 201, n_docs)]
        self.doc_est = _fitted_documents()
        self.problems = []
        for a, wa in self.docs:
            for b, wb in self.doc_est.random_objects_:
                cost = np.sqrt(np.maximum((a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T, 0))
                self.problems.append((wa / wa.sum(), wb / wb.sum(), cost))
        self.sets = [s[: int(m)] for s, m in zip(random_sets(100, 500), rng.integers(50, 501, 100))]
        self.set_est = _fitted_sets()
        self.points = np.concatenate(self.set_est.random_objects_).astype(np.float32)
        sizes = [len(w) for w in self.set_est.random_objects_]
        self.starts = np.r_[0, np.cumsum(sizes)[:-1]]
        self.sizes = np.array(sizes)
        self.limits = threadpool_limits(1)

    def teardown(self):
        self.limits.unregister()

    def time_wme_pyd2ke(self):
        self.doc_est.transform(self.docs)

    def time_wme_pot_emd2(self):
        import ot

        for a, b, cost in self.problems:
            ot.emd2(a, b, cost)

    def time_sets_pyd2ke(self):
        self.set_est.transform(self.sets)

    def time_sets_numpy_gemm(self):
        norms = (self.points * self.points).sum(1)
        for x in self.sets:
            g = x @ self.points.T
            g *= -2
            g += norms
            g += (x * x).sum(1)[:, None]
            rows = np.sqrt(np.maximum(np.minimum.reduceat(g, self.starts, axis=1), 0)).mean(0)
            cols = np.add.reduceat(np.sqrt(np.maximum(g.min(0), 0)), self.starts) / self.sizes
            np.maximum(rows, cols)
