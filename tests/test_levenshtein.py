"""Every Levenshtein path against the reference DP."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyd2ke import _core
from pyd2ke.distances import pairwise_distances
from reference import levenshtein, levenshtein_matrix

SIMD_LEVELS = _core.LevenshteinBatch.supported_simd_levels()
# Lengths that straddle the 8/16/32/64-bit lanes and the 64-bit words.
BOUNDARY_LENGTHS = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129]
ALPHABETS = {
    "unary": "a",
    "dna": "ACGT",
    "protein": "ACDEFGHIKLMNPQRSTVWY",
    "latin1": "".join(map(chr, range(256))),
    "non_ascii": "αβγδ日本語é€\U0001f600\U0001f680",
}


def strings_over(alphabet, max_size=140):
    return st.text(alphabet=alphabet, max_size=max_size)


@pytest.mark.parametrize("name", sorted(ALPHABETS))
@given(data=st.data())
def test_pair_matches_reference(name, data):
    alphabet = ALPHABETS[name]
    a = data.draw(strings_over(alphabet))
    b = data.draw(strings_over(alphabet))
    expected = levenshtein(a, b)
    assert _core.levenshtein(a, b) == expected
    assert _core.levenshtein(a, b, "blocked") == expected
    assert _core.levenshtein(a, b, "reference") == expected


@pytest.mark.parametrize("simd", SIMD_LEVELS)
@pytest.mark.parametrize("name", sorted(ALPHABETS))
@given(data=st.data())
def test_batch_matches_reference(simd, name, data):
    alphabet = ALPHABETS[name]
    patterns = data.draw(st.lists(strings_over(alphabet, 70), min_size=1, max_size=80))
    texts = data.draw(st.lists(strings_over(alphabet + "#", 200), min_size=1, max_size=4))
    batch = _core.LevenshteinBatch(patterns, simd)
    out = np.empty((len(texts), len(patterns)))
    batch.distances_into(texts, out, 2)
    np.testing.assert_array_equal(out, levenshtein_matrix(texts, patterns))


@pytest.mark.parametrize("simd", SIMD_LEVELS)
@pytest.mark.parametrize("alphabet", ["a", "ACGT", "ACDEFGHIKLMNPQRSTVWY"])
def test_batch_boundary_lengths(simd, alphabet):
    rng = np.random.default_rng(0)
    symbols = np.array(list(alphabet))
    patterns = ["".join(rng.choice(symbols, m)) for m in BOUNDARY_LENGTHS for _ in range(3)]
    texts = ["".join(rng.choice(symbols, n)) for n in BOUNDARY_LENGTHS + [300]]
    batch = _core.LevenshteinBatch(patterns, simd)
    out = np.empty((len(texts), len(patterns)))
    batch.distances_into(texts, out, 1)
    np.testing.assert_array_equal(out, levenshtein_matrix(texts, patterns))


@pytest.mark.parametrize("simd", SIMD_LEVELS)
def test_long_text_does_not_overflow_narrow_lanes(simd):
    patterns = ["ab", "abcdefgh", "a" * 16, "x" * 64, "y" * 65]
    text = "z" * 70000
    out = np.empty((1, len(patterns)))
    _core.LevenshteinBatch(patterns, simd).distances_into([text], out, 1)
    np.testing.assert_array_equal(out, [[70000] * len(patterns)])


def test_bytes_and_str_agree():
    rng = np.random.default_rng(1)
    X = [bytes(rng.integers(0, 256, rng.integers(0, 90)).astype(np.uint8)) for _ in range(20)]
    Xs = [x.decode("latin-1") for x in X]
    np.testing.assert_array_equal(pairwise_distances(X), pairwise_distances(Xs))
    np.testing.assert_array_equal(pairwise_distances(X[:5]), levenshtein_matrix(X[:5], X[:5]))


def test_pairwise_distances_known_values():
    D = pairwise_distances(["kitten", "sitting", ""], ["sitting", "kitten", "", "\U0001f600"])
    np.testing.assert_array_equal(D, [[3, 0, 6, 6], [0, 3, 7, 7], [7, 6, 0, 1]])


@pytest.mark.parametrize("n_jobs", [1, 2, -1, None])
def test_pairwise_distances_threads(n_jobs):
    rng = np.random.default_rng(2)
    X = ["".join(rng.choice(list("ACGT"), rng.integers(0, 100))) for _ in range(30)]
    D = pairwise_distances(X, n_jobs=n_jobs, dtype=np.float32)
    assert D.dtype == np.float32
    np.testing.assert_array_equal(D, levenshtein_matrix(X, X))


def test_unknown_simd_level():
    with pytest.raises(ValueError, match="simd"):
        _core.LevenshteinBatch(["a"], "avx1024")


@pytest.mark.parametrize("alphabet", ["a", "AB", "ACGT"])
def test_long_patterns_of_many_words_match_the_reference(alphabet):
    # Several 64-bit words, so that +1, 0 and -1 horizontal deltas cross word boundaries.
    rng = np.random.default_rng(1)
    symbols = np.array(list(alphabet))
    patterns = ["".join(rng.choice(symbols, m)) for m in (65, 127, 128, 190, 257, 400, 640, 641, 700)]
    texts = ["".join(rng.choice(symbols, n)) for n in (1, 64, 65, 300, 513)]
    texts.append(patterns[1][:100] + patterns[1][140:] + "".join(rng.choice(symbols, 30)))  # a near match
    expected = levenshtein_matrix(texts, patterns)
    np.testing.assert_array_equal(pairwise_distances(texts, patterns), expected)
    for simd in SIMD_LEVELS:  # word groups of 2, 4 or 8 lanes, and the portable one of 4
        for count in (1, 3, len(patterns)):  # groups with unused lanes, and lanes of fewer words
            batch = _core.LevenshteinBatch(patterns[-count:], simd)
            out = np.empty((len(texts), count))
            batch.distances_into(texts, out, 2)
            np.testing.assert_array_equal(out, expected[:, -count:])
    for t, text in enumerate(texts):
        for p, pattern in enumerate(patterns):
            assert _core.levenshtein(text, pattern, "blocked") == expected[t, p]
