"""Slow, obviously correct reference implementations for differential tests."""

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import ndtri


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


def set_distance(a, b, metric):
    """Hausdorff (max of the directed max-min distances) or modified
    Hausdorff (max of the directed mean-min distances) from all pairs."""
    d = cdist(a, b)
    rows, cols = d.min(axis=1), d.min(axis=0)
    if metric == "hausdorff":
        return max(rows.max(), cols.max())
    return max(rows.mean(), cols.mean())


# --- counter-based hashes (CGK walk bits, hashed Fourier weights) -------------------

M64 = (1 << 64) - 1


def mix64(x):
    """splitmix64's finaliser on Python integers."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & M64
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def hash_pair(seed, row, column):
    """The 64-bit hash of (seed, row, column) both hashes are built on."""
    key = mix64(seed ^ mix64((row + 0x9E3779B97F4A7C15) & M64))
    return mix64((key + (column + 1) * 0xD1B54A32D192ED03) & M64)


def cgk_bit(seed, t, symbol):
    """r_t(symbol): whether the CGK walk moves on after writing symbol at step t."""
    return hash_pair(seed, t, symbol) >> 63


def cgk_walk(s, seed, length, pad):
    """The CGK walk of ALGORITHMS.md section 7, step by step."""
    out, i = [], 0
    for t in range(length):
        if i < len(s):
            c = ord(s[i]) if isinstance(s, str) else s[i]
            out.append(c)
            i += cgk_bit(seed, t, c)
        else:
            out.append(pad)
    return out


def fourier_weight(kernel, bandwidth, seed, j, k):
    """w[j, k] of HashedRandomFourier: u in (0, 1) from the hash, then the
    Cauchy (laplacian) or Gaussian (rbf) quantile."""
    u = ((hash_pair(seed, j, k) >> 12) + 0.5) * 2.0**-52
    assert 0 < u < 1
    if kernel == "laplacian":
        # tan(pi (u - 1/2)) = -+cot(pi a), a = 1/2 - |u - 1/2| (exact): the
        # argument of tan is then never rounded next to a pole.
        a = 0.5 - abs(u - 0.5)
        w = 1.0 / np.tan(np.pi * a) if a <= 0.25 else np.tan(np.pi * (0.5 - a))
        return (w if u > 0.5 else -w) / bandwidth
    return np.sqrt(2 * bandwidth) * ndtri(u)
