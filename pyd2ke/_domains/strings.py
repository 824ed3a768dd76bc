"""Strings: lists of str or of bytes (never mixed), compared by Levenshtein
distance (unit costs, on code points or bytes) or by the L1 distance of ESP
characteristic vectors; random strings by the four RSE samplers."""

from collections import Counter

import numpy as np

from .. import _core
from .._validation import check_none_missing, listed, warn_user
from .base import Domain, Metric, soft_or_direct

SAMPLERS = ("rf", "rfd", "ss", "bss")
# Random strings of the D2KE paper (symbols uniform over the fit alphabet):
# what the generic D2KE(metric="levenshtein") draws.
D2KE_SAMPLER = "rf"
# RandomStringEmbedding's default: the RSE paper recommends block substrings.
RSE_SAMPLER = "bss"
# D_max: random string lengths are uniform on {1, ..., MAX_LENGTH}.
MAX_LENGTH = 10

_KINDS = {False: "str", True: "bytes"}


def check_strings(X, name="X", allow_empty=True):
    """A non-empty list of str, or of bytes (not mixed), from any iterable.

    Returns ``(strings, is_bytes)``. With allow_empty=False, empty strings are
    errors too (ESP and CGK need a character).
    """
    X, is_bytes, first_empty = _string_list(X, name)
    if not allow_empty and first_empty >= 0:
        raise ValueError(f"{name}[{first_empty}] is an empty string; ESP and CGK need at least one character")
    return X, is_bytes


def with_default_metric_hint(error):
    """The string domain's refusal of X (a ValueError or TypeError) with a
    sentence naming the metric the caller left at its default,
    'levenshtein'; the error itself when it is about something else."""
    text = str(error)
    if type(error) not in (ValueError, TypeError) or not (
            "expected str or bytes" in text or "must be one-dimensional" in text):
        return error
    return type(error)(f"{text}; metric='levenshtein' (the default) compares strings: pass metric= for other "
                       f"objects, e.g. metric='dtw' for time series or 'modified_hausdorff' for sets of vectors")


class TextList(list):
    """A checked list of strings that knows its total length, so that
    chunk_bounds does not measure it again, and its longest string's."""

    __slots__ = ("_total", "_longest")

    def total_size(self):
        return self._total

    def longest(self):
        return self._longest


def _string_list(X, name):
    """(the strings as a TextList, is_bytes, index of the first empty one or -1)."""
    if isinstance(X, (str, bytes, bytearray)):
        raise TypeError(
            f"{name} must be a sequence of strings, got a single {type(X).__name__}; "
            f"wrap it in a list: [{name}]"
        )
    if isinstance(X, np.ndarray):
        if X.ndim == 2 and X.shape[1] == 1:  # one column, as a ColumnTransformer hands a list selector's
            X = X[:, 0]
        if X.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional (or one column), got an array of shape {X.shape}")
        X = X.tolist()
    X = listed(X, name, "str or bytes", item="string", container=TextList)
    # Types and lengths in one pass of the core; a list that is not all str
    # or all bytes gets its first wrong item named below.
    kind, X._total, first_empty, X._longest = _core.text_list_info(X)
    if not kind:
        _raise_for_first_bad_item(check_none_missing(X, name, item="string"), name)
    return X, kind == 2, first_empty


def _raise_for_first_bad_item(X, name):
    """TypeError naming the first item of X that is neither str nor bytes
    (subclasses such as numpy.str_ are fine; bytearray is not), or the first
    that mixes them."""
    first_kind = None
    for i, item in enumerate(X):
        if isinstance(item, str):
            kind = "str"
        elif isinstance(item, bytes):
            kind = "bytes"
        else:
            raise TypeError(f"{name}[{i}] is {type(item).__name__}, expected str or bytes")
        if first_kind is None:
            first_kind = kind
        elif kind != first_kind:
            raise TypeError(
                f"{name} mixes str and bytes ({name}[{i}] is {kind}, earlier items are "
                f"{first_kind}); pass all str or all bytes"
            )


class EspDistanceEngine:
    """metric="esp": L1 distances between ESP characteristic vectors."""

    def __init__(self, strings):
        self._y = _core.esp_sketches(list(strings), max(1, _core.max_threads()))

    def distances_into(self, X, out, n_threads):
        xl, xc, xo = _core.esp_sketches(list(X), n_threads)
        yl, yc, yo = self._y
        _core.esp_l1_into(xl, xc, xo, yl, yc, yo, out, n_threads)

    def features_into(self, X, gamma, kernel, out, n_threads):
        d = np.empty(out.shape, dtype=np.float64)
        self.distances_into(X, d, n_threads)
        soft_or_direct(d, gamma, kernel, out)


