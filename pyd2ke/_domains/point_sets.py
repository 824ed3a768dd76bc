"""Sets of vectors: a list of arrays (n_points, dim), sizes free, one
dimension; compared by the Hausdorff or modified Hausdorff distance (Euclidean
between points); random sets of points on the unit sphere."""

import numpy as np

from .. import _core
from .._ragged import Ragged
from .._validation import as_list, item_rows, real_array, warn_user
from .base import Metric, RaggedDomain

# Random sets: sizes uniform on {MIN_SIZE..MAX_SIZE} (the D2KE paper's).
MIN_SIZE, MAX_SIZE = 3, 15


def points(a, label, dim):
    """One item's points as a 2-D real array; dim is the first item's dimension."""
    a = item_rows(real_array(a, label, "distances need real coordinates"), label, "expected (n_points, dim)",
                  "a set needs at least one point", "has points with no coordinates")
    if dim is not None and a.shape[1] != dim:
        raise ValueError(f"{label} has points of dimension {a.shape[1]}, but the first item's are {dim}")
    return a


class SetLayoutWarning(UserWarning):
    """A 2-D array of short rows given as sets: each row is read as a set of
    one-dimensional points, where its rows look like vectors."""


# Rows of at most this many values look like vectors (a set of so few 1-D
# samples is rare): a 2-D array of them is probably one set, not many.
_SHORT_ROW = 16


def _warn_if_rows_of_vectors(X, name):
    if isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "biuf" and X.shape[1] <= _SHORT_ROW:
        warn_user(f"{name} is a 2-D array: each of its {X.shape[0]} rows is read as a set of {X.shape[1]} "
                  f"one-dimensional points. For one set of {X.shape[0]} points of dimension {X.shape[1]} pass "
                  f"[{name}]; for sets of 1-D points, {name}[:, :, None] (or a list of arrays) says so without "
                  f"this warning", SetLayoutWarning)


def check_point_sets(X, name="X", dtype=np.float64):
    """A non-empty list of sets, each an array (n_points, dim) with n_points >= 1.

    Set sizes may differ; dimensions may not. Returns a Ragged of dtype.
    """
    if isinstance(X, Ragged):
        if X.weights is not None:
            raise TypeError(f"{name} holds documents (vectors with weights), expected sets of vectors")
        return X.astype(dtype)
    _warn_if_rows_of_vectors(X, name)
    X = as_list(X, name, "sets of vectors (arrays of shape (n_points, dim))", rows_of="point")
    packed = Ragged.pack_arrays(X, dtype, name, "point")  # plain arrays: packed by the core
    if packed is not None:
        return packed
    items, dim = [], None
    for i, s in enumerate(X):
        if isinstance(s, tuple):
            raise TypeError(f"{name}[{i}] is a tuple; sets are arrays of shape (n_points, dim)")
        a = points(s, f"{name}[{i}]", dim)
        dim = a.shape[1]
        items.append(a)
    return Ragged.pack(items, dtype).check_finite(name, "point")


class SetDistanceEngine:
    """A SetDistanceBatch (Hausdorff or modified Hausdorff) of the right precision."""

    def __init__(self, sets, metric, dtype):
        packed = check_point_sets(sets, "sets", dtype)
        cls = _core.SetDistanceBatch32 if np.dtype(dtype) == np.float32 else _core.SetDistanceBatch64
        self._dtype = np.dtype(dtype)
        self._batch = cls(packed.values, packed.offsets, metric)

    def distances_into(self, X, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.distances_into(X.values, None, X.offsets, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        X = X.astype(self._dtype)
        self._batch.features_into(X.values, None, X.offsets, gamma, kernel, out, n_threads)


def unit_rows(v):
    """v with every non-zero row scaled to unit Euclidean norm."""
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms > 0, norms, 1.0)


def unit_sphere(rng, n, dim):
    """n points uniform on the unit sphere of R^dim."""
    return unit_rows(rng.normal(size=(n, dim)))


def draw_random_sets(dim, n, rng, min_size=MIN_SIZE, max_size=MAX_SIZE):
    """n random sets of U{min_size..max_size} points on the unit sphere."""
    sizes = rng.randint(min_size, max_size + 1, size=n)
    return [unit_sphere(rng, m, dim) for m in sizes]


class PointSetDomain(RaggedDomain):
    name = "sets of vectors"
    items_are_tables = True
    far_from_random_hint = ("the random sets' points lie on the unit sphere, so points far from it are about "
                            "equally far from all of them: scale the points to unit length, as in the user guide")
    input_format = "an array of shape (n_points, dim); sizes may differ, dim may not"
    metrics = {"hausdorff": Metric("hausdorff", symmetric=True,
                                   summary="``max(max_a min_b |a - b|, max_b min_a |a - b|)``"),
               "modified_hausdorff": Metric("modified_hausdorff",
                                            summary="the same with means in place of the outer maxima (Dubuisson "
                                                    "& Jain)")}
    sampler_defaults = {"min_size": MIN_SIZE, "max_size": MAX_SIZE}

    def check_ragged(self, X, name, dtype):
        return check_point_sets(X, name, dtype)

    def make_engine(self, metric, objects, params, dtype):
        return SetDistanceEngine(objects, metric, dtype)

    def draw_random_objects(self, X, flavour, n, rng, **params):
        return draw_random_sets(flavour, n, rng, **{**self.sampler_defaults, **params})


POINT_SETS = PointSetDomain()
