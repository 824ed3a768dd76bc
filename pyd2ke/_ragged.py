"""The one ragged container: many variable-length items in flat arrays.

Item i owns rows ``offsets[i]:offsets[i+1]`` of ``values`` (time steps of a
series, points of a set, word vectors of a document, node labels of an ESP
sketch) and, where the items are weighted, of ``weights`` (word weights,
label counts). This is the form the compiled core takes; slicing is O(1)
and copies nothing, so transforms stream it in chunks.

Documents built from a bag-of-words matrix also keep their words'
identities: ``word_ids`` index the rows of ``vocabulary`` (the distinct
words used) and ``values[p] == vocabulary[word_ids[p]]``. Such documents
write ``values`` out only when something asks for them (the EMD does not:
it computes ground costs once per distinct word).
"""

import numpy as np

from . import _core
from ._parallel import current_threads


class Ragged:
    __slots__ = ("_values", "offsets", "weights", "word_ids", "vocabulary")

    def __init__(self, values, offsets, weights=None, word_ids=None, vocabulary=None):
        self._values = values  # None: vocabulary[word_ids], written out on first use
        self.offsets = offsets
        self.weights = weights
        self.word_ids = word_ids
        self.vocabulary = vocabulary

    @classmethod
    def _from_parts(cls, values, offsets, weights, word_ids, vocabulary):
        """A new container of this class from its arrays (subclasses whose
        constructor takes other arguments are built through here too)."""
        out = object.__new__(cls)
        Ragged.__init__(out, values, offsets, weights, word_ids, vocabulary)
        return out

    @classmethod
    def pack(cls, items, dtype, weights=None):
        """Items (arrays with rows) concatenated into one container, cast to dtype."""
        lengths = np.fromiter((len(a) for a in items), dtype=np.int64, count=len(items))
        offsets = np.zeros(len(items) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        # One pass: the concatenation casts (float64 -> float32 among others).
        # C order whatever the items' layout: concatenating transposed (Fortran
        # order) items gives a Fortran-order block the compiled batches refuse.
        values = np.ascontiguousarray(np.concatenate(items, axis=0, dtype=dtype, casting="unsafe"))
        if weights is not None:
            weights = np.ascontiguousarray(np.concatenate(weights), dtype=np.float64)
        return cls._from_parts(values, offsets, weights, None, None)

    @classmethod
    def pack_arrays(cls, items, dtype, name, what):
        """Items that are all real ndarrays (rows,) or (rows, columns), with
        rows and the columns of the first, packed by the core on the current
        threads (no Python loop over items), NaN and infinity refused naming
        the item (`what`: "step", "point"); None for any other items, which
        the caller's own check then names."""
        pack = _core.pack_rows_float32 if np.dtype(dtype) == np.float32 else _core.pack_rows_float64
        packed = pack(items, current_threads())
        if packed is None:
            return None
        values, offsets, finite = packed
        out = cls._from_parts(values, offsets, None, None, None)
        return out if finite else out.check_finite(name, what)

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
        """Width of a row: channels of a series, dimension of a point."""
        return self._rows().shape[1]

    def __len__(self):
        return len(self.offsets) - 1

    def total_size(self):
        return int(self.offsets[-1] - self.offsets[0])

    def lengths(self):
        return np.diff(self.offsets)

    def astype(self, dtype):
        if self._rows().dtype == dtype:
            return self
        vocabulary = None if self.vocabulary is None else self.vocabulary.astype(dtype)
        values = None if self._values is None else self._values.astype(dtype)
        return self._from_parts(values, self.offsets, self.weights, self.word_ids, vocabulary)

    def __getitem__(self, index):
        """A slice (a container, O(1)), or one item: its rows, or (rows, weights)."""
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError(f"{type(self).__name__} supports contiguous slices only")
            stop = max(start, stop)
            begin, end = self.offsets[start], self.offsets[stop]
            return self._from_parts(
                None if self._values is None else self._values[begin:end],
                self.offsets[start : stop + 1] - begin,
                None if self.weights is None else self.weights[begin:end],
                None if self.word_ids is None else self.word_ids[begin:end],
                self.vocabulary,
            )
        i = range(len(self))[index]
        rows = slice(self.offsets[i], self.offsets[i + 1])
        values = self.vocabulary[self.word_ids[rows]] if self._values is None else self._values[rows]
        if self.weights is None:
            return values
        return values, self.weights[rows]

    def take(self, indices):
        """The items at `indices`, as a new container."""
        rows = [np.arange(self.offsets[i], self.offsets[i + 1]) for i in indices]
        lengths = np.array([len(r) for r in rows], dtype=np.int64)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        return self._from_parts(
            None if self._values is None else self._values[rows],
            np.r_[0, np.cumsum(lengths)].astype(np.int64),
            None if self.weights is None else self.weights[rows],
            None if self.word_ids is None else self.word_ids[rows],
            self.vocabulary,
        )

    def to_list(self):
        return [self[i] for i in range(len(self))]

    def segment_sums(self, data=None):
        """Sum of data[offsets[i]:offsets[i+1]] for every item (data: the
        weights by default), 0 for empty items.

        (np.add.reduceat gets empty segments wrong: it returns the next
        value, or fails at the end of the array.)"""
        data = self.weights if data is None else data
        lengths = self.lengths()
        segment = np.repeat(np.arange(len(lengths)), lengths)
        return np.bincount(segment, weights=data[self.offsets[0] : self.offsets[-1]], minlength=len(lengths))

    def locate(self, row):
        """(item, position in the item) of a flat row index."""
        item = int(np.searchsorted(self.offsets, row, side="right") - 1)
        return item, int(row - self.offsets[item])

    def first_bad_row(self, bad):
        """(item, position) of the first True in the per-row mask `bad`, or None."""
        if not bad.any():
            return None
        return self.locate(int(np.argmax(bad)))

    def check_finite(self, name, what):
        """ValueError naming the first item whose values hold NaN or infinity."""
        values = self.values
        # One sum first (a NaN or an infinity makes it non-finite): three
        # passes and a mask only when it is not finite (or overflowed).
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf in the sum is what it looks for
            if np.isfinite(values.sum(dtype=np.float64)):
                return self
        finite = np.isfinite(values).all(axis=1) if values.ndim == 2 else np.isfinite(values)
        where = self.first_bad_row(~finite)
        if where is not None:
            # Packed as float32, a finite value beyond its range became an infinity.
            beyond = (" or a value beyond float32's range (3.4e38; rescale it or use dtype=np.float64)"
                      if values.dtype == np.float32 else "")
            padding = self._padding_hint(name, what, *where)
            raise ValueError(f"{name}[{where[0]}] contains NaN or infinity (at {what} {where[1]}): a missing or "
                             f"infinite value{beyond}; drop, fill or interpolate it first{padding}")
        return self

    def _padding_hint(self, name, what, item, position):
        """For series NaN from `position` to the end of the item: the look of
        tslearn's padding of unequal lengths (to_time_series_dataset), which
        pyd2ke takes unpadded, as a list."""
        start, stop = self.offsets[item] + position, self.offsets[item + 1]
        if what != "step" or position == 0 or not np.isnan(self.values[start:stop]).all():
            return ""
        return (f". It is NaN from step {position} on, the last {stop - start} of its {stop - self.offsets[item]} "
                f"steps: if that is the padding of series of unequal lengths (tslearn's to_time_series_dataset "
                f"pads with NaN), pass the series unpadded, as a list: "
                f"[x[~np.isnan(x).reshape(len(x), -1).all(axis=1)] for x in {name}]")
