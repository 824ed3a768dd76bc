"""Sets of vectors and documents, packed for the compiled core.

A set is an array of shape (n_points, dim); a document is a pair (word
vectors of shape (n_words, dim), weights of shape (n_words,)). A collection
is packed as values (total_points, dim), C-contiguous, offsets (n + 1,) int64
and, for documents, weights (total_points,) float64: item i is rows
offsets[i]:offsets[i+1]. Slicing a PackedSets is O(1) and copies nothing.
"""

import numpy as np
import scipy.sparse as sp


class PackedSets:
    __slots__ = ("values", "offsets", "weights")

    def __init__(self, values, offsets, weights=None):
        self.values = values
        self.offsets = offsets
        self.weights = weights

    @property
    def dim(self):
        return self.values.shape[1]

    def __len__(self):
        return len(self.offsets) - 1

    def total_size(self):
        return int(self.offsets[-1] - self.offsets[0])

    def astype(self, dtype):
        if self.values.dtype == dtype:
            return self
        return type(self)(self.values.astype(dtype), self.offsets, self.weights)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("PackedSets supports contiguous slices only")
            stop = max(start, stop)
            begin, end = self.offsets[start], self.offsets[stop]
            weights = None if self.weights is None else self.weights[begin:end]
            return type(self)(self.values[begin:end], self.offsets[start : stop + 1] - begin, weights)
        i = range(len(self))[index]
        rows = slice(self.offsets[i], self.offsets[i + 1])
        if self.weights is None:
            return self.values[rows]
        return self.values[rows], self.weights[rows]

    def take(self, indices):
        """The items at `indices`, as a new PackedSets."""
        rows = [np.arange(self.offsets[i], self.offsets[i + 1]) for i in indices]
        lengths = np.array([len(r) for r in rows], dtype=np.int64)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        weights = None if self.weights is None else self.weights[rows]
        return type(self)(self.values[rows], np.r_[0, np.cumsum(lengths)].astype(np.int64), weights)

    def to_list(self):
        return [self[i] for i in range(len(self))]


def _as_list(X, name, what):
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of {what}, got {type(X).__name__}")
    if isinstance(X, np.ndarray) and X.dtype != object and X.ndim == 3:
        return list(X)  # equal-size collection (n_items, n_points, dim)
    try:
        X = list(X)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of {what}, got {type(X).__name__}") from None
    if len(X) == 0:
        raise ValueError(f"{name} is empty: at least one item is required")
    return X


def _points(a, label, dim):
    """One item's points as a 2-D real array; dim is the first item's dimension."""
    if isinstance(a, (str, bytes)):
        raise TypeError(f"{label} is {type(a).__name__}, expected a numeric array")
    a = np.asarray(a)
    if a.dtype == object or not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
        raise TypeError(f"{label} has dtype {a.dtype}, expected a numeric array")
    if np.issubdtype(a.dtype, np.complexfloating):
        raise TypeError(f"{label} is complex; distances need real coordinates")
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"{label} has {a.ndim} dimensions; expected (n_points, dim)")
    if a.shape[0] == 0:
        raise ValueError(f"{label} is empty: a set needs at least one point")
    if a.shape[1] == 0:
        raise ValueError(f"{label} has points with no coordinates")
    if dim is not None and a.shape[1] != dim:
        raise ValueError(f"{label} has points of dimension {a.shape[1]}, but the first item's are {dim}")
    return a


def _pack(items, weights, dtype, name):
    lengths = np.fromiter((len(a) for a in items), dtype=np.int64, count=len(items))
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    values = np.ascontiguousarray(np.concatenate(items, axis=0), dtype=dtype)
    finite = np.isfinite(values).all(axis=1)
    if not finite.all():
        row = int(np.argmin(finite))
        i = int(np.searchsorted(offsets, row, side="right") - 1)
        raise ValueError(f"{name}[{i}] contains NaN or infinity (at point {row - offsets[i]})")
    if weights is not None:
        weights = np.ascontiguousarray(np.concatenate(weights), dtype=np.float64)
        check_document_weights(weights, offsets, name)
    return PackedSets(values, offsets, weights)


