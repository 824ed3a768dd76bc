"""Word vectors as users hold them (a dict, a gensim KeyedVectors, a
DataFrame indexed by word) and tokenised documents: the same features as
the bag-of-words matrix over a plain embedding matrix, bit for bit, and
clear errors for what cannot be read."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer

import pyd2ke
from pyd2ke._domains.word_vectors import WordVectors, is_token_documents

WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ran", "a"]
DOCS = [["the", "cat", "sat", "on", "the", "mat"], ["a", "dog", "ran"], ["the", "dog", "sat"], ["cat"],
        ["a", "cat", "ran", "on", "a", "mat"]]


class FakeKeyedVectors:
    """What WordMoversEmbedding reads of gensim's KeyedVectors (gensim is not a test dependency)."""

    def __init__(self, words, vectors):
        self.index_to_key, self.vectors = list(words), vectors

    def __len__(self):
        return len(self.index_to_key)


@pytest.fixture(scope="module")
def matrix():
    return np.random.default_rng(0).normal(size=(len(WORDS), 5))


def _tables(matrix):
    pd = pytest.importorskip("pandas")
    return {"dict": dict(zip(WORDS, matrix)), "KeyedVectors": FakeKeyedVectors(WORDS, matrix),
            "DataFrame": pd.DataFrame(matrix, index=WORDS)}


def _bag_of_words(docs):
    return CountVectorizer(vocabulary=WORDS, analyzer=lambda doc: doc).fit_transform(docs)


@pytest.mark.parametrize("table", ["dict", "KeyedVectors", "DataFrame"])
@pytest.mark.parametrize("params", [{}, {"weighting": "tfidf", "distribution": "vocabulary"}, {"distribution": "box"}])
def test_tokenised_documents_are_their_bag_of_words(matrix, table, params):
    embeddings = _tables(matrix)[table]
    expected = pyd2ke.WordMoversEmbedding(6, embeddings=matrix, random_state=0, **params).fit(_bag_of_words(DOCS))
    fitted = pyd2ke.WordMoversEmbedding(6, embeddings=embeddings, random_state=0, **params).fit(DOCS)
    np.testing.assert_array_equal(fitted.transform(DOCS), expected.transform(_bag_of_words(DOCS)))
    with pyd2ke.chunking(max_items=2):
        np.testing.assert_array_equal(fitted.transform(DOCS), expected.transform(_bag_of_words(DOCS)))
    # Fitted on tokens, it reads a count matrix over the same words, and tuples or arrays of tokens.
    np.testing.assert_array_equal(fitted.transform(_bag_of_words(DOCS)), fitted.transform(DOCS))
    np.testing.assert_array_equal(fitted.transform([tuple(d) for d in DOCS]), fitted.transform(DOCS))
    np.testing.assert_array_equal(fitted.transform([np.array(d) for d in DOCS]), fitted.transform(DOCS))


def test_a_series_of_token_lists_is_read_and_its_labels_named(matrix):
    pd = pytest.importorskip("pandas")
    column = pd.Series(DOCS, index=[f"doc{i}" for i in range(len(DOCS))])
    fitted = pyd2ke.WordMoversEmbedding(6, embeddings=dict(zip(WORDS, matrix)), random_state=0).fit(column)
    np.testing.assert_array_equal(fitted.transform(column), fitted.transform(DOCS))
    with pytest.raises(ValueError, match=r"X\[1\] \(index label 'doc1'\) has no token that embeddings has a vector "
                                         r"for \('Dog', 'RAN'\)"):
        fitted.transform(pd.Series([["cat"], ["Dog", "RAN"]], index=["doc0", "doc1"]))


