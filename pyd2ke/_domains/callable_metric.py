"""Any objects, compared by a Python function d(a, b) -> float >= 0: the
slow path of D2KE and pairwise_distances (one Python call per pair, rows
split over threads, which run in parallel only if d releases the GIL)."""

import numbers

import numpy as np

from .._parallel import run_blocks
from .._validation import as_list
from .base import Domain, soft_or_direct


def check_objects(X, name="X"):
    """A non-empty list of arbitrary objects, from any iterable."""
    return as_list(X, name, "objects", item="object")


class CallableEngine:
    """Distances from d(a, b) to a fixed list of objects; results do not
    depend on the thread count."""

    def __init__(self, function, objects):
        self._function = function
        self._objects = list(objects)

    def _rows(self, X, out, begin, end, stop_event=None):
        f, objects = self._function, self._objects
        for i in range(begin, end):
            if stop_event is not None and stop_event.is_set():
                return
            for j, w in enumerate(objects):
                d = f(X[i], w)
                if isinstance(d, (bool, np.bool_)) or not isinstance(d, (numbers.Real, np.floating, np.integer)):
                    raise TypeError(f"metric returned {type(d).__name__} for objects ({i}, {j}); expected a number")
                try:
                    value = float(d)  # numbers.Real that numpy does not know (Fraction) too
                except OverflowError:  # an int beyond float64
                    value = np.inf
                if not np.isfinite(value) or value < 0:
                    raise ValueError(f"metric returned {d!r} for objects ({i}, {j}); distances must be finite and >= 0")
                out[i, j] = value

    def distances_into(self, X, out, n_threads):
        n = len(X)
        step = max(1, -(-n // (4 * n_threads)))
        run_blocks(lambda b, stop_event: self._rows(X, out, b, min(n, b + step), stop_event),
                   range(0, n, step), n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        d = np.empty(out.shape, dtype=np.float64)
        self.distances_into(X, d, n_threads)
        soft_or_direct(d, gamma, kernel, out)


class CallableDomain(Domain):
    """The domain of one Python distance function (a new one per function)."""

    takes_strings = True  # any objects the function takes

    def __init__(self, function):
        self.function = function
        self.name = getattr(function, "__name__", "callable")
        self.metrics = {}

    def check(self, X, name="X", dtype=None):
        return check_objects(X, name), None

    def flavour_error(self, name, got, expected):
        return ValueError(f"{name} does not match the fit data")

    def make_engine(self, metric, objects, params, dtype):
        return CallableEngine(self.function, objects)
