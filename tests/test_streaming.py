"""fit_streamed and the readers (issue 30): the streamed loop learns what the
hand-written loop learns, on pieces sized from a memory budget; readers give
back what was written, chunk by chunk; resident memory stays flat."""

import os
import pickle
import warnings

import numpy as np
import pytest
from sklearn.linear_model import SGDClassifier, SGDRegressor
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import pyd2ke
from pyd2ke.datasets import load_statlog_dna
from pyd2ke.readers import Fasta, Lines, RaggedArrays, save_ragged
from pyd2ke.streaming import fit_streamed


@pytest.fixture(scope="module")
def dna():
    return load_statlog_dna()


def _chunks(X, y, size):
    return [(X[i:i + size], y[i:i + size]) for i in range(0, len(y), size)]


def test_streamed_fit_is_the_hand_written_loop(dna):
    X, y = dna.X_train[:900], np.asarray(dna.y_train[:900])
    classes = np.unique(y)
    rse = pyd2ke.RandomStringEmbedding(64, random_state=0).fit(X)
    budget = 100 * 64 * 8 * 4  # 100 objects per piece
    model = fit_streamed(rse, SGDClassifier(random_state=0), _chunks(X, y, 120), classes=classes, epochs=2,
                         memory_budget=budget, batch_size=50)
    report = model.streamed_fit_report_
    # 120-object chunks cut into pieces of 100 and 20; the learner sees 50 rows at a time across them.
    assert report.rows_per_piece == 100 and report.epochs == 2 and report.rows_seen == 1800
    assert report.pieces == 2 * (7 * 2 + 1)  # the last chunk, of 60, is one piece
    scaler, learner = StandardScaler(), SGDClassifier(random_state=0)
    for epoch in range(2):
        for a in range(0, 900, 50):
            Z = rse.transform(X[a:a + 50])
            if epoch == 0:
                scaler.partial_fit(Z)
            learner.partial_fit(scaler.transform(Z), y[a:a + 50], classes=classes)
    # The streamed fit's own running scaler (RunningStandardScaler) sums in
    # another order than StandardScaler: equal up to rounding.
    for attribute in ("mean_", "var_", "scale_"):
        np.testing.assert_allclose(getattr(model["scaler"], attribute), getattr(scaler, attribute), rtol=1e-12,
                                   atol=1e-30, err_msg=attribute)
    assert model["scaler"].n_samples_seen_ == scaler.n_samples_seen_ == 900
    np.testing.assert_allclose(model[-1].coef_, learner.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(model.predict(dna.X_test), learner.predict(scaler.transform(rse.transform(dna.X_test))))
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(dna.X_test[:50]), model.predict(dna.X_test[:50]))


@pytest.mark.parametrize("learner", [SGDClassifier(random_state=0), SGDClassifier(random_state=0, shuffle=False)])
def test_the_model_does_not_depend_on_the_memory_budget_or_the_chunks(dna, learner):
    """A trial: the running scaler and shuffling partial_fit saw pieces sized
    from memory_budget, so 64 MiB and 64 kiB gave coefficients 77 % apart."""
    X, y = dna.X_train[:700], np.asarray(dna.y_train[:700])
    rse = pyd2ke.RandomStringEmbedding(32, random_state=0).fit(X)
    row = 32 * 8 * 4
    models = [fit_streamed(rse, learner, _chunks(X, y, size), classes=np.unique(y), epochs=2, memory_budget=budget,
                           batch_size=64)
              for size, budget in [(700, 2**26), (700, 64 * row), (97, 128 * row), (1, 2**20)]]
    for model in models[1:]:
        np.testing.assert_array_equal(model[-1].coef_, models[0][-1].coef_)
        np.testing.assert_array_equal(model["scaler"].mean_, models[0]["scaler"].mean_)
    assert models[1].streamed_fit_report_.rows_per_piece == 64
    with pytest.raises(ValueError, match="memory_budget=8192 holds 8 rows .* fewer than batch_size=64"):
        fit_streamed(rse, learner, _chunks(X, y, 100), classes=np.unique(y), memory_budget=8192, batch_size=64)
    with pytest.raises(ValueError, match="batch_size must be >= 1"):
        fit_streamed(rse, learner, _chunks(X, y, 100), classes=np.unique(y), batch_size=0)


