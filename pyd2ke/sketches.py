"""String sketches: edit-sensitive parsing (ESP) and the CGK embedding.

ESP (Cormode & Muthukrishnan, "The string edit distance matching problem
with moves", 2007) parses a string into a balanced tree of 2- and 3-ary nodes
in O(L) time; the characteristic vector V(S) counts every node label (leaves
included), and ||V(S) - V(S')||_1 approximates the edit distance with moves
within O(log L log* L). CGK (Chakraborty, Goldenberg & Koucky, STOC 2016)
maps a string to a random walk over it whose Hamming distances approximate
edit distances. Both feed the space-efficient random Fourier features of
SFMEDM / SFMCGK (Tabei, Yamanishi & Pagh), see :mod:`pyd2ke.fourier`.

pyd2ke departs from the SFMEDM reference code on purpose: ESP node labels
are 64-bit fingerprints of (arity, child labels) rather than ids from a
dictionary shared across the data set, so a string's vector depends on that
string alone (strings parse in parallel, new strings can be transformed
later), and the CGK bits come from a seeded counter-based hash.
"""

import math
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from . import _core
from ._base import Interval, Pyd2keTransformer, StrOptions, store_parameters, string_input_tags
from ._domains.strings import check_strings
from ._ragged import Ragged
from ._seeds import draw_seed
from ._validation import check_dtype, check_positive_int, effective_n_threads, warn_user


class _OutputAsItIs:
    """For transformers whose output is sparse (or ESPSketches): pandas and
    polars hold neither, so, as scikit-learn's HashingVectorizer, they opt
    out of the automatic output wrapping (``auto_wrap_output_keys=None`` in
    the class statement). ``set_output`` is kept, and leaves the output as
    it is, so that a pipeline's ``set_output`` (or the global
    ``transform_output`` setting) reaches its dense last step."""

    def set_output(self, *, transform=None):
        """Accepted and ignored: the output stays a sparse matrix (or
        ESPSketches, or the walks' symbols), whatever the setting. Returns self."""
        if transform not in (None, "default", "pandas", "polars"):
            raise ValueError(f"transform must be one of 'default', 'pandas', 'polars' or None, got {transform!r}")
        return self


