"""Slow, obviously correct reference implementations for differential tests."""

import numpy as np


def levenshtein(a, b):
    """Textbook dynamic programme over two sequences of symbols."""
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
        prev = cur
    return prev[-1]


def levenshtein_matrix(X, Y):
    return np.array([[levenshtein(x, y) for y in Y] for x in X], dtype=np.float64)
