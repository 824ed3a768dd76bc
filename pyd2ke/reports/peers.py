"""The tools a user would pick instead of a distance-based embedding, as
scikit-learn transformers for ``python -m pyd2ke reproduce`` (the library
never imports this module):

- strings: the k-mer spectrum (counts of every k-mer, rows scaled to unit
  length: the normalised spectrum kernel) and, where every string has the
  same length, one-hot symbols per position;
- sets of vectors: a bag of visual words (a k-means codebook of the training
  descriptors, each set a normalised histogram of its nearest code words).

Each is followed by a linear SVM in the report. Only scikit-learn is needed.
"""

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.cluster import MiniBatchKMeans
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import Normalizer, OneHotEncoder
from threadpoolctl import threadpool_limits


def kmer_spectrum(k):
    """Counts of all k-mers (exactly k symbols) of each string, rows scaled to unit L2 norm."""
    return make_pipeline(CountVectorizer(analyzer="char", ngram_range=(k, k), lowercase=False), Normalizer())


class PositionOneHot(TransformerMixin, BaseEstimator):
    """One-hot symbols per position of equal-length strings (unseen symbols: all zeros)."""

    def fit(self, X, y=None):
        self.encoder_ = OneHotEncoder(handle_unknown="ignore").fit(self._symbols(X))
        return self

    def transform(self, X):
        return self.encoder_.transform(self._symbols(X))

    @staticmethod
    def _symbols(X):
        lengths = {len(s) for s in X}
        if len(lengths) != 1:
            raise ValueError(f"PositionOneHot needs strings of one length, got lengths {sorted(lengths)[:5]}...")
        return np.array([list(s) for s in X])


def equal_lengths(X):
    """True when every string of X has the same length."""
    return len({len(s) for s in X}) == 1


class BagOfVisualWords(TransformerMixin, BaseEstimator):
    """Each set of vectors as the histogram of its vectors' nearest code words,
    rows scaled to unit L2 norm; the codebook is k-means (MiniBatchKMeans) on
    all training vectors."""

    def __init__(self, n_words=256, random_state=0):
        self.n_words = n_words
        self.random_state = random_state

    def fit(self, X, y=None):
        points = np.concatenate(X).astype(np.float32)
        # One OpenMP thread: on a loaded machine scikit-learn's k-means threads
        # wait for each other (measured: 46 s on two threads, 4.8 s on one).
        with threadpool_limits(1, user_api="openmp"):
            self.kmeans_ = MiniBatchKMeans(self.n_words, batch_size=4096, n_init=1,
                                           random_state=self.random_state).fit(points)
        return self

    def transform(self, X):
        with threadpool_limits(1, user_api="openmp"):
            words = self.kmeans_.predict(np.concatenate(X).astype(np.float32))
        owner = np.repeat(np.arange(len(X)), [len(s) for s in X])
        H = np.zeros((len(X), self.n_words))
        np.add.at(H, (owner, words), 1.0)
        return H / np.maximum(np.linalg.norm(H, axis=1, keepdims=True), 1e-12)