# --- random strings ---------------------------------------------------------------


def draw_random_strings(X, n, rng, as_bytes, sampler=D2KE_SAMPLER, max_length=MAX_LENGTH):
    """n random strings by one of the RSE samplers, as bytes or str.

    - "rf": symbols uniform over the alphabet of X;
    - "rfd": symbols drawn with their frequencies in X;
    - "ss": a random substring of length D_j of a random string of X (the
      whole string when it is shorter);
    - "bss": a random string of X cut into blocks of length D_j, and a random
      number of random blocks become random strings, each unless an equal
      one was already drawn, until n exist (all distinct blocks, with a
      warning, when X has fewer than n).
    D_j is uniform on {1, ..., max_length}.
    """
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
    """The RSE paper's Algorithm 2 (BSS): a random string of X cut into
    blocks of length D_j (the whole string when shorter than D_j), l ~
    U{1..b} block indices drawn with replacement, and each drawn block kept
    unless an equal string was drawn before anywhere in this draw, until n
    exist. When X has fewer than n distinct blocks, all of them are returned
    with a UserWarning (the caller's n_components_ says how many)."""
    strings = _non_empty(X)
    out, seen = [], set()
    universe = None  # every distinct block, computed only when draws stall
    stalled = 0
    # Iterations in a row without a new block before the distinct blocks are
    # counted: rare unless X is (nearly) exhausted.
    patience = max(1000, n)
    while len(out) < n:
        s = strings[rng.randint(len(strings))]
        d = int(rng.randint(1, max_length + 1))
        n_blocks = len(s) // d
        if n_blocks == 0:  # shorter than one block: the whole string is the block
            blocks = [s]
        else:
            n_drawn = rng.randint(1, n_blocks + 1)
            blocks = [s[b * d : (b + 1) * d] for b in np.unique(rng.randint(0, n_blocks, size=n_drawn))]
        before = len(out)
        for block in blocks:
            if block not in seen:
                seen.add(block)
                out.append(block)
        stalled = 0 if len(out) > before else stalled + 1
        if stalled >= patience and universe is None:
            universe = _all_blocks(strings, max_length)
            if len(universe) <= n:
                # Drawing on would only collect the last few by chance: take
                # the rest in a random order and say so.
                rest = sorted(universe - seen)
                out.extend(rest[i] for i in rng.permutation(len(rest)))
                warn_user(f"n_components={n} is larger than the number of distinct bss blocks of X "
                          f"({len(universe)} with max_length={max_length}); using all {len(universe)} of them")
                return out
    return out[:n]


def _all_blocks(strings, max_length):
    """Every block bss can draw from these strings."""
    blocks = set()
    for s in set(strings):
        for d in range(1, max_length + 1):
            n_blocks = len(s) // d
            if n_blocks == 0:
                blocks.add(s)
                break  # longer d give the same whole string
            blocks.update(s[b * d : (b + 1) * d] for b in range(n_blocks))
    return blocks


class StringDomain(Domain):
    name = "strings"
    takes_strings = True
    input_format = "str, or bytes (not mixed)"
    metrics = {
        "levenshtein": Metric("levenshtein", always_finite=True, symmetric=True,
                              summary="unit-cost edit distance on code points (str) or bytes"),
        "esp": Metric("esp", symmetric=True,
                      summary="L1 distance between ESP characteristic vectors (edit distance with moves, "
                              "approximately)"),
    }
    sampler_defaults = {"sampler": D2KE_SAMPLER, "max_length": MAX_LENGTH}

    def check(self, X, name="X", dtype=None):
        return check_strings(X, name)

    def flavour_error(self, name, got, expected):
        return TypeError(
            f"{name} holds {_KINDS[got]}, but {_KINDS[expected]} was expected (as in X or the fit data): "
            "str and bytes are not compared with each other"
        )

    def make_engine(self, metric, objects, params, dtype):
        if metric == "esp":
            return EspDistanceEngine(objects)
        return _core.LevenshteinBatch(list(objects))

    def draw_random_objects(self, X, flavour, n, rng, **params):
        return draw_random_strings(X, n, rng, flavour, **{**self.sampler_defaults, **params})


STRINGS = StringDomain()