def test_what_tokenised_documents_cannot_be_is_named(matrix):
    vectors = dict(zip(WORDS, matrix))
    with pytest.raises(TypeError, match=r"embeddings must name its rows by word: a dict \{word: vector\}, a gensim "
                                        r"KeyedVectors or a DataFrame indexed by word"):
        pyd2ke.WordMoversEmbedding(6, embeddings=matrix).fit(DOCS)
    with pytest.raises(TypeError, match=r"X\[0\] is a str: pass each document as a list of tokens \(e\.g\. "
                                        r"text\.split\(\)"):
        pyd2ke.WordMoversEmbedding(6, embeddings=vectors).fit(["the cat sat", "a dog ran"])
    with pytest.raises(TypeError, match=r"X\[1\] holds int 3; tokens must be str"):
        pyd2ke.WordMoversEmbedding(6, embeddings=vectors).fit([["cat"], ["dog", 3]])
    with pytest.raises(TypeError, match=r"X\[1\] is float; a tokenised document is a list of str"):
        pyd2ke.WordMoversEmbedding(6, embeddings=vectors).fit([["cat"], 2.5])
    with pytest.raises(ValueError, match=r"X\[2\] has no token that embeddings has a vector for \(no tokens\)"):
        pyd2ke.WordMoversEmbedding(6, embeddings=vectors).fit([["cat"], ["dog"], []])
    with pytest.raises(ValueError, match="embeddings is an empty dict"):
        pyd2ke.WordMoversEmbedding(6, embeddings={}).fit(DOCS)