class ESPSketches(Ragged):
    """ESP characteristic vectors of several strings, as sorted (label, count) pairs.

    String ``i`` owns ``labels[offsets[i]:offsets[i + 1]]`` (uint64 node
    labels, ascending) and the matching ``counts`` (float64); ``sketches[i]``
    is that pair, ``sketches[a:b]`` an ESPSketches (O(1), no copy), and
    ``sketches[indices]`` (integer array or boolean mask) a copy of those
    strings' sketches, so that scikit-learn's cross-validation can split
    them (``shape`` is ``(n_strings,)``). This is the native input of
    :class:`pyd2ke.HashedRandomFourier`: the labels serve as input
    coordinates directly, so nothing is lost to column hashing.

    Parameters
    ----------
    labels : ndarray of uint64
        Ascending within each string (each label once).
    counts : ndarray of float64
        Finite and >= 0.
    offsets : ndarray of int64, shape (n_strings + 1,)
    """

    __slots__ = ()

    def __init__(self, labels, counts, offsets):
        labels = np.ascontiguousarray(labels, dtype=np.uint64)
        counts = np.ascontiguousarray(counts, dtype=np.float64)
        offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        if (
            labels.ndim != 1
            or labels.shape != counts.shape
            or offsets.ndim != 1
            or len(offsets) < 1
            or offsets[0] != 0
            or offsets[-1] != len(labels)
            or np.any(np.diff(offsets) < 0)
        ):
            raise ValueError("labels, counts and offsets do not form ESP sketches")
        if not (np.isfinite(counts).all() and (counts >= 0).all()):
            raise ValueError("ESP sketch counts must be finite and >= 0")
        # The L1 distances merge two strings' labels: each string's must ascend.
        ascending = labels[1:] > labels[:-1]
        starts = offsets[1:-1]
        ascending[starts[(starts > 0) & (starts < len(labels))] - 1] = True  # a string's first label: no predecessor
        if not ascending.all():
            string = int(np.searchsorted(offsets, int(np.argmin(ascending)) + 1, side="right") - 1)
            raise ValueError(f"the labels of string {string} do not ascend (each label once, in increasing order)")
        super().__init__(labels, offsets, counts)

    @classmethod
    def _trusted(cls, labels, counts, offsets):
        """Sketches whose labels are known to ascend (the core's, or the rows
        of a canonical CSR matrix, whose values may have any sign): not
        checked again."""
        return cls._from_parts(labels, offsets, counts, None, None)

    @property
    def shape(self):
        return (len(self),)

    def __getitem__(self, index):
        """One string's (labels, counts), a contiguous slice (no copy), or the
        strings at an integer array or boolean mask (a copy)."""
        if isinstance(index, tuple) and len(index) == 2 and index[1] is Ellipsis:
            index = index[0]  # scikit-learn's _safe_indexing writes X[key, ...]
        if isinstance(index, (list, np.ndarray)):
            key = np.asarray(index)
            if key.ndim == 0:
                return super().__getitem__(int(key))
            if key.size == 0:
                key = key.astype(np.intp)  # [] is float64 to numpy
            if key.dtype != bool and not np.issubdtype(key.dtype, np.integer):
                raise IndexError(f"ESPSketches take integer or boolean indices, got an array of {key.dtype}")
            return self.take(np.arange(len(self))[key])  # negative indices, bounds and masks as numpy's
        return super().__getitem__(index)

    @property
    def labels(self):
        return self.values

    @property
    def counts(self):
        return self.weights

    def l1_norms(self):
        """||V(S)||_1 of every string: the number of nodes of its ESP tree."""
        return self.segment_sums()

    def to_csr(self, n_features=2**20, n_jobs=None):
        """Hashed-column CSR matrix: label ``l`` goes to column ``l % n_features``
        (labels of one string in the same column are summed; columns sorted),
        built on n_jobs threads."""
        n_features = check_positive_int(n_features, "n_features", maximum=None)
        indptr, indices, data = _core.esp_hashed_csr(self.labels, self.counts, self.offsets, n_features,
                                                     effective_n_threads(n_jobs))
        return _hashed_csr(indptr, indices, data, n_features)

    def __repr__(self):
        return f"ESPSketches(n_strings={len(self)}, nnz={len(self.labels)})"


def esp_sketches(X, n_jobs=None):
    """ESP characteristic vectors of the strings of X as :class:`ESPSketches`."""
    strings, _ = check_strings(X)
    return ESPSketches._trusted(*_core.esp_sketches(strings, effective_n_threads(n_jobs)))


def _hashed_csr(indptr, indices, data, n_features):
    """The CSR matrix of hashed ESP rows (columns sorted and distinct per row)."""
    X = sp.csr_matrix((data, indices, indptr), shape=(len(indptr) - 1, n_features))
    X.has_sorted_indices = True
    X.has_canonical_format = True
    return X


def _check_same_kind(is_bytes, fitted_is_bytes):
    """A TypeError when X holds str and the fit data bytes, or the reverse."""
    if is_bytes != fitted_is_bytes:
        kinds = {False: "str", True: "bytes"}
        raise TypeError(f"X holds {kinds[is_bytes]}, but the fit data held {kinds[fitted_is_bytes]}")


class _AppendedRows:
    """ESPVectorizer's output written chunk by chunk: the core appends each
    chunk's rows (sketches or hashed CSR rows) into one set of arrays grown
    in place, and `finish` wraps them. Joining per-chunk results instead
    copied every value a second time, into fresh memory, and held both
    copies at the end (twice the output's memory at the peak)."""

    def __init__(self, appender, wrap):
        self._appender, self._wrap, self._n = appender, wrap, 0

    def __getitem__(self, rows):
        """The rows of the next chunk: they are appended, so chunks come in order."""
        if rows.start != self._n:
            raise ValueError(f"chunks must come in order: got rows from {rows.start}, expected {self._n}")
        return self

    def append(self, strings, n_jobs):
        self._appender.append(strings, effective_n_threads(n_jobs))
        self._n += len(strings)

    def finish(self):
        return self._wrap(*self._appender.finish())


