"""Data the reports and benchmarks run on: fixed-seed synthetic objects of
every input type, and the bundled SIFT sets scaled as the random sets are.

The generators are pure functions of their arguments: the same call returns
the same objects in every run and every version, so timings stay comparable.
Each draws all of its values in one block and cuts it into objects, which is
fast enough for the large sizes of the scaling sweeps.
"""

import numpy as np

PROTEIN = b"ACDEFGHIKLMNPQRSTVWY"


def _cut(values, n, length):
    """values (n * length rows) as n consecutive blocks of `length` rows."""
    return [values[i * length:(i + 1) * length] for i in range(n)]


def random_strings(n, length, seed=0, alphabet=PROTEIN):
    """n str of exactly `length` symbols drawn uniformly from `alphabet` (bytes)."""
    rng = np.random.default_rng(seed)
    table = np.frombuffer(alphabet, dtype=np.uint8)
    codes = table[rng.integers(0, len(table), size=n * length, dtype=np.uint8)]
    return _cut(codes.tobytes().decode("ascii"), n, length)


def random_series(n, length, seed=0, channels=3, dtype=np.float64):
    """n standard normal series of shape (length, channels)."""
    values = np.random.default_rng(seed).standard_normal((n * length, channels), dtype=dtype)
    return _cut(values, n, length)


def random_sets(n, size, seed=0, dim=16, dtype=np.float64):
    """n sets of `size` random unit vectors in R^dim."""
    values = np.random.default_rng(seed).standard_normal((n * size, dim), dtype=dtype)
    values /= np.linalg.norm(values, axis=1, keepdims=True)
    return _cut(values, n, size)


def random_documents(n, words, seed=0, dim=16):
    """n documents of `words` standard normal word vectors in R^dim, as
    (vectors, weights) pairs with weights uniform on [0.1, 1.1)."""
    rng = np.random.default_rng(seed)
    values, weights = rng.standard_normal((n * words, dim)), rng.random(n * words) + 0.1
    return list(zip(_cut(values, n, words), _cut(weights, n, words)))


def random_vectors(n, dim, seed=0):
    """An (n, dim) matrix of normal rows with expected squared norm 1."""
    return np.random.default_rng(seed).standard_normal((n, dim)) / np.sqrt(dim)


def unit_descriptors(sets):
    """SIFT descriptors scaled to unit length, the scale of the random sets."""
    return [s / np.maximum(np.linalg.norm(s, axis=1, keepdims=True), 1e-12) for s in sets]