def test_unknown_tokens_are_dropped_and_a_majority_of_them_warned_about(matrix):
    vectors = dict(zip(WORDS, matrix))
    fitted = pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit(DOCS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a few unknown tokens: no warning
        with_unknown = fitted.transform([DOCS[0] + ["zebra"]] + DOCS[1:])
    np.testing.assert_array_equal(with_unknown, fitted.transform(DOCS))
    capitalised = [["The", "Cat", "sat"], ["A", "Dog", "ran"]]
    with pytest.warns(UserWarning, match=r"4 of the 6 tokens of X \(67%\) have no vector in embeddings and are "
                                         r"dropped, most often 'The', 'Cat', 'A', 'Dog'.*lower case"):
        fitted.transform(capitalised)


def test_word_vectors_of_a_dict_are_checked_by_word(matrix):
    ragged = dict(zip(WORDS, matrix))
    ragged["dog"] = ragged["dog"][:3]
    with pytest.raises(ValueError, match=r"embeddings\['dog'\] has shape \(3,\).*most have shape \(5,\)"):
        pyd2ke.WordMoversEmbedding(6, embeddings=ragged).fit(DOCS)
    with_nan = dict(zip(WORDS, matrix.copy()))
    with_nan["ran"][1] = np.nan
    with pytest.raises(ValueError, match=r"embeddings' row 6 \('ran'\) holds NaN or infinity"):
        pyd2ke.WordMoversEmbedding(6, embeddings=with_nan).fit(DOCS)
    # A word no document uses is never read.
    Z = pyd2ke.WordMoversEmbedding(6, embeddings=with_nan, random_state=0).fit_transform([["cat", "sat"], ["dog"]])
    assert np.isfinite(Z).all()
    nan_matrix = matrix.copy()
    nan_matrix[6, 1] = np.nan
    with pytest.raises(ValueError, match=r"embeddings' row 6 holds NaN or infinity"):
        pyd2ke.WordMoversEmbedding(6, embeddings=nan_matrix).fit(_bag_of_words(DOCS))


def test_only_sequences_of_token_lists_are_read_as_tokenised_documents(matrix):
    assert is_token_documents(DOCS) and is_token_documents(tuple(DOCS)) and is_token_documents(["a text"])
    assert is_token_documents(np.array([["a", "b"], ["c"]], dtype=object))
    for other in (_bag_of_words(DOCS), sp.csr_matrix((2, 3)), np.ones((2, 3)), [(np.ones((2, 5)), np.ones(2))], [],
                  "a text", {"a": ["b"]}, [[1, 2]], np.array([["a", "b"]])):
        assert not is_token_documents(other), other


def test_a_count_table_is_checked_against_a_dicts_words(matrix):
    pd = pytest.importorskip("pandas")
    counts = _bag_of_words(DOCS).toarray()
    in_order = pd.DataFrame(counts, columns=WORDS)
    vectors = dict(zip(WORDS, matrix))
    expected = pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit_transform(DOCS)
    np.testing.assert_array_equal(
        pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit_transform(in_order), expected)
    for table in (vectors, FakeKeyedVectors(WORDS, matrix)):
        with pytest.raises(ValueError, match=r"X's columns are not the words of embeddings' rows in the same order"):
            pyd2ke.WordMoversEmbedding(6, embeddings=table).fit(in_order[sorted(WORDS)])


def test_the_odd_vector_of_a_dict_and_a_repeated_word_are_named(matrix):
    header = {"8": np.array([5.0]), **dict(zip(WORDS, matrix))}  # a word2vec file's first line read as a word
    with pytest.raises(ValueError, match=r"embeddings\['8'\] has shape \(1,\).*most have shape \(5,\)"):
        pyd2ke.WordMoversEmbedding(6, embeddings=header).fit([["8", "cats"]] + DOCS)  # "8" read first
    assert pyd2ke.WordMoversEmbedding(6, embeddings=header).fit(DOCS)  # a vector no document uses is not read
    pd = pytest.importorskip("pandas")
    twice = pd.DataFrame(np.vstack([matrix, matrix[:1]]), index=WORDS + ["the"])
    with pytest.raises(ValueError, match="embeddings names the word 'the' on more than one row"):
        pyd2ke.WordMoversEmbedding(6, embeddings=twice).fit(DOCS)


def test_bad_tokens_in_the_first_document_are_named(matrix):
    vectors = dict(zip(WORDS, matrix))
    for first, match in (([2004, "cat"], r"X\[0\] holds int 2004; tokens must be str"),
                         ([None, "cat"], r"X\[0\] holds NoneType None; tokens must be str"),
                         ([b"cat"], r"X\[0\] holds bytes b'cat'; tokens must be str \(decode them\)")):
        with pytest.raises(TypeError, match=match):
            pyd2ke.WordMoversEmbedding(6, embeddings=vectors).fit([first, ["dog"]])


def test_every_vector_the_box_reads_is_checked(matrix):
    vectors = {**dict(zip(WORDS, matrix)), "zzz": np.full(5, np.nan)}  # a word no document uses
    with pytest.raises(ValueError, match=r"embeddings' row 8 \('zzz'\) holds NaN or infinity"):
        pyd2ke.WordMoversEmbedding(6, embeddings=vectors, distribution="box").fit(DOCS)
    assert pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit_transform(DOCS).shape == (5, 6)


def test_a_third_of_unknown_tokens_or_a_document_that_lost_most_warns(matrix):
    fitted = pyd2ke.WordMoversEmbedding(6, embeddings=dict(zip(WORDS, matrix)), random_state=0).fit(DOCS)
    with pytest.warns(UserWarning, match=r"3 of the 9 tokens of X \(33%\) have no vector"):
        fitted.transform([["The", "cat", "sat"], ["A", "dog", "ran"], ["On", "the", "mat"]])
    with pytest.warns(UserWarning, match=r"X\[1\] lost 75% of its tokens"):
        fitted.transform([DOCS[0] * 4, ["Cat", "Sat", "On", "mat"]])


def test_the_embeddings_are_read_once_per_object(matrix, monkeypatch):
    from pyd2ke import documents

    built = []
    monkeypatch.setattr(documents, "WordVectors", lambda e: built.append(1) or WordVectors(e))
    vectors = dict(zip(WORDS, matrix))
    fitted = pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit(DOCS)
    fitted.transform(DOCS)
    fitted.transform(DOCS)
    assert len(built) == 1
    fitted.set_params(embeddings=dict(vectors))  # another object: read again
    fitted.transform(DOCS)
    assert len(built) == 2
    assert "_word_table" not in pickle.loads(pickle.dumps(fitted)).__dict__


def test_fit_transform_counts_the_tokens_once(matrix):
    vectors = dict(zip(WORDS, matrix))
    capitalised = [["The", "cat", "Sat", "On"], ["A", "dog", "Ran", "On"]] + DOCS[:1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Z = pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit_transform(capitalised)
    assert sum("have no vector in embeddings" in str(w.message) for w in caught) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(
            Z, pyd2ke.WordMoversEmbedding(6, embeddings=vectors, random_state=0).fit(capitalised).transform(capitalised))
