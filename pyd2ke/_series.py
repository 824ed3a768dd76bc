"""Packed time series: every series of a collection in one array.

values has shape (total_steps, channels), C-contiguous; series i is
values[offsets[i]:offsets[i+1]]. This is the form the compiled core takes;
slicing a PackedSeries (for chunked transforms) is O(1) and copies nothing.
"""

import numpy as np


class PackedSeries:
    __slots__ = ("values", "offsets")

    def __init__(self, values, offsets):
        self.values = values
        self.offsets = offsets

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

    def __len__(self):
        return len(self.offsets) - 1

    def total_size(self):
        return int(self.offsets[-1] - self.offsets[0])

    def astype(self, dtype):
        if self.values.dtype == dtype:
            return self
        return PackedSeries(self.values.astype(dtype), self.offsets)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("PackedSeries supports contiguous slices only")
            begin, end = self.offsets[start], self.offsets[max(start, stop)]
            return PackedSeries(self.values[begin:end], self.offsets[start : max(start, stop) + 1] - begin)
        i = range(len(self))[index]
        return self.values[self.offsets[i] : self.offsets[i + 1]]

    def to_list(self):
        return [self[i] for i in range(len(self))]