class ESPVectorizer(_OutputAsItIs, Pyd2keTransformer, auto_wrap_output_keys=None):
    """Edit-sensitive parsing of strings into characteristic vectors.

    V(S) counts every node label of the ESP tree of S, leaves (characters)
    included, so ``||V(S)||_1`` is the number of tree nodes, between L and
    2L - 1 for a string of length L (the zero vector for an empty string),
    and ``||V(S) - V(S')||_1`` approximates the edit distance with moves
    (substring moves cost O(1)).
    Parsing takes O(L) time per string (plus sorting its node labels); node
    labels are 64-bit fingerprints of (arity, child labels), so each
    string's vector depends on that string alone and the transformer is
    stateless, like scikit-learn's HashingVectorizer: ``transform`` needs
    no ``fit``. ``set_output`` leaves its sparse output as it is.

    Parameters
    ----------
    n_features : int, default=2**20
        Columns of the CSR output; label ``l`` is counted in column
        ``l % n_features`` (collisions add up).
    output : {"csr", "sketch"}, default="csr"
        "csr": scipy.sparse CSR matrix of shape (n_strings, n_features).
        "sketch": :class:`ESPSketches` with the full 64-bit labels, the
        native input of :class:`HashedRandomFourier` (no collisions).
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Value type of the CSR output.

    Notes
    -----
    Each level of the tree is cut into maximal runs of one label (length
    >= 2) and the non-repetitive stretches between them. Runs and stretches
    shorter than 5 are paired left to right (a triple last when the length
    is odd); longer stretches get alphabet reduction (four fixed rounds of
    label = 2 * lsb(x[i-1] ^ x[i]) + bit, the first position using its right
    neighbour; then 3, 4, 5 replaced by the least of {0, 1, 2} not next to
    them), landmarks at local maxima and at local minima not next to a
    maximum, and blocks of 2 or 3 from one landmark to the next. A stretch of
    a single node joins the run before it (the run after it at the start).
    Levels repeat until one node is left. Measured on random DNA strings,
    one edit changes ``||V||_1`` by at most about 1.3 * log2(L) * log*(L)
    and moving a block of L/10 by at most about 3 * log2(L) * log*(L)
    (benchmarks/sfm_report.py); the tests assert c <= 4 and c <= 8.
    """

    _parameter_constraints = {
        **Pyd2keTransformer._parameter_constraints,
        "n_features": [Interval(Integral, 1, np.iinfo(np.int64).max, closed="both")],
        "output": [StrOptions({"csr", "sketch"})],
    }
    def __init__(self, *, n_features=2**20, output="csr", n_jobs=None, dtype=np.float64):
        store_parameters(self, locals())

    def __sklearn_is_fitted__(self):
        return True  # stateless: nothing to learn

    def _fit(self, X, y=None):
        """ESP has nothing to learn: X is only checked, and whether it holds
        str or bytes kept (they parse differently beyond ASCII)."""
        self.is_bytes_ = check_strings(X)[1]
        self.is_fitted_ = True

    def _check_input(self, X):
        if not hasattr(self, "is_fitted_"):  # transform without fit: the parameters as fit checks them
            self._check_params()
            self._validate_params()
        strings, is_bytes = check_strings(X)
        _check_same_kind(is_bytes, self.__dict__.get("is_bytes_", is_bytes))
        return strings, None

    def _allocate(self, n):
        # Both outputs are appended chunk by chunk, in the core, into one.
        if self.output == "sketch":
            return _AppendedRows(_core.EspSketchAppender(), ESPSketches._trusted)
        n_features, single = self.n_features, check_dtype(self.dtype) == np.float32
        return _AppendedRows(_core.EspCsrAppender(n_features, single),
                             lambda indptr, indices, data: _hashed_csr(indptr, indices, data, n_features))

    def _transform_chunk(self, strings, out):
        """Characteristic vectors, appended to the output: rows of a CSR
        matrix of shape (n_strings, n_features), or ESPSketches with
        output="sketch"."""
        out.append(strings, self.n_jobs)
        return out

    def _finish(self, out):
        return out.finish()

    def _check_output(self, Z, start):
        pass  # counts of tree nodes: nothing to overflow

    def _output_type(self):
        if self.output == "sketch":
            return "sketch", np.dtype(np.float64)
        return "sparse", np.dtype(check_dtype(self.dtype))

    @property
    def _n_features_out(self):
        return self.n_features

    def __sklearn_tags__(self):
        tags = string_input_tags(super().__sklearn_tags__())
        tags.requires_fit = False
        return tags


