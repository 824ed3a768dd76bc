"""Documents: weighted bags of word vectors, as a list of (word vectors
(n_words, dim), weights (n_words,)) pairs or as a bag-of-words matrix over
an embedding table; compared by the exact Earth Mover's distance with
Euclidean ground distance; random documents of random unit word vectors."""

import numpy as np
import scipy.sparse as sp

from .. import _core
from .._parallel import current_threads
from .._ragged import Ragged
from .._validation import as_list
from .base import Metric, RaggedDomain
from .point_sets import points, unit_rows, unit_sphere
from .word_vectors import WordVectors

# Random documents: U{MIN_WORDS..MAX_WORDS} words with uniform weights, drawn
# by DISTRIBUTION ("sphere": uniform on the unit sphere, as in D2KE).
MIN_WORDS, MAX_WORDS, DISTRIBUTION = 1, 6, "sphere"
DISTRIBUTIONS = ("sphere", "box", "vocabulary")


def check_document_weights(weights, offsets, name, columns=None):
    """ValueError naming the document (and its word) of a weight that is NaN,
    infinite or negative, or a document without a positive weight. columns:
    the bag-of-words matrix's column of every weight, which then names the
    word (else its position in the document's pair)."""
    packed = Ragged(None, offsets, weights)
    where = packed.first_bad_row(~np.isfinite(weights) | (weights < 0))
    if where is not None:
        i, word = where
        at = offsets[i] + word
        which = f"word {word}" if columns is None else f"column {int(columns[at])}"
        raise ValueError(f"{name}[{i}] has weight {float(weights[at])!r} ({which}); weights must be finite and >= 0")
    empty = np.flatnonzero(packed.segment_sums(weights > 0) == 0)
    if len(empty):
        raise ValueError(f"{name}[{int(empty[0])}] has only zero weights; a document needs some positive weight")


def _refuse_pairs(bow, name):
    """TypeError when a list of (word vectors, weights) pairs comes where a
    bag-of-words matrix belongs (an estimator given embeddings=)."""
    if isinstance(bow, (list, tuple)) and len(bow) and isinstance(bow[0], (list, tuple)) and len(bow[0]) == 2 \
            and np.ndim(bow[0][0]) == 2:
        raise TypeError(f"{name} is a list of (word vectors, weights) pairs, but with embeddings= the input is a "
                        f"bag-of-words matrix (n_documents, n_words); pass the pairs to an estimator without "
                        f"embeddings")


def bag_of_words_matrix(bow, name="X"):
    """A bag-of-words matrix (dense or scipy.sparse) as float64 CSR, as given."""
    if sp.issparse(bow):
        return sp.csr_matrix(bow)
    _refuse_pairs(bow, name)
    return sp.csr_matrix(np.asarray(bow, dtype=np.float64))


def smooth_idf(bow):
    """scikit-learn's smooth idf of a CSR bag-of-words matrix: ln((1 + n) / (1 + df)) + 1."""
    df = np.bincount(bow.indices[bow.data != 0], minlength=bow.shape[1]) if bow.nnz else np.zeros(bow.shape[1])
    return np.log((1.0 + bow.shape[0]) / (1.0 + df)) + 1.0


def documents_from_bow(embeddings, bow, name="X", dtype=np.float64, word_weights=None):
    """Documents from an embeddings table (a WordVectors, or what it reads)
    and a bag-of-words matrix (n_documents, vocabulary) of counts: document
    i is the embeddings of its non-zero words, weighted by count (times
    word_weights, e.g. idf)."""
    table = embeddings if isinstance(embeddings, WordVectors) else WordVectors(embeddings)
    if sp.issparse(bow):
        B = sp.csr_matrix(bow, dtype=np.float64)
        # Canonical form (sorted, summed, no stored zeros) is fixed on a copy:
        # csr_matrix may share the caller's arrays.
        if not B.has_canonical_format or not B.data.all():
            B = B.copy()
            B.sum_duplicates()
            B.eliminate_zeros()
    else:
        _refuse_pairs(bow, name)
        try:
            B = np.asarray(bow)
        except ValueError:  # ragged nested lists
            B = np.asarray(bow, dtype=object)
        if B.ndim != 2 or B.dtype.kind not in "biuf":
            raise ValueError(f"{name} must be a 2-D (sparse) matrix of word counts, got shape {B.shape}"
                             + ("" if B.dtype != object else " holding objects"))
        B = sp.csr_matrix(B.astype(np.float64))
        B.eliminate_zeros()
    if B.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one document is required")
    if B.shape[1] != len(table):
        raise ValueError(
            f"{name} has {B.shape[1]} columns (words), but embeddings has {len(table)} rows; they must match"
        )
    offsets = B.indptr.astype(np.int64)
    weights = B.data.copy()
    if word_weights is not None:
        weights *= word_weights[B.indices]
    check_document_weights(weights, offsets, name, columns=B.indices)
    # The words these documents use, as a small vocabulary of their own; the
    # word vectors of every occurrence are written out only if needed.
    used, word_ids = np.unique(B.indices, return_inverse=True)
    vocabulary = np.ascontiguousarray(table.rows(used), dtype=dtype)
    return Ragged(None, offsets, weights, word_ids.astype(np.int64), vocabulary)