def segment_sums(values, offsets):
    """Sum of values[offsets[i]:offsets[i+1]] for every i, 0 for empty segments.

    (np.add.reduceat gets empty segments wrong: it returns the next value, or
    fails at the end of the array.)
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    lengths = np.diff(offsets)
    segment = np.repeat(np.arange(len(lengths)), lengths)
    return np.bincount(segment, weights=values[offsets[0] : offsets[-1]], minlength=len(lengths))


def check_document_weights(weights, offsets, name):
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        row = int(np.argmax(bad))
        i = int(np.searchsorted(offsets, row, side="right") - 1)
        raise ValueError(
            f"{name}[{i}] has weight {float(weights[row])!r} (word {row - offsets[i]}); weights must be finite and >= 0"
        )
    empty = np.flatnonzero(segment_sums(weights > 0, offsets) == 0)
    if len(empty):
        raise ValueError(f"{name}[{int(empty[0])}] has only zero weights; a document needs some positive weight")


def check_point_sets(X, name="X", dtype=np.float64):
    """A non-empty list of sets, each an array (n_points, dim) with n_points >= 1.

    Set sizes may differ; dimensions may not. Returns a PackedSets of dtype.
    """
    if isinstance(X, PackedSets):
        if X.weights is not None:
            raise TypeError(f"{name} holds documents (vectors with weights), expected sets of vectors")
        return X.astype(dtype)
    X = _as_list(X, name, "sets of vectors (arrays of shape (n_points, dim))")
    items, dim = [], None
    for i, s in enumerate(X):
        if isinstance(s, tuple):
            raise TypeError(f"{name}[{i}] is a tuple; sets are arrays of shape (n_points, dim)")
        a = _points(s, f"{name}[{i}]", dim)
        dim = a.shape[1]
        items.append(a)
    return _pack(items, None, dtype, name)


def documents_from_bow(embeddings, bow, name="X", dtype=np.float64, word_weights=None):
    """Documents from an embedding matrix (vocabulary, dim) and a bag-of-words
    matrix (n_documents, vocabulary) of counts: document i is the embeddings
    of its non-zero words, weighted by count (times word_weights, e.g. idf)."""
    E = _points(embeddings, "embeddings", None)
    if not np.isfinite(E).all():
        raise ValueError("embeddings contain NaN or infinity")
    if sp.issparse(bow):
        B = sp.csr_matrix(bow, dtype=np.float64)
        # Canonical form (sorted, summed, no stored zeros) is fixed on a copy:
        # csr_matrix may share the caller's arrays.
        if not B.has_canonical_format or not B.data.all():
            B = B.copy()
            B.sum_duplicates()
            B.eliminate_zeros()
    else:
        B = np.asarray(bow)
        if B.ndim != 2 or not np.issubdtype(B.dtype, np.number):
            raise ValueError(f"{name} must be a 2-D (sparse) matrix of word counts, got shape {B.shape}")
        B = sp.csr_matrix(B.astype(np.float64))
        B.eliminate_zeros()
    if B.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one document is required")
    if B.shape[1] != E.shape[0]:
        raise ValueError(
            f"{name} has {B.shape[1]} columns (words), but embeddings has {E.shape[0]} rows; they must match"
        )
    offsets = B.indptr.astype(np.int64)
    weights = B.data.copy()
    if word_weights is not None:
        weights *= word_weights[B.indices]
    check_document_weights(weights, offsets, name)
    values = np.ascontiguousarray(E[B.indices], dtype=dtype)
    return PackedSets(values, offsets, weights)


def check_documents(X, name="X", dtype=np.float64):
    """Documents as a list of (word vectors (n_words, dim), weights (n_words,))
    pairs, or as a tuple (embeddings, scipy.sparse bag-of-words matrix). Returns a PackedSets
    with weights (not normalised: the EMD normalises each document)."""
    if isinstance(X, PackedSets):
        if X.weights is None:
            raise TypeError(f"{name} holds sets without weights, expected documents")
        return X.astype(dtype)
    if isinstance(X, tuple) and len(X) == 2 and sp.issparse(X[1]):
        return documents_from_bow(X[0], X[1], name, dtype)
    X = _as_list(X, name, "documents ((word vectors, weights) pairs)")
    items, weights, dim = [], [], None
    for i, doc in enumerate(X):
        if not (isinstance(doc, (tuple, list)) and len(doc) == 2):
            raise TypeError(
                f"{name}[{i}] is {type(doc).__name__}; a document is a pair (word vectors, weights)"
            )
        a = _points(doc[0], f"{name}[{i}] vectors", dim)
        dim = a.shape[1]
        w = np.asarray(doc[1])
        if w.dtype == object or not (np.issubdtype(w.dtype, np.number) or w.dtype == bool) or np.iscomplexobj(w):
            raise TypeError(f"{name}[{i}] weights have dtype {w.dtype}, expected real numbers")
        if w.ndim != 1 or len(w) != len(a):
            raise ValueError(
                f"{name}[{i}] has {len(a)} word vectors but weights of shape {w.shape}; one weight per word"
            )
        items.append(a)
        weights.append(w)
    return _pack(items, weights, dtype, name)
