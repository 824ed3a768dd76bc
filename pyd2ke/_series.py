"""Packed time series: every series of a collection in one array.

values has shape (total_steps, channels), C-contiguous; series i is
values[offsets[i]:offsets[i+1]]. This is the form the compiled core takes;
slicing a PackedSeries (for chunked transforms) is O(1) and copies nothing.
It is a PackedSets without weights whose points are time steps.
"""

import numpy as np

from ._sets import PackedSets


class PackedSeries(PackedSets):
    __slots__ = ()

    def __init__(self, values, offsets, weights=None, word_ids=None, vocabulary=None):
        super().__init__(values, offsets)  # series have no weights or words

    @classmethod
    def from_list(cls, series, dtype):
        lengths = np.fromiter((len(s) for s in series), dtype=np.int64, count=len(series))
        offsets = np.zeros(len(series) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        values = np.ascontiguousarray(np.concatenate(series, axis=0), dtype=dtype)
        return cls(values, offsets)

    @property
    def channels(self):
        return self.values.shape[1]