def check_documents(X, name="X", dtype=np.float64):
    """Documents as a list of (word vectors (n_words, dim), weights (n_words,))
    pairs, or as a tuple (embeddings, scipy.sparse bag-of-words matrix). Returns a Ragged
    with weights (not normalised: the EMD normalises each document)."""
    if isinstance(X, Ragged):
        if X.weights is None:
            raise TypeError(f"{name} holds sets without weights, expected documents")
        return X.astype(dtype)
    if isinstance(X, tuple) and len(X) == 2 and sp.issparse(X[1]):
        return documents_from_bow(X[0], X[1], name, dtype)
    if sp.issparse(X) or (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "biuf"):
        raise TypeError(f"{name} is a matrix of shape {X.shape}: a bag-of-words matrix needs the vector of "
                        f"every word, its column (WordMoversEmbedding(embeddings=...), or the pair (embeddings, sparse "
                        f"matrix) for pairwise_distances); else pass a list of (word vectors, weights) pairs")
    X = as_list(X, name, "documents ((word vectors, weights) pairs)")
    packed = _pack_document_arrays(X, name, dtype)
    if packed is not None:
        return packed
    items, weights, dim = [], [], None
    for i, doc in enumerate(X):
        if isinstance(doc, np.ndarray) and doc.dtype == object and doc.shape == (2,):
            doc = tuple(doc)  # a row of an object array (n_documents, 2) of pairs
        if not (isinstance(doc, (tuple, list)) and len(doc) == 2):
            raise TypeError(f"{name}[{i}] is {type(doc).__name__}; a document is a pair (word vectors, weights)")
        if isinstance(doc[0], (list, tuple)) and np.ndim(doc[0]) == 1:
            # Two word vectors written as lists pass for a (vectors, weights) pair of one-dimensional words.
            raise ValueError(f"{name}[{i}] is a pair whose first part is a list of {len(doc[0])} numbers: as (word "
                             f"vectors, weights) that is {len(doc[0])} words of one dimension, and two word vectors "
                             f"look the same. Pass the word vectors as a 2-D array (n_words, dim) with their weights, "
                             f"(np.array(vectors), weights); one-dimensional words as an array too")
        a = points(doc[0], f"{name}[{i}] vectors", dim)
        dim = a.shape[1]
        w = np.asarray(doc[1])
        if w.dtype == object or not (np.issubdtype(w.dtype, np.number) or w.dtype == bool) or np.iscomplexobj(w):
            raise TypeError(f"{name}[{i}] weights have dtype {w.dtype}, expected real numbers")
        if w.ndim != 1 or len(w) != len(a):
            raise ValueError(f"{name}[{i}] has {len(a)} word vectors but weights of shape {w.shape}; one weight per word")
        items.append(a)
        weights.append(w)
    packed = Ragged.pack(items, dtype, weights).check_finite(name, "point")
    check_document_weights(packed.weights, packed.offsets, name)
    return packed


def _pack_document_arrays(X, name, dtype):
    """Documents that are all (vectors, weights) pairs of real ndarrays,
    packed by the core on the current threads: a loop over the documents in
    Python was most of WordMoversEmbedding's serial time (0.03 s of 2.3 at
    one thread; 15 % of its time at 16 threads). None for anything else, and
    for weights that do not match the vectors: check_documents' loop then
    names what is wrong."""
    if not all(type(doc) in (tuple, list) and len(doc) == 2 and getattr(doc[1], "ndim", None) == 1 for doc in X):
        return None
    vectors = Ragged.pack_arrays([doc[0] for doc in X], dtype, name, "point")
    if vectors is None:
        return None
    packed_weights = _core.pack_rows_float64([doc[1] for doc in X], current_threads())  # 1-D: one column
    if packed_weights is None or not np.array_equal(packed_weights[1], vectors.offsets):
        return None
    weights = packed_weights[0].ravel()
    check_document_weights(weights, vectors.offsets, name)
    return Ragged(vectors.values, vectors.offsets, weights)


