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


def dtw(x, y, window=None):
    """DTW with the Euclidean norm across channels as ground cost, summed
    along the path; Sakoe-Chiba window widened to the length difference."""
    x = np.asarray(x, dtype=np.float64).reshape(len(x), -1)
    y = np.asarray(y, dtype=np.float64).reshape(len(y), -1)
    n, m = len(x), len(y)
    band = max(n, m) if window is None else max(window, abs(n - m))
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if abs(i - j) <= band:
                cost = np.sqrt(np.sum((x[i - 1] - y[j - 1]) ** 2))
                D[i, j] = cost + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D[n, m]


def dtw_matrix(X, Y, window=None):
    return np.array([[dtw(x, y, window) for y in Y] for x in X])
