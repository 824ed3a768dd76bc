"""CGKEmbedding: the walk rule of ALGORITHMS.md section 7, encodings, errors."""

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import clone

from pyd2ke.sketches import CGKEmbedding
from reference import cgk_walk, levenshtein

@given(st.lists(st.text(alphabet="abcd", min_size=1, max_size=30), min_size=1, max_size=5), st.integers(0, 2**31))
def test_walk_matches_reference(strings, random_state):
    cgk = CGKEmbedding(output="symbols", random_state=random_state).fit(strings)
    W = cgk.transform(strings)
    assert W.shape == (len(strings), 3 * max(map(len, strings)))
    for row, s in zip(W, strings):
        assert row.tolist() == cgk_walk(s, cgk.seed_, W.shape[1], CGKEmbedding.PAD)
    walks = cgk.walks(strings)
    for w, s in zip(walks, strings):
        assert len(w) == 3 * len(s)
        assert w.tolist() == cgk_walk(s, cgk.seed_, 3 * len(s), CGKEmbedding.PAD)


def test_onehot_l1_is_hamming():
    rng = np.random.default_rng(0)
    X = ["".join(rng.choice(list("ACGT"), size=int(rng.integers(5, 40)))) for _ in range(20)]
    cgk = CGKEmbedding(random_state=1).fit(X)
    V = cgk.transform(X)
    S = CGKEmbedding(output="symbols", random_state=1).fit(X).transform(X)
    assert V.shape == (20, cgk.output_length_ * (len(cgk.alphabet_) + 2))
    assert np.all(V.data == 0.5) and np.all(np.diff(V.indptr) == cgk.output_length_)
    for i in range(5):
        for j in range(5):
            l1 = abs(V[i] - V[j]).sum()
            assert l1 == np.count_nonzero(S[i] != S[j])
    assert abs(V[0] - cgk.transform([X[0]])[0]).sum() == 0
    # A symbol never seen at fit time goes to the "unknown" slot, not the pad slot.
    U = cgk.transform(["ACGZ"])
    assert U.shape[1] == V.shape[1]


def test_hamming_tracks_edit_distance():
    rng = np.random.default_rng(2)
    ratios = []
    for rep in range(40):
        a = "".join(rng.choice(list("ACGT"), size=100))
        b = list(a)
        for _ in range(int(rng.integers(1, 4))):
            b[int(rng.integers(100))] = str(rng.choice(list("ACGT")))
        b = "".join(b)
        ed = levenshtein(a, b)
        S = CGKEmbedding(output="symbols", random_state=rep).fit([a, b]).transform([a, b])
        ham = np.count_nonzero(S[0] != S[1])
        if ed == 0:
            assert ham == 0
        else:
            ratios.append(ham / ed)
    assert 1 <= np.median(ratios) < 100


def test_reproducible_across_threads_and_processes():
    X = ["ACGTTGCA" * (i % 7 + 1) for i in range(300)]
    a = CGKEmbedding(random_state=5, n_jobs=1).fit(X).transform(X)
    b = CGKEmbedding(random_state=5, n_jobs=2).fit(X).transform(X)
    assert (a != b).nnz == 0
    code = (
        "from pyd2ke.sketches import CGKEmbedding; "
        "print(CGKEmbedding(output='symbols', random_state=5).fit(['ACGTTGCA']).transform(['ACGTTGCA']).tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    here = CGKEmbedding(output="symbols", random_state=5).fit(["ACGTTGCA"]).transform(["ACGTTGCA"]).tolist()
    assert out.stdout.strip() == str(here)


def test_fixed_length_and_bytes():
    X = [b"ACGT", b"AC"]
    cgk = CGKEmbedding(output_length=5, output="symbols", random_state=0).fit(X)
    W = cgk.transform(X + [b"ACGTACGTACGT"])
    assert W.shape == (3, 5)
    with pytest.raises(TypeError, match="bytes"):
        cgk.transform(["ACGT"])


def test_longer_strings_than_the_fit_data_warn():
    """The walk length comes from the fit data: a string it is likely to
    cut is named, not embedded by its head alone without a word."""
    cgk = CGKEmbedding(random_state=0).fit(["ACGTACGTAC", "GGTACCATGA"])  # T = 30
    with pytest.warns(UserWarning, match=r"2 of the 3 strings of X have more than 10 letters.*>= 300") as caught:
        cgk.transform(["ACGT" * 5 + "A" * 80, "ACGT" * 5 + "C" * 80, "ACG"])
    assert caught[0].filename == __file__
    long_fit = CGKEmbedding(random_state=0).fit(["A" * 52])  # T = 156: 56 letters pass its end
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        long_fit.transform(["C" * 56, "A"])
        CGKEmbedding(output_length=5, random_state=0).fit(["AC"]).transform(["ACGTACGT"])  # the user's choice


def test_n_features_out_is_the_output_width():
    X = ["ACGT", "ACG"]
    for output in ("onehot", "symbols"):
        cgk = CGKEmbedding(output=output, random_state=0).fit(X)
        assert cgk.n_features_out_ == cgk.transform(X).shape[1] == len(cgk.get_feature_names_out())


def test_empty_strings_walk_on_padding():
    # An empty string's walk is all padding (one empty record no longer
    # fails a whole batch); only the walk length needs a non-empty fit string.
    cgk = CGKEmbedding(output="symbols", random_state=0).fit(["ACGT", ""])
    W = cgk.transform(["", "AC"])
    assert (W[0] == CGKEmbedding.PAD).all() and W.shape == (2, 12)
    onehot = CGKEmbedding(random_state=0).fit(["ACGT", ""]).transform([""])
    k = len(cgk.alphabet_)
    assert onehot.nnz == 12 and (onehot.indices % (k + 2) == k).all()  # slot k of each step: the padding
    with pytest.raises(ValueError, match="only empty strings.*output_length"):
        CGKEmbedding().fit(["", ""])
    assert CGKEmbedding(output_length=4, random_state=0).fit(["", ""]).transform(["A"]).shape == (1, 8)


def test_bad_input_and_api():
    with pytest.raises(ValueError, match=r"X\[1\] is missing"):
        CGKEmbedding().fit(["A", None])
    with pytest.raises(ValueError, match="output_length"):
        CGKEmbedding(output_length=0).fit(["A"])
    with pytest.raises(ValueError, match="output"):
        CGKEmbedding(output="dense").fit(["A"])
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        CGKEmbedding().transform(["A"])
    c = CGKEmbedding(random_state=3)
    assert clone(c).get_params() == c.get_params()
    c.fit(["ACGT", "GG"])
    d = pickle.loads(pickle.dumps(c))
    assert (d.transform(["ACGT"]) != c.transform(["ACGT"])).nnz == 0


def test_feature_names():
    c = CGKEmbedding(random_state=0).fit(["AC", "G"])
    assert len(c.get_feature_names_out()) == c.n_features_out_ == 6 * 5
