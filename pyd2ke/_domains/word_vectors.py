"""Word embeddings as users hold them (a matrix, a DataFrame indexed by
word, a dict {word: vector}, gensim's KeyedVectors), and tokenised
documents turned into a bag-of-words matrix over them."""

from collections import Counter
from collections.abc import Mapping

import numpy as np
import scipy.sparse as sp

from .._validation import as_list, row_labels, warn_user
from .point_sets import points


class WordVectors:
    """An embeddings table: one vector a row, and the words that name the
    rows (None for a bare matrix). A dict's vectors are stacked only for the
    rows asked for: a 400000-word GloVe dict is 0.5 GB as one matrix."""

    def __init__(self, embeddings):
        if hasattr(embeddings, "index_to_key") and hasattr(embeddings, "vectors"):  # gensim's KeyedVectors
            self.words, self._rows = list(embeddings.index_to_key), points(embeddings.vectors, "embeddings", None)
        elif isinstance(embeddings, Mapping):
            self.words, self._rows = list(embeddings.keys()), list(embeddings.values())
            if not self._rows:
                raise ValueError("embeddings is an empty dict: it needs a vector for each word")
        else:
            labels = row_labels(embeddings)
            self.words = None if labels is None else list(labels)
            self._rows = points(embeddings, "embeddings", None)
        self._index = None

    def __len__(self):
        return len(self._rows)

    def rows(self, ids):
        """The vectors of words ids, (len(ids), dim), checked finite."""
        E = self._stack(ids) if isinstance(self._rows, list) else self._rows[ids]
        bad = np.flatnonzero(~np.isfinite(E).all(axis=1))
        if len(bad):
            i = int(ids[bad[0]])
            word = "" if self.words is None else f" ({self.words[i]!r})"
            raise ValueError(f"embeddings' row {i}{word} holds NaN or infinity")
        return E

    def _stack(self, ids):
        """A dict's vectors of words ids as one checked matrix."""
        vectors = [self._rows[i] for i in ids]
        try:
            E = np.asarray(vectors)
        except ValueError:  # vectors of different lengths
            E = None
        if E is None or E.ndim != 2 or E.dtype.kind not in "biuf":
            # The odd vector is the one unlike most (a word2vec file's header line read as a word, say).
            common = Counter(np.shape(v) for v in vectors).most_common(1)[0][0]
            for i, v in zip(ids, vectors):
                if np.ndim(v) != 1 or np.shape(v) != common or np.asarray(v).dtype.kind not in "biuf":
                    raise ValueError(f"embeddings[{self.words[i]!r}] has shape {np.shape(v)} and dtype "
                                     f"{np.asarray(v).dtype}; every word's vector must be 1-D and real, and most "
                                     f"have shape {common}")
        return points(E, "embeddings", None)

    def index(self, name):
        """{word: row}; a TypeError naming `name` when the rows are not
        named by words (a bare matrix, or a DataFrame without word labels)."""
        if self._index is None:
            if self.words is None or not isinstance(self.words[0], str):
                raise TypeError(f"{name} holds tokenised documents, so embeddings must name its rows by word: "
                                f"a dict {{word: vector}}, a gensim KeyedVectors or a DataFrame indexed by word "
                                f"(with a bare matrix pass a bag-of-words matrix, e.g. from CountVectorizer"
                                f"(vocabulary=words))")
            index = {w: i for i, w in enumerate(self.words)}
            if len(index) != len(self.words):
                twice = next(w for w, n in Counter(self.words).items() if n > 1)
                raise ValueError(f"embeddings names the word {twice!r} on more than one row; a word has one vector")
            self._index = index
        return self._index