def test_the_learner_and_an_unfitted_transformer_are_cloned(dna):
    """A trial: a second call went on from the first call's learner (and
    changed the first returned model)."""
    X, y = dna.X_train[:300], np.asarray(dna.y_train[:300])
    learner, rse = SGDClassifier(random_state=0), pyd2ke.RandomStringEmbedding(16, random_state=0)
    first = fit_streamed(rse, learner, _chunks(X, y, 100), classes=np.unique(y))
    coef = first[-1].coef_.copy()
    second = fit_streamed(rse, learner, _chunks(X, y, 100), classes=np.unique(y))
    assert first[-1] is not second[-1] and first[-1] is not learner and first[0] is not rse
    assert not hasattr(learner, "coef_") and not hasattr(rse, "random_objects_")
    np.testing.assert_array_equal(first[-1].coef_, coef)
    np.testing.assert_array_equal(second[-1].coef_, coef)
    fitted = pyd2ke.RandomStringEmbedding(16, random_state=1).fit(X)
    assert fit_streamed(fitted, learner, _chunks(X, y, 100), classes=np.unique(y))[0] is fitted


def test_an_unknown_label_is_named_with_its_chunk(dna):
    X, y = dna.X_train[:300], np.unique(dna.y_train[:300], return_inverse=True)[1]
    rse = pyd2ke.RandomStringEmbedding(16, random_state=0).fit(X)
    with pytest.raises(ValueError, match=r"chunk 2 has the label 7 \(at item 5\), which is not in classes \[0, 1, 2\]"):
        fit_streamed(rse, SGDClassifier(), _chunks(X, np.r_[y[:205], 7, y[206:]], 100), classes=[0, 1, 2])
    with pytest.raises(ValueError, match="classes is for classifiers; SGDRegressor is not one"):
        fit_streamed(rse, SGDRegressor(), _chunks(X, y, 100), classes=[0, 1, 2])
    text = y.astype(str)
    with pytest.raises(ValueError, match=r"chunk 0 has the label '.' .*labels are strings .* classes=\['0', '1', '2'\]"):
        fit_streamed(rse, SGDClassifier(), _chunks(X, text, 100), classes=[0, 1, 2])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_running_scaler_is_standard_scaler_partial_fit(dtype):
    """Pieces of uneven sizes (one of a single row), a constant column, a
    column with a large mean and a tiny spread: the statistics and the
    standardised pieces of StandardScaler.partial_fit, to rounding."""
    from pyd2ke._running_scaler import RunningStandardScaler

    rng = np.random.default_rng(0)
    X = rng.normal(size=(301, 6)).astype(dtype)
    X[:, 2] = 3.0
    if dtype == np.float64:  # in float32 such a column is a few distinct values
        X[:, 4] = 1e4 + rng.normal(size=301) * 1e-3
    running, reference = RunningStandardScaler(), StandardScaler()
    for a, b in [(0, 1), (1, 40), (40, 41), (41, 300), (300, 301)]:
        running.update(X[a:b])
        reference.partial_fit(X[a:b])
        Z = running.transform(X[a:b])
        assert Z.dtype == dtype and Z.flags.c_contiguous
        # Column 4's mean is known to 1e-12 of 1e4, its spread is 1e-3: 1e-5 of it.
        np.testing.assert_allclose(Z, reference.transform(X[a:b]), rtol=1e-5, atol=1e-5)
    fitted = running.to_standard_scaler()
    np.testing.assert_allclose(fitted.mean_, reference.mean_, rtol=1e-12)
    np.testing.assert_allclose(fitted.var_, reference.var_, rtol=1e-6, atol=1e-18)
    assert fitted.scale_[2] == reference.scale_[2] == 1.0
    assert fitted.n_samples_seen_ == reference.n_samples_seen_ == 301
    np.testing.assert_allclose(fitted.transform(X), reference.transform(X), rtol=1e-5, atol=1e-5)