class _OneHotRows:
    """The CSR arrays of n one-hot walks of T steps, filled a chunk at a
    time: rows [a, b) own columns and data [a T, b T)."""

    def __init__(self, n, T, slots_per_step, dtype):
        self.n, self.T = n, T
        self.n_columns = T * slots_per_step
        # The index type scipy would pick (it copies any other into it).
        self.index_dtype = np.int32 if max(n * T, self.n_columns) < np.iinfo(np.int32).max else np.int64
        self.columns = np.empty(n * T, dtype=self.index_dtype)
        self.data = np.empty(n * T, dtype=dtype)

    def __getitem__(self, rows):
        start, stop, _ = rows.indices(self.n)
        return self.columns[start * self.T:stop * self.T], self.data[start * self.T:stop * self.T]

    def matrix(self):
        indptr = np.arange(self.n + 1, dtype=self.index_dtype) * self.T
        return sp.csr_matrix((self.data, self.columns, indptr), shape=(self.n, self.n_columns), copy=False)


class CGKEmbedding(_OutputAsItIs, Pyd2keTransformer, auto_wrap_output_keys=None):
    """CGK random-walk embedding of strings into Hamming (and L1) space.

    For a string S of length n the walk writes ``out[t] = S[i]`` and moves
    ``i`` on by a random bit ``r_t(S[i])`` for t = 0 .. T - 1; once ``i``
    passes the end it writes a pad symbol outside every alphabet (an empty
    string's walk is all padding). The bits
    are a counter-based hash of (seed, t, symbol): shared by all strings,
    drawn from ``random_state`` at fit time. The Hamming distance between
    two walks approximates the edit distance of the strings.

    Parameters
    ----------
    output_length : int or None, default=None
        T, the walk length. None: 3 * (longest fit string); a walk passes
        the end of a string of length n after about 2n steps, so transform
        warns when a string longer than every fit string is likely to be
        cut after T steps (its tail not counted).
    output : {"onehot", "symbols"}, default="onehot"
        "onehot": scipy.sparse CSR, every step one-hot encoded over the fit
        alphabet + pad with value 0.5, so L1 distance = Hamming distance
        (SFMCGK's encoding). Symbols never seen at fit time share one extra
        "unknown" slot per step (a pyd2ke extension). "symbols": the walks
        as a uint32 array of shape (n_strings, T) of code points (or byte
        values), pad = ``CGKEmbedding.PAD``.
    random_state : int, RandomState or None, default=None
    n_jobs : int or None, default=None
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Value type of the one-hot output.

    Attributes
    ----------
    alphabet_ : ndarray of uint32
        Sorted symbols of the fit strings.
    output_length_ : int
    seed_ : int
        Seed of the walk bits.
    n_features_out_ : int
        Columns of the output: ``output_length_ * (len(alphabet_) + 2)``
        for the one-hot output, ``output_length_`` for the symbols.
    """

    PAD = int(_core.CGK_PAD)
    _parameter_constraints = {
        **Pyd2keTransformer._parameter_constraints,
        "output_length": [Interval(Integral, 1, np.iinfo(np.int32).max, closed="both"), None],
        "output": [StrOptions({"onehot", "symbols"})],
        "random_state": ["random_state"],
    }
    _fitted_attribute = "seed_"

    def __init__(self, *, output_length=None, output="onehot", random_state=None, n_jobs=None, dtype=np.float64):
        store_parameters(self, locals())

    @staticmethod
    def _symbols(strings, is_bytes):
        seen = set()
        for s in strings:
            seen.update(s if is_bytes else map(ord, s))
        return np.array(sorted(seen), dtype=np.uint32)

    def _fit(self, X, y=None):
        """Learn the alphabet and the walk length; draw the seed."""
        strings, is_bytes = check_strings(X)
        self.alphabet_ = self._symbols(strings, is_bytes)
        self.max_length_ = strings.longest()
        if self.max_length_ == 0 and self.output_length is None:
            raise ValueError("X holds only empty strings: the walk length, 3 x the longest fit string, would be 0; "
                             "pass output_length")
        self.output_length_ = 3 * self.max_length_ if self.output_length is None else int(self.output_length)
        self.seed_ = draw_seed(self.random_state)
        self.is_bytes_ = is_bytes
        self.n_features_out_ = self._n_features_out

    def walks(self, X):
        """The walks of length 3 * len(S) of every string (a list of uint32 arrays)."""
        check_is_fitted(self, "seed_")
        strings, _ = check_strings(X)
        symbols, offsets = _core.cgk_walks(strings, self.seed_, 0, effective_n_threads(self.n_jobs))
        return np.split(symbols, offsets[1:-1])

    def _check_input(self, X):
        strings, is_bytes = check_strings(X)
        _check_same_kind(is_bytes, self.is_bytes_)
        self._warn_if_cut(strings)
        return strings, None

    def _warn_if_cut(self, strings):
        """A warning when the walk length chosen from the fit data
        (output_length=None) may well cut strings longer than any fit
        string; an explicit output_length is the user's choice."""
        if self.output_length is not None:
            return
        # A walk advances on about half its steps: T steps pass the end of
        # n letters unless Binomial(T, 1/2) < n, likely from n > T/2 - sqrt(T)
        # on (2 standard deviations below the mean).
        T = self.output_length_
        limit = max(self.max_length_, int(T / 2 - math.sqrt(T)))
        longest = strings.longest()  # measured by the check (no pass here when no string is that long)
        if longest > limit:
            longer = sum(len(s) > limit for s in strings)
            warn_user(
                f"{longer} of the {len(strings)} strings of X have more than {limit} letters (the longest: "
                f"{longest}), more than any fit string: the walks of 3 x {self.max_length_} = {T} steps, set by the "
                f"fit data, may end before such a string does, and its tail then does not count. Fit on strings "
                f"as long, or pass output_length >= {3 * longest}")

    def _allocate(self, n):
        # Both outputs have a known size: the symbols go into one array, the
        # one-hot columns and values into the arrays of one CSR matrix.
        if self.output == "symbols":
            return np.empty((n, self.output_length_), dtype=np.uint32)
        return _OneHotRows(n, self.output_length_, len(self.alphabet_) + 2, check_dtype(self.dtype))

    def _finish(self, out):
        return out if self.output == "symbols" else out.matrix()

    def _transform_chunk(self, strings, out):
        """Walks of length ``output_length_``, one-hot encoded or as symbols."""
        T = self.output_length_
        n_threads = effective_n_threads(self.n_jobs)
        if self.output == "symbols":
            symbols, _ = _core.cgk_walks(strings, self.seed_, T, n_threads)
            out[...] = symbols.reshape(len(strings), T)
            return out
        # The core walks and writes each step's one-hot column (slot k for
        # the padding, k + 1 for a symbol the fit data did not have) and the
        # values, in parallel over strings: the walks are never stored.
        columns, data = out
        _core.cgk_onehot_into(strings, self.seed_, T, self.alphabet_, columns, data, n_threads)
        return out

    def _check_output(self, Z, start):
        pass  # symbols and entries of 0.5: nothing to overflow

    def _output_type(self):
        if self.output == "symbols":
            return "dense", np.dtype(np.uint32)
        return "sparse", np.dtype(check_dtype(self.dtype))

    @property
    def _n_features_out(self):
        if self.output == "onehot":
            return self.output_length_ * (len(self.alphabet_) + 2)
        return self.output_length_

    def __sklearn_tags__(self):
        tags = string_input_tags(super().__sklearn_tags__())
        tags.non_deterministic = False
        return tags


__all__ = ["ESPSketches", "ESPVectorizer", "CGKEmbedding", "esp_sketches"]