def is_token_documents(X):
    """Whether X looks like tokenised documents: a sequence (list, tuple,
    pandas Series, object array) whose first item is a list, tuple or array
    holding a str or bytes (token_bag_of_words names any other token), or is
    a str (a document not yet split, refused with a hint)."""
    if isinstance(X, (str, bytes, Mapping)) or sp.issparse(X) or not hasattr(X, "__len__") or len(X) == 0:
        return False
    if hasattr(X, "dtype") and X.dtype != object:
        return False
    if getattr(X, "ndim", 1) != 1:
        return False
    first = X.iloc[0] if hasattr(X, "iloc") else X[0]
    if isinstance(first, str):
        return True
    if isinstance(first, np.ndarray):
        return first.ndim == 1 and (first.dtype.kind in "US" or (
            first.dtype == object and any(isinstance(t, (str, bytes)) for t in first)))
    return isinstance(first, (list, tuple)) and (len(first) == 0 or any(isinstance(t, (str, bytes)) for t in first))


# Above this share of unknown tokens the vocabulary and the text probably
# disagree on something systematic (case, punctuation, a stemmer): text
# split on spaces, capitals kept, lost 38 % of its tokens to lower-case
# GloVe words; lower-cased and stripped of punctuation, 1-5 % is usual.
_UNKNOWN_WARNING = 0.2
# A document that loses more than this share of at least _MIN_TOKENS tokens
# is named in the warning even when the whole text loses less.
_DOCUMENT_UNKNOWN_WARNING = 0.5
_MIN_TOKENS = 4


def token_bag_of_words(X, word_vectors, name="X"):
    """Tokenised documents as a CSR matrix of counts (n_documents, vocabulary)
    over word_vectors' words. Tokens without a vector are dropped (as the
    WME reference drops them), with a warning when they are over a fifth
    of the text or most of one document's; a document left without a word
    is a ValueError naming it."""
    docs = as_list(X, name, "documents (lists of str tokens)", "document")
    index = word_vectors.index(name)
    indptr, indices, unknown = [0], [], {}
    n_tokens, worst, worst_share = 0, None, _DOCUMENT_UNKNOWN_WARNING
    for i, doc in enumerate(docs):
        if isinstance(doc, str):
            raise TypeError(f"{name}[{i}] is a str: pass each document as a list of tokens (e.g. text.split(), "
                            f"or your tokenizer's output) so that its words can be looked up in embeddings")
        if not isinstance(doc, (list, tuple, np.ndarray)):
            raise TypeError(f"{name}[{i}] is {type(doc).__name__}; a tokenised document is a list of str")
        ids = []
        for token in doc:
            if not isinstance(token, str):
                decode = " (decode them)" if isinstance(token, bytes) else ""
                raise TypeError(f"{name}[{i}] holds {type(token).__name__} {token!r}; tokens must be str{decode}")
            j = index.get(token)
            if j is None:
                unknown[token] = unknown.get(token, 0) + 1
            else:
                ids.append(j)
        n_tokens += len(doc)
        if len(doc) >= _MIN_TOKENS and 1 - len(ids) / len(doc) > worst_share:
            worst, worst_share = i, 1 - len(ids) / len(doc)
        if not ids:
            shown = ", ".join(map(repr, list(doc)[:5])) + (", ..." if len(doc) > 5 else "")
            raise ValueError(f"{name}[{i}] has no token that embeddings has a vector for ({shown or 'no tokens'}); "
                             f"a document needs at least one known word")
        indices.extend(ids)
        indptr.append(len(indices))
    n_unknown = sum(unknown.values())
    if n_unknown > _UNKNOWN_WARNING * n_tokens or worst is not None:
        common = sorted(unknown, key=unknown.get, reverse=True)[:5]
        most = "" if worst is None else f"; {name}[{worst}] lost {worst_share:.0%} of its tokens"
        warn_user(f"{n_unknown} of the {n_tokens} tokens of {name} ({n_unknown / n_tokens:.0%}) have no vector in "
                  f"embeddings and are dropped, most often {', '.join(map(repr, common))}{most}: tokenise the "
                  f"text as the embeddings were (lower case? punctuation?)")
    indices = np.asarray(indices, dtype=np.int64)
    B = sp.csr_matrix((np.ones(len(indices)), indices, np.asarray(indptr, dtype=np.int64)),
                      shape=(len(docs), len(word_vectors)))
    B.sum_duplicates()  # repeated tokens: counts
    return B