def test_streamed_fit_matches_the_in_memory_pipeline(dna):
    """Within 0.01 of the same features, scaler and SGD trained in memory."""
    X, y = dna.X_train, np.asarray(dna.y_train)
    rse = pyd2ke.RandomStringEmbedding(256, random_state=0).fit(X)
    streamed = fit_streamed(rse, SGDClassifier(random_state=0, alpha=1e-3), _chunks(X, y, 250),
                            classes=np.unique(y), epochs=5, memory_budget=2**22)
    Z = rse.transform(X)
    scaler = StandardScaler().fit(Z)
    memory = SGDClassifier(random_state=0, alpha=1e-3, max_iter=5, tol=None).fit(scaler.transform(Z), y)
    Z_test = scaler.transform(rse.transform(dna.X_test))
    assert abs(streamed.score(dna.X_test, dna.y_test) - memory.score(Z_test, dna.y_test)) <= 0.02


def test_transformer_fitted_on_the_first_chunk_and_early_stopping(dna):
    X, y = dna.X_train[:600], np.asarray(dna.y_train[:600])
    rse = pyd2ke.RandomStringEmbedding(32, random_state=0)
    model = fit_streamed(rse, SGDClassifier(random_state=0), _chunks(X, y, 200), classes=np.unique(y), epochs=50,
                         validation=(dna.X_test[:200], dna.y_test[:200]), patience=2, tol=0.5)
    report = model.streamed_fit_report_
    assert model[0].n_components_ == 32 and not hasattr(rse, "n_components_")  # a clone, fitted on the first chunk
    assert report.stopped_early and report.epochs == 3 and len(report.scores) == 3


def test_regressor_and_bad_arguments(dna):
    X = dna.X_train[:200]
    target = np.array([s.count("G") for s in X], dtype=float)
    model = fit_streamed(pyd2ke.RandomStringEmbedding(32, random_state=0), SGDRegressor(random_state=0),
                         _chunks(X, target, 64))
    assert model.predict(X[:5]).shape == (5,)
    rse = pyd2ke.RandomStringEmbedding(8, random_state=0)
    with pytest.raises(ValueError, match="classes is required"):
        fit_streamed(rse, SGDClassifier(), _chunks(X, target, 64))
    with pytest.raises(TypeError, match="partial_fit"):
        fit_streamed(rse, LinearSVC(), _chunks(X, target, 64))
    with pytest.raises(TypeError, match="read again"):
        fit_streamed(rse, SGDRegressor(), iter(_chunks(X, target, 64)), epochs=2)
    with pytest.raises(ValueError, match="no objects"):
        fit_streamed(rse, SGDRegressor(), [])
    with pytest.raises(TypeError, match="chunk 0 is list"):
        fit_streamed(rse, SGDRegressor(), [X])
    with pytest.raises(ValueError, match="chunk 0 has 200 objects but 3 labels"):
        fit_streamed(rse, SGDRegressor(), [(X, target[:3])])
    # Empty chunks are skipped, the first ones too; a bad chunk after them is named by its number.
    model = fit_streamed(pyd2ke.RandomStringEmbedding(8, random_state=0), SGDRegressor(random_state=0),
                         [([], []), (X[:0], target[:0])] + _chunks(X, target, 64))
    assert model.streamed_fit_report_.rows_seen == 200
    with pytest.raises(ValueError, match="no objects"):
        fit_streamed(rse, SGDRegressor(), [([], [])])
    with pytest.raises(ValueError, match="chunk 1 has 200 objects but 3 labels"):
        fit_streamed(rse, SGDRegressor(), [([], []), (X, target[:3])])
    with pytest.raises(ValueError, match=r"memory_budget must be a number of bytes >= 1, got 0.5"):
        fit_streamed(rse, SGDRegressor(), _chunks(X, target, 64), memory_budget=0.5)
    # validation is checked before the learner learns anything.
    learner = SGDRegressor(random_state=0)
    for bad, error in (((X[:30], target[:20]), ValueError), ((X[:30],), TypeError), (([], []), ValueError)):
        with pytest.raises(error, match="validation"):
            fit_streamed(rse, learner, _chunks(X, target, 64), validation=bad)
        assert not hasattr(learner, "coef_")


