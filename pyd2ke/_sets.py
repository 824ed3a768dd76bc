"""Sets of vectors and documents, packed for the compiled core (the checks
that build them are in _validation).

A set is an array of shape (n_points, dim); a document is a pair (word
vectors of shape (n_words, dim), weights of shape (n_words,)). A collection
is packed as values (total_points, dim), C-contiguous, offsets (n + 1,) int64
and, for documents, weights (total_points,) float64: item i is rows
offsets[i]:offsets[i+1]. Slicing a PackedSets is O(1) and copies nothing.

Documents from a bag-of-words matrix also keep their words' identities:
word_ids (total_points,) int64 are rows of vocabulary (distinct words,
dim), and values[p] == vocabulary[word_ids[p]]; the EMD can then compute
ground costs once per distinct word rather than once per occurrence. Such
documents write out values only when something asks for them (the EMD
does not), since they can be many times the size of the vocabulary.
"""

import numpy as np


class PackedSets:
    __slots__ = ("_values", "offsets", "weights", "word_ids", "vocabulary")

    def __init__(self, values, offsets, weights=None, word_ids=None, vocabulary=None):
        self._values = values  # None: vocabulary[word_ids], written out on first use
        self.offsets = offsets
        self.weights = weights
        self.word_ids = word_ids
        self.vocabulary = vocabulary

    @property
    def values(self):
        if self._values is None:
            self._values = self.vocabulary[self.word_ids]
        return self._values

    def _rows(self):
        """values, or the vocabulary when values are not written out."""
        return self.vocabulary if self._values is None else self._values

    @property
    def dim(self):
        return self._rows().shape[1]

    def __len__(self):
        return len(self.offsets) - 1

    def total_size(self):
        return int(self.offsets[-1] - self.offsets[0])

    def astype(self, dtype):
        if self._rows().dtype == dtype:
            return self
        vocabulary = None if self.vocabulary is None else self.vocabulary.astype(dtype)
        values = None if self._values is None else self._values.astype(dtype)
        return type(self)(values, self.offsets, self.weights, self.word_ids, vocabulary)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("PackedSets supports contiguous slices only")
            stop = max(start, stop)
            begin, end = self.offsets[start], self.offsets[stop]
            weights = None if self.weights is None else self.weights[begin:end]
            word_ids = None if self.word_ids is None else self.word_ids[begin:end]
            values = None if self._values is None else self._values[begin:end]
            return type(self)(values, self.offsets[start : stop + 1] - begin, weights, word_ids, self.vocabulary)
        i = range(len(self))[index]
        rows = slice(self.offsets[i], self.offsets[i + 1])
        values = self.vocabulary[self.word_ids[rows]] if self._values is None else self._values[rows]
        if self.weights is None:
            return values
        return values, self.weights[rows]

    def take(self, indices):
        """The items at `indices`, as a new PackedSets."""
        rows = [np.arange(self.offsets[i], self.offsets[i + 1]) for i in indices]
        lengths = np.array([len(r) for r in rows], dtype=np.int64)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        weights = None if self.weights is None else self.weights[rows]
        word_ids = None if self.word_ids is None else self.word_ids[rows]
        values = None if self._values is None else self._values[rows]
        return type(self)(values, np.r_[0, np.cumsum(lengths)].astype(np.int64), weights, word_ids, self.vocabulary)

    def to_list(self):
        return [self[i] for i in range(len(self))]


def segment_sums(values, offsets):
    """Sum of values[offsets[i]:offsets[i+1]] for every i, 0 for empty segments.

    (np.add.reduceat gets empty segments wrong: it returns the next value, or
    fails at the end of the array.)
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    lengths = np.diff(offsets)
    segment = np.repeat(np.arange(len(lengths)), lengths)
    return np.bincount(segment, weights=values[offsets[0] : offsets[-1]], minlength=len(lengths))