class EmdEngine:
    """An EmdBatch; dtype is the precision of the ground distances (the
    transportation problems are always solved in float64)."""

    def __init__(self, documents, dtype):
        packed = check_documents(documents, "documents", dtype)
        cls = _core.EmdBatch32 if np.dtype(dtype) == np.float32 else _core.EmdBatch64
        self._dtype = np.dtype(dtype)
        self._batch = cls(packed.values, packed.weights, packed.offsets)

    def distances_into(self, X, out, n_threads):
        X = X.astype(self._dtype)
        if X.word_ids is not None:  # from a bag of words: ground costs once per distinct word
            self._batch.vocabulary_distances_into(X.vocabulary, X.word_ids, X.weights, X.offsets, out, n_threads)
        else:
            self._batch.distances_into(X.values, X.weights, X.offsets, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        X = X.astype(self._dtype)
        if X.word_ids is not None:
            self._batch.vocabulary_features_into(X.vocabulary, X.word_ids, X.weights, X.offsets, gamma, kernel,
                                                 out, n_threads)
        else:
            self._batch.features_into(X.values, X.weights, X.offsets, gamma, kernel, out, n_threads)


def draw_random_documents(X, n, rng, min_words=MIN_WORDS, max_words=MAX_WORDS, distribution=DISTRIBUTION,
                          vocabulary=None):
    """n random documents of U{min_words..max_words} words with uniform weights.

    distribution "sphere": words uniform on the unit sphere; "box": uniform in
    [v_min, v_max]^dim, then L2-normalised (v_min, v_max: the smallest and
    largest coordinate of the vocabulary); "vocabulary": word vectors drawn
    with probability proportional to their count. vocabulary is (word
    vectors, counts) of the fit data's bag of words, None for the word
    vectors and weights of the checked documents X.
    """
    if distribution != "sphere":  # (X.values of a bag of words are written out only here)
        words, counts = vocabulary if vocabulary is not None else (X.values, X.weights)
    if distribution == "vocabulary":
        counts = np.maximum(counts, 0)
        p = counts / counts.sum()
        docs = []
        for m in rng.randint(min_words, max_words + 1, size=n):
            docs.append((words[rng.choice(len(p), size=m, p=p)].astype(np.float64), np.full(m, 1.0 / m)))
        return docs
    box = (float(np.min(words)), float(np.max(words))) if distribution == "box" else None
    docs = []
    for m in rng.randint(min_words, max_words + 1, size=n):
        if distribution == "sphere":
            vectors = unit_sphere(rng, m, X.dim)
        else:
            vectors = unit_rows(rng.uniform(box[0], box[1], size=(m, X.dim)))
        docs.append((vectors, np.full(m, 1.0 / m)))
    return docs


class DocumentDomain(RaggedDomain):
    name = "documents"
    input_format = ("a pair (word vectors (n_words, dim), weights (n_words,)), or X a tuple (embeddings "
                    "(vocabulary, dim), scipy.sparse bag-of-words matrix (n_documents, vocabulary))")
    metrics = {"emd": Metric("emd", summary="the exact Earth Mover's distance between the weight distributions "
                                            "(each normalised to sum 1) with Euclidean ground distance, solved in "
                                            "float64 by a transportation simplex")}
    sampler_defaults = {"min_words": MIN_WORDS, "max_words": MAX_WORDS, "distribution": DISTRIBUTION}

    def check_ragged(self, X, name, dtype):
        return check_documents(X, name, dtype)

    def make_engine(self, metric, objects, params, dtype):
        return EmdEngine(objects, dtype)

    def draw_random_objects(self, X, flavour, n, rng, **params):
        return draw_random_documents(X, n, rng, **{**self.sampler_defaults, **params})

    def is_packable_list(self, X):
        # (embeddings, bag of words) is a tuple, but packed as a whole.
        if isinstance(X, tuple) and len(X) == 2 and sp.issparse(X[1]):
            return False
        return super().is_packable_list(X)


DOCUMENTS = DocumentDomain()