def test_lines_reader(tmp_path):
    path = tmp_path / "strings.txt"
    rows = [f"{i % 3}\t{'ACGT' * (i % 5)}x{i}" for i in range(23)]
    path.write_text("\n".join(rows) + "\n")
    chunks = list(Lines(path, 5, label_separator="\t"))
    assert [len(c[0]) for c in chunks] == [5, 5, 5, 5, 3]
    assert sum((c[0] for c in chunks), []) == [r.split("\t", 1)[1] for r in rows]
    assert sum((c[1] for c in chunks), []) == [r.split("\t", 1)[0] for r in rows]
    assert list(Lines(path, 5, label_separator="\t")) == chunks  # re-iterable
    plain = tmp_path / "plain.txt"
    plain.write_bytes(b"ACGT\r\n\r\nGATTACA\n\xff\xfe\n")
    assert list(Lines(plain, 10, as_bytes=True)) == [[b"ACGT", b"GATTACA", b"\xff\xfe"]]
    with pytest.raises(ValueError, match="strings.txt:1 has no label separator ','"):
        list(Lines(path, 5, label_separator=","))
    # Empty lines are skipped with labels too (a trailing blank line stopped a streamed fit).
    blank = tmp_path / "blank.tsv"
    blank.write_text("0\tACGT\n1\tAC\n\n0\tGGA\n1\t\n\n")
    assert list(Lines(blank, 10, label_separator="\t")) == [(["ACGT", "AC", "GGA", ""], ["0", "1", "0", "1"])]
    with pytest.raises(ValueError, match="blank.tsv:3 has no label separator"):
        list(Lines(blank, 10, label_separator="\t", skip_empty=False))


