"""Random String Embedding (L. Wu et al., "Efficient Global String Kernel
with Random Features: Beyond Counting Substructures", KDD 2019).

Random strings w_j of length D_j ~ U{1..max_length} are drawn by one of four
samplers; features are exp(-gamma * Levenshtein(x, w_j)) / sqrt(R) (soft) or
Levenshtein(x, w_j) / sqrt(R) (direct). Distances are not length-normalised.
"""

from collections import Counter

import numpy as np

from .d2ke import D2KE
from ._validation import check_choice, check_positive_int

SAMPLERS = ("rf", "rfd", "ss", "bss")


class RandomStringEmbedding(D2KE):
    """Random String Embedding (RSE): D2KE features for strings under Levenshtein.

    Parameters
    ----------
    n_components : int, default=256
        Number of random strings R (= number of output features).
    sampler : {"rf", "rfd", "ss", "bss"}, default="bss"
        How random strings are drawn:

        - ``"rf"``: symbols uniform over the alphabet seen in the fit data;
        - ``"rfd"``: symbols drawn with their fit-data frequencies;
        - ``"ss"``: a random substring of length D_j of a random fit string
          (the whole string when it is shorter);
        - ``"bss"``: a random fit string is cut into blocks of length D_j and
          a random number of random blocks (duplicates removed) become random
          strings, until R exist (the paper's recommendation).
    kernel : {"soft", "direct"}, default="soft"
        ``exp(-gamma d) / sqrt(R)`` or ``d / sqrt(R)``.
    gamma : float or "auto", default="auto"
        Scale of the soft kernel. "auto" uses 1 / median distance between
        (up to 256) fit strings and the random strings.
    max_length : int, default=10
        D_max: random string lengths are uniform on {1, ..., max_length}.
        For short inputs (tens of symbols) random strings about as long as
        the inputs work best.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads for the transform (None and -1: all cores). The output does
        not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
    verbose : int, default=0
        When > 0, ``transform`` reports its progress over the objects to
        stderr, one line per chunk (useful for large N).

    Attributes
    ----------
    random_objects_ : list of str or bytes
        The random strings, in the type of the fit data.
    gamma_ : float
        The gamma used (resolved when gamma="auto").
    n_components_ : int
    input_flavour_ : bool
        True when fitted on bytes, False on str.

    Examples
    --------
    >>> from pyd2ke import RandomStringEmbedding
    >>> rse = RandomStringEmbedding(n_components=64, random_state=0)
    >>> Z = rse.fit_transform(["ACGTACGT", "ACGTTT", "GGGCCA"])
    >>> Z.shape
    (3, 64)
    """

    metric = "levenshtein"

    def __init__(
        self,
        n_components=256,
        *,
        sampler="bss",
        kernel="soft",
        gamma="auto",
        max_length=10,
        random_state=None,
        n_jobs=None,
        dtype=np.float64,
        verbose=0,
    ):
        self.n_components = n_components
        self.sampler = sampler
        self.kernel = kernel
        self.gamma = gamma
        self.max_length = max_length
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.dtype = dtype
        self.verbose = verbose

    def _check_params(self):
        super()._check_params()
        check_choice(self.sampler, "sampler", set(SAMPLERS))
        check_positive_int(self.max_length, "max_length")

    def _metric_params(self):
        return {}

    def _draw_random_objects(self, X, rng):
        return draw_random_strings(X, self.n_components, rng, self.sampler, self.max_length, self.input_flavour_)


def draw_random_strings(X, n, rng, sampler, max_length, as_bytes):
    """n random strings by one of the RSE samplers, as bytes or str."""
    draw = {"rf": _sample_rf, "rfd": _sample_rfd, "ss": _sample_ss, "bss": _sample_bss}[sampler]
    strings = draw(X, n, max_length, rng)
    if as_bytes:
        return [bytes(s) for s in strings]
    return ["".join(s) if not isinstance(s, str) else s for s in strings]


def _non_empty(X):
    strings = [s for s in X if len(s) > 0]
    if not strings:
        raise ValueError("X holds only empty strings: random strings cannot be drawn")
    return strings


def _symbol_counts(X):
    """Symbols of the fit data (sorted) and how often each occurs."""
    counts = Counter()
    for s in X:
        counts.update(s)
    if not counts:
        raise ValueError("X holds only empty strings: it has no alphabet")
    symbols = sorted(counts)
    return symbols, np.array([counts[c] for c in symbols], dtype=np.float64)


def _lengths(rng, n, max_length):
    return rng.randint(1, max_length + 1, size=n)


def _sample_rf(X, n, max_length, rng):
    symbols, _ = _symbol_counts(X)
    return [_pick(symbols, rng.randint(0, len(symbols), size=d)) for d in _lengths(rng, n, max_length)]


def _sample_rfd(X, n, max_length, rng):
    symbols, counts = _symbol_counts(X)
    p = counts / counts.sum()
    return [_pick(symbols, rng.choice(len(symbols), size=d, p=p)) for d in _lengths(rng, n, max_length)]


def _pick(symbols, indices):
    # str symbols join into a str; bytes symbols are ints and make bytes.
    picked = [symbols[i] for i in indices]
    return bytes(picked) if isinstance(picked[0], int) else "".join(picked)


def _sample_ss(X, n, max_length, rng):
    strings = _non_empty(X)
    out = []
    for d in _lengths(rng, n, max_length):
        s = strings[rng.randint(len(strings))]
        if len(s) <= d:
            out.append(s)
        else:
            start = rng.randint(0, len(s) - d + 1)
            out.append(s[start : start + d])
    return out


def _sample_bss(X, n, max_length, rng):
    strings = _non_empty(X)
    out = []
    while len(out) < n:
        s = strings[rng.randint(len(strings))]
        d = int(rng.randint(1, max_length + 1))
        n_blocks = len(s) // d
        if n_blocks == 0:  # shorter than one block: the whole string is the block
            out.append(s)
            continue
        n_drawn = rng.randint(1, n_blocks + 1)
        for b in np.unique(rng.randint(0, n_blocks, size=n_drawn)):
            out.append(s[b * d : (b + 1) * d])
    return out[:n]