def test_lines_with_more_fields_and_undecodable_lines_are_named(tmp_path):
    path = tmp_path / "split.tsv"
    path.write_text("EI\tACGT\ttrain\nN\tGGCA\ttest\n")
    with pytest.warns(UserWarning, match=r"split\.tsv:1 has 3 fields separated by '\\t': its string is everything "
                                         r"after the label.*extra_fields='drop'"):
        assert list(Lines(path, label_separator="\t")) == [(["ACGT\ttrain", "GGCA\ttest"], ["EI", "N"])]
    assert list(Lines(path, label_separator="\t", extra_fields="drop")) == [(["ACGT", "GGCA"], ["EI", "N"])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(Lines(path, label_separator="\t", extra_fields="keep"))[0][0] == ["ACGT\ttrain", "GGCA\ttest"]
        list(Lines(path, label_separator="\t", as_bytes=True, extra_fields="drop"))
    with pytest.raises(ValueError, match="extra_fields must be 'warn', 'keep' or 'drop', got 'all'"):
        Lines(path, label_separator="\t", extra_fields="all")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ACGT\n" * 3000 + b"GG\xff\n")
    with pytest.raises(ValueError, match=r"bad\.txt:3001 is not valid utf-8 \(invalid start byte\): pass encoding=, "
                                         r"or as_bytes=True"):
        list(Lines(bad))


def test_fasta_reader(tmp_path):
    path = tmp_path / "seqs.fa"
    path.write_text(">a first\nACGT\nTTGA\n\n>b\nGGCA\n;comment\n>c\nA\n")
    assert list(Fasta(path, 2)) == [["ACGTTTGA", "GGCA"], ["A"]]
    assert list(Fasta(path, 10, with_headers=True)) == [(["ACGTTTGA", "GGCA", "A"], ["a first", "b", "c"])]
    assert list(Fasta(path, 10, as_bytes=True)) == [[b"ACGTTTGA", b"GGCA", b"A"]]
    bad = tmp_path / "bad.fa"
    bad.write_text("ACGT\n>a\nAC\n")
    with pytest.raises(ValueError, match="bad.fa:1: sequence data before the first"):
        list(Fasta(bad))


@pytest.mark.parametrize("chunk_size", [1, 4, 7, 100])
def test_ragged_arrays_round_trip(tmp_path, chunk_size):
    rng = np.random.default_rng(0)
    series = [rng.normal(size=(int(n), 2)) for n in rng.integers(1, 30, 17)]
    labels = np.arange(17) % 3
    save_ragged(tmp_path / "ts", series, labels)
    reader = RaggedArrays(tmp_path / "ts", chunk_size)
    assert len(reader) == 17
    chunks = list(reader)
    assert all(len(X) <= chunk_size for X, _ in chunks)
    back = [s for X, _ in chunks for s in X]
    assert all(np.array_equal(a, b) for a, b in zip(back, series)) and len(back) == 17
    np.testing.assert_array_equal(np.concatenate([y for _, y in chunks]), labels)
    rws = pyd2ke.RandomWarpingSeries(8, random_state=0).fit(series)
    model = fit_streamed(rws, SGDClassifier(random_state=0), reader, classes=[0, 1, 2], epochs=2)
    assert model.predict(series[:3]).shape == (3,)
    with pytest.raises(ValueError, match="labels has 5 entries for 17 objects"):
        save_ragged(tmp_path / "bad", series, labels[:5])
    with pytest.raises(ValueError, match="objects is empty"):
        save_ragged(tmp_path / "bad", [])
    with pytest.raises(ValueError, match=r"objects\[1\] has shape \(3, 3\)"):
        save_ragged(tmp_path / "bad", [np.zeros((2, 2)), np.zeros((3, 3))])


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads resident memory from /proc")
def test_soak_resident_memory_stays_flat():
    """A reduced soak (benchmarks/soak.py runs 10^7 objects): 300,000 strings
    through a fitted RSE, chunk by chunk; resident memory after warm-up grows
    by less than 20 MB."""
    rng = np.random.default_rng(0)
    alphabet = np.frombuffer(b"ACGT", dtype=np.uint8)
    rse = pyd2ke.RandomStringEmbedding(64, sampler="rf", random_state=0).fit(["ACGTACGTAC", "GATTACA"])
    def chunk():
        codes = alphabet[rng.integers(0, 4, size=(5000, 40))]
        return [row.tobytes().decode("ascii") for row in codes]
    for _ in range(5):
        rse.transform(chunk())  # warm-up: allocator pools, thread pools
    before = _rss_bytes()
    for _ in range(60):
        rse.transform(chunk())
    assert _rss_bytes() - before < 20 * 2**20


@pytest.mark.parametrize("as_bytes", [False, True])
def test_lines_leaves_out_a_byte_order_mark(tmp_path, as_bytes):
    path = tmp_path / "excel.tsv"
    path.write_text("0\tACGT\r\n1\tGGCA\r\n", encoding="utf-8-sig")  # as Excel saves UTF-8
    (strings, labels), = list(Lines(path, label_separator="\t", as_bytes=as_bytes))
    assert labels == ["0", "1"]
    assert strings == ([b"ACGT", b"GGCA"] if as_bytes else ["ACGT", "GGCA"])


def test_save_ragged_refuses_labels_it_could_not_map_again(tmp_path):
    sets = [np.ones((2, 3)), np.zeros((1, 3))]
    with pytest.raises(TypeError, match="labels must be numbers or strings of one type"):
        save_ragged(tmp_path / "p", sets, labels=np.array(["a", 1], dtype=object))
    save_ragged(tmp_path / "p", sets, labels=["a", "b"])
    assert [list(labels) for _, labels in RaggedArrays(tmp_path / "p")] == [["a", "b"]]


def test_an_error_names_the_chunk_and_the_item_in_it():
    rng = np.random.default_rng(0)
    sets = [rng.normal(size=(3, 3)) for _ in range(400)]
    sets[250][0, 1] = np.nan
    y = rng.integers(0, 2, 400)
    fitted = pyd2ke.RandomSetEmbedding(8, random_state=0).fit(sets[:10])
    # Pieces of 100 sets: the bad one is item 50 of its piece, 250 of chunk 1.
    with pytest.raises(ValueError, match=r"^chunk 1: X\[250\] contains NaN"):
        fit_streamed(fitted, SGDClassifier(), [(sets[:100], y[:100]), (sets, y)], classes=[0, 1],
                     memory_budget=100 * 8 * 8 * 4, batch_size=100)
    with pytest.raises(ValueError, match=r"^chunk 1: X\[250\] contains NaN"):  # fitting on the first chunk with objects
        fit_streamed(pyd2ke.RandomSetEmbedding(8, random_state=0), SGDClassifier(), [([], []), (sets, y)],
                     classes=[0, 1])


def test_a_transformer_fitted_on_a_tiny_first_chunk_warns():
    rng = np.random.default_rng(0)
    sets = [rng.normal(size=(3, 3)) for _ in range(60)]
    y = np.arange(60) % 2
    with pytest.warns(UserWarning, match="fitted on the first chunk with objects, 2 of them"):
        fit_streamed(pyd2ke.RandomSetEmbedding(8, random_state=0), SGDClassifier(), [(sets[:2], y[:2]), (sets, y)],
                     classes=[0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit_streamed(pyd2ke.RandomSetEmbedding(8, random_state=0), SGDClassifier(), [(sets, y)], classes=[0, 1])


@pytest.mark.parametrize("module", ["gzip", "bz2", "lzma"])
def test_readers_read_compressed_files(tmp_path, module):
    """A trial: a gzipped file was read as text and failed with "not valid
    utf-8", an advice that led nowhere."""
    import importlib

    opener = importlib.import_module(module)
    lines = "0\tACGT\n1\tGGCA\n\n1\tTTAÄ\n"
    path = tmp_path / "train.tsv.any"  # the format is known by its first bytes, not by its name
    with opener.open(path, "wt", encoding="utf-8") as f:
        f.write(lines)
    plain = tmp_path / "plain.tsv"
    plain.write_text(lines, encoding="utf-8")
    for as_bytes in (False, True):
        assert list(Lines(path, 2, label_separator="\t", as_bytes=as_bytes)) == \
            list(Lines(plain, 2, label_separator="\t", as_bytes=as_bytes))
    fasta = tmp_path / "seqs.fa.z"
    with opener.open(fasta, "wt", encoding="utf-8") as f:
        f.write(">a one\nACG\nT\n>b\nGG\n")
    assert list(Fasta(fasta, with_headers=True)) == [(["ACGT", "GG"], ["a one", "b"])]


def test_a_reader_refuses_an_open_file_saying_why(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("ACGT\n")
    with open(path) as f, pytest.raises(TypeError, match="path must be a file's path .* got TextIOWrapper"):
        Lines(f)


def test_ragged_arrays_refuse_corrupt_offsets(tmp_path):
    """A fuzzing trial: offsets [0, 10**12, 5] or [0, -5, 3] were read without
    a word, as objects of the wrong sizes."""
    sets = [np.ones((12, 1)), np.zeros((9, 1)), np.ones((15, 1))]
    save_ragged(tmp_path / "p", sets, labels=[0, 1, 0])
    assert [len(o) for o in next(iter(RaggedArrays(tmp_path / "p")))[0]] == [12, 9, 15]
    for bad, message in [([0, 10**12, 5, 36], "decreases at object 1"), ([0, -5, 3, 36], "decreases at object 0"),
                         ([0, 12, 21, 40], "must run from 0 to the 36 rows"), ([0, 12, 36], "has 3 labels for the 2")]:
        np.save(tmp_path / "p.offsets.npy", np.array(bad, dtype=np.int64))
        with pytest.raises(ValueError, match=message):
            list(RaggedArrays(tmp_path / "p"))
