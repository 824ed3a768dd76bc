"""The report commands (the main job, reproduce, scaling) and what they share
(exact-distance baselines, provenance lines, the progress display), and the
transformers' verbose output. Kept small: CI runs them on every push."""

import importlib.util
import io

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

import pyd2ke
from pyd2ke import RandomStringEmbedding
from pyd2ke.__main__ import main
from pyd2ke.reports import scaling as _scaling
from pyd2ke.reports import data
from pyd2ke.reports.baselines import distance_substitution_svc, knn_baseline, nearest_neighbour_accuracy
from pyd2ke.reports.progress import Progress
from pyd2ke.reports.provenance import header_lines
from pyd2ke.reports import reproduce
from pyd2ke.reports.peers import BagOfVisualWords, PositionOneHot, equal_lengths, kmer_spectrum
from pyd2ke.reports.reproduce_protocol import QUICK
from pyd2ke.reports.reproduce_render import COLUMNS, results_table
from pyd2ke.reports.reproduce_runner import LinearSVM, cv_linear_svm, edge_warnings
from pyd2ke.reports.scaling import METHODS, loglog_slope, measure, plot, random_strings, slopes_table, sweeps
from pyd2ke.reports.tables import cell, markdown_table


def test_reproduce_quick_one_task_writes_table(tmp_path, capsys):
    argv = ["reproduce", "--quick", "--task", "timeseries", "--n-jobs", "1", "--out", str(tmp_path)]
    assert main(argv) == 0
    text = (tmp_path / "results.md").read_text()
    assert text == capsys.readouterr().out  # the file holds exactly what was printed
    assert "Command: `python -m pyd2ke reproduce --quick --task timeseries --n-jobs 1 --out" in text
    assert "Versions: pyd2ke " in text and "scikit-learn" in text
    header = next(line for line in text.splitlines() if line.startswith("| dataset"))
    assert [c.strip() for c in header.strip("|").split("|")] == COLUMNS
    rows = [line for line in text.splitlines() if line.startswith("| JapaneseVowels")]
    methods = [row.split("|")[2].strip() for row in rows]
    assert any(m.startswith("RWS") for m in methods)
    assert any(m.startswith("RSM") for m in methods)
    assert any(m.startswith("k-NN") for m in methods)
    for row in rows:
        if "WARNING" not in row:  # warning rows (CV at a grid's edge) have no accuracy
            accuracy = float(row.split("|")[3])
            assert 0.0 <= accuracy <= 1.0


def test_reproduce_quick_strings_has_every_variant_and_baseline(tmp_path, monkeypatch):
    # The quick grids, shrunk further so that the whole strings task runs in seconds.
    for key, value in {"max_train": 90, "max_test": 60, "R": {**QUICK["R"], "strings": 32},
                       "rsm_R": [16, 32], "rf_lengths": [10], "sfm_search_D": 32, "sfm_D": 64,
                       "sweep": [8, 32], "kmer_k": [2, 3]}.items():
        monkeypatch.setitem(QUICK, key, value)
    rows = reproduce.run(["strings"], quick=True, n_jobs=1, out=tmp_path, stream=io.StringIO())
    text = (tmp_path / "results.md").read_text()
    dna = [r["method"] for r in rows if r["dataset"] == "StatLog DNA" and r["kind"] != "warning"]
    for sampler in ("rf", "rfd", "ss", "bss"):
        for kernel in ("SF", "DF"):
            assert f"RSE (R=32, {sampler}), {kernel}" in dna
    for prefix in ("SFMEDM", "SFMCGK", "RSM (R=", "k-NN, exact Levenshtein", "exp(-gamma Levenshtein) kernel + SVC",
                   "DSK_RBF: exp(-gamma Levenshtein^2) + SVC", "exact ESP kernel", "exact CGK kernel",
                   "k-mer spectrum + LinearSVC (peer)", "one-hot per position + LinearSVC (peer)"):
        assert any(m.startswith(prefix) for m in dna), prefix
    # Chain codes have unequal lengths: the one-hot peer is a row saying why it did not run.
    chain = {r["method"]: r for r in rows if r["dataset"] == "digit chain codes"}
    assert chain["one-hot per position (peer)"]["accuracy"] is None
    # The papers' numbers sit beside ours on DNA (the splice data set).
    paper = {r["method"]: r["paper"] for r in rows if r["dataset"] == "StatLog DNA"}
    assert paper["RSE (R=32, bss), SF"] == "90.17 (RSE T2)" and paper["k-NN, exact Levenshtein"].startswith("79.41")
    # The R sweep: a table in the report, a plot next to it.
    swept = [r for r in rows if r.get("sweep")]
    # Random strings up to R; RSM up to all 90 training strings.
    assert swept and all(set(r["sweep"]) == ({8, 32, 90} if r["kind"] == "rsm" else {8, 32}) for r in swept)
    assert "| dataset | method | R=8 | R=32 | R=90 |" in text
    rse = next(r for r in swept if r["method"] == "RSE (R=32, rf), SF")
    assert rse["sweep"][32] == rse["accuracy"]  # the last point is the row's own model
    if importlib.util.find_spec("matplotlib"):
        assert (tmp_path / "r_sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for r in rows:
        assert r["accuracy"] is None or 0.0 <= r["accuracy"] <= 1.0


def test_edge_warning_fires_at_the_ends_of_a_grid_only():
    grids = {"C": [0.1, 1.0, 10.0], "gamma factor": [0.25, 1.0, 4.0], "R": [32, 64, 128], "k": [1, 5]}
    rows = edge_warnings("data", "method", {"C": 10.0, "gamma factor": 1.0, "R": 128, "k": 5}, grids,
                         bounds={("R", 128)})
    # C at the top of its grid warns; gamma inside does not; R=128 is a declared
    # bound (the protocol's cap); a two-value grid has no inside to judge.
    assert len(rows) == 1
    assert rows[0]["method"] == "WARNING: method" and rows[0]["kind"] == "warning"
    assert "C=10, the highest value" in rows[0]["note"]
    assert "gamma factor=0.25, the lowest" in edge_warnings("d", "m", {"gamma factor": 0.25}, grids)[0]["note"]
    table = results_table(rows)
    assert "| data | WARNING: method |  |" in table


def test_every_report_table_comes_from_one_renderer():
    assert markdown_table(["a", "b"], [["x", cell(0.5, ".2f")], [1, cell(None, ".2f", missing="-")]]) == (
        "| a | b |\n|---|---|\n| x | 0.50 |\n| 1 | - |")
    assert markdown_table(COLUMNS, []) == results_table([])


def test_linear_svm_through_its_kernel_matrix_separates_linear_classes():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((120, 20))
    y = (Z[:, 0] + 0.5 * Z[:, 1] > 0).astype(int)
    score, C, tried = cv_linear_svm(Z, y, [0.1, 10.0])
    assert C in (0.1, 10.0) and score > 0.8 and tried == [0.1, 10.0]
    Z_test = rng.standard_normal((80, 20))
    assert LinearSVM(C).fit(Z, y).score(Z_test, (Z_test[:, 0] + 0.5 * Z_test[:, 1] > 0).astype(int)) > 0.85


def test_dsk_rbf_uses_squared_distances():
    x_train, y_train = _points_and_labels(60, seed=0)
    x_test, y_test = _points_and_labels(40, seed=1)
    D_train = np.abs(x_train[:, None] - x_train[None, :])
    D_test = np.abs(x_test[:, None] - x_train[None, :])
    median_sq = np.median((D_train**2)[np.triu_indices(60, 1)])
    result = distance_substitution_svc(D_train, y_train, D_test, y_test, [0.5, 2.0], [1.0],
                                       StratifiedKFold(3, shuffle=True, random_state=0), power=2)
    assert result.chosen["gamma"] == pytest.approx(result.chosen["factor"] / median_sq)
    # A fixed scale (the SFM paper's absolute beta grid) replaces the median.
    fixed = distance_substitution_svc(D_train, y_train, D_test, y_test, [0.5], [1.0],
                                      StratifiedKFold(3, shuffle=True, random_state=0), scale=1.0)
    assert fixed.chosen["gamma"] == 0.5


def test_peer_transformers():
    X = ["ACGTAC", "GGGTTT", "ACGAAA"]
    counts = kmer_spectrum(2).fit(X + ["CATG"]).transform(["ACAC"]).toarray()
    assert np.linalg.norm(counts) == pytest.approx(1.0)  # AC twice, CA once: (2, 1) / sqrt(5)
    np.testing.assert_allclose(np.sort(counts[counts > 0]), [1 / np.sqrt(5), 2 / np.sqrt(5)])
    onehot = PositionOneHot().fit(X)
    assert onehot.transform(["ACGTAC"]).sum() == 6 and onehot.transform(["TTTTTT"]).sum() < 6
    assert equal_lengths(X) and not equal_lengths(X + ["A"])
    with pytest.raises(ValueError, match="one length"):
        PositionOneHot().fit(X + ["A"])
    rng = np.random.default_rng(0)
    sets = [rng.standard_normal((n, 4)) for n in (3, 7, 1, 5)]
    H = BagOfVisualWords(4, random_state=0).fit(sets).transform(sets)
    assert H.shape == (4, 4)
    np.testing.assert_allclose(np.linalg.norm(H, axis=1), 1.0)


def test_main_job_prints_the_embedding_and_its_baseline(capsys):
    assert main(["--task", "timeseries", "--n-components", "16", "--n-jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("pyd2ke ") and "SIMD" in lines[0]
    assert lines[1].startswith("JapaneseVowels: 270 training and 370 test recordings")
    assert lines[2].startswith("Random Warping Series (RWS) describes each series by 16 numbers")
    header = next(i for i, line in enumerate(lines) if line.startswith("method"))
    assert lines[header].split() == ["method", "accuracy", "fit", "s", "predict", "s"]
    rws, one_nn, verdict = lines[header + 1:header + 4]
    assert rws.startswith("RWS (16 random series) + linear SVM")
    assert one_nn.startswith("exact 1-NN, DTW")
    assert float(one_nn.split()[-3]) == pytest.approx(0.9324, abs=1e-4)  # exact: no randomness
    assert verdict.startswith("On this task RWS ")


def _points_and_labels(n, seed):
    """Two overlapping 1-D classes and their exact distance matrix."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    x = rng.standard_normal(n) + 1.5 * y
    return x, y


def test_nearest_neighbour_accuracy_takes_the_first_nearest_on_ties():
    D_test = np.array([[1.0, 1.0, 2.0], [3.0, 0.5, 0.5], [0.0, 4.0, 4.0]])
    # Nearest: training object 0, 1 and 0; their labels a, b, a.
    assert nearest_neighbour_accuracy(D_test, ["a", "b", "b"], ["a", "b", "b"]) == pytest.approx(2 / 3)
    assert nearest_neighbour_accuracy(D_test, ["a", "b", "b"], ["a", "b", "a"]) == 1.0


def test_knn_baseline_chooses_k_as_cross_validation_does():
    x_train, y_train = _points_and_labels(60, seed=0)
    x_test, y_test = _points_and_labels(40, seed=1)
    D_train = np.abs(x_train[:, None] - x_train[None, :])
    D_test = np.abs(x_test[:, None] - x_train[None, :])
    ks, cv = [1, 3, 5, 9, 15], StratifiedKFold(5, shuffle=True, random_state=0)
    result = knn_baseline(D_train, y_train, D_test, y_test, ks, cv)
    # The same choice as scoring every k by cross-validation, the first best one on ties.
    scores = [cross_val_score(KNeighborsClassifier(k, metric="precomputed"), D_train, y_train, cv=cv).mean()
              for k in ks]
    k = ks[int(np.argmax(scores))]
    assert result.chosen == {"k": k}
    expected = KNeighborsClassifier(k, metric="precomputed").fit(D_train, y_train).score(D_test, y_test)
    assert result.accuracy == expected
    assert min(result.search_seconds, result.fit_seconds, result.predict_seconds) >= 0


def test_distance_substitution_svc_chooses_gamma_and_c_from_the_grids():
    x_train, y_train = _points_and_labels(60, seed=0)
    x_test, y_test = _points_and_labels(40, seed=1)
    D_train = np.abs(x_train[:, None] - x_train[None, :])
    D_test = np.abs(x_test[:, None] - x_train[None, :])
    median = np.median(D_train[np.triu_indices(60, 1)])
    result = distance_substitution_svc(D_train, y_train, D_test, y_test, [0.5, 2.0], [1.0, 10.0],
                                       StratifiedKFold(3, shuffle=True, random_state=0))
    assert result.chosen["C"] in (1.0, 10.0)
    assert any(result.chosen["gamma"] == pytest.approx(f / median) for f in (0.5, 2.0))
    assert 0.5 < result.accuracy <= 1.0  # the classes overlap, but not entirely


def test_header_lines_name_the_command():
    command, date, versions = header_lines("scaling", ["--quick", "--out", "my dir"])
    assert command == "Command: `python -m pyd2ke scaling --quick --out 'my dir'`"
    assert date.startswith("Date: 20") and versions.startswith("Versions: pyd2ke ")
    assert header_lines("reproduce", None)[0] == "Command: (called from Python)"


def test_synthetic_data_is_fixed_by_the_arguments():
    strings = data.random_strings(4, 7, seed=3, alphabet=b"ACGT")
    assert strings == data.random_strings(4, 7, seed=3, alphabet=b"ACGT") != data.random_strings(4, 7, seed=4)
    assert [len(s) for s in strings] == [7] * 4 and set("".join(strings)) <= set("ACGT")
    series = data.random_series(3, 5, channels=2, dtype=np.float32)
    assert [(x.shape, x.dtype) for x in series] == [((5, 2), np.float32)] * 3
    sets = data.random_sets(2, 4, dim=8)
    assert [x.shape for x in sets] == [(4, 8)] * 2
    np.testing.assert_allclose(np.linalg.norm(np.concatenate(sets), axis=1), 1.0)
    (vectors, weights), = data.random_documents(1, 6, dim=3)
    assert vectors.shape == (6, 3) and weights.shape == (6,) and weights.min() >= 0.1
    assert data.random_vectors(5, 16, seed=1).shape == (5, 16)
    np.testing.assert_array_equal(data.random_vectors(5, 16, seed=1), data.random_vectors(5, 16, seed=1))


def test_loglog_slope_on_synthetic_times():
    sizes = [1e3, 1e4, 1e5]
    assert loglog_slope(sizes, [2e-6 * n for n in sizes]) == pytest.approx(1.0)
    assert loglog_slope(sizes, [3e-9 * n**2 for n in sizes]) == pytest.approx(2.0)
    # A per-object constant flattens the fitted slope below 1.
    assert loglog_slope(sizes, [0.05 + 1e-6 * n for n in sizes]) < 0.9


def test_scaling_measure_table_and_plot(tmp_path):
    times = measure("RSE", [20, 40], lambda n: random_strings(n, 16), n_jobs=1)
    assert len(times) == 2 and all(t > 0 for t in times)
    rows = [{"method": "RSE", "sweep": sweep, "fixed": "L=16", "sizes": [1000, 10000, 100000],
             "times": [0.05, 0.5, 5.0], "slope": 1.0, "upper_slope": 1.0} for sweep in ("N", "L")]
    table = slopes_table(rows)
    assert "| RSE | N | L=16 | 1000, 10000, 100000 | 0.05, 0.5, 5 | 1.000 | 1.000 |" in table
    pytest.importorskip("matplotlib")
    plot(rows, "N", tmp_path / "scaling_N.png")
    assert (tmp_path / "scaling_N.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_scaling_fits_one_model_per_sweep_and_alternates_the_order(monkeypatch):
    calls = []

    class Recording(RandomStringEmbedding):
        def fit(self, X, y=None):
            calls.append(("fit", len(X[0])))
            return super().fit(X, y)

        def transform(self, X):
            calls.append(("transform", len(X[0])))
            return super().transform(X)

    monkeypatch.setattr(_scaling, "_models", lambda: {"RSE": Recording})
    make = lambda length: random_strings(30, length)  # noqa: E731
    measure("RSE", [8, 16, 32], make, n_jobs=1, rounds=3)
    assert calls == [("fit", 8)] + [("transform", n) for n in (8, 16, 32, 32, 16, 8, 8, 16, 32)]
    calls.clear()
    measure("RSE", [8, 16], make, n_jobs=1, rounds=1, refit=True)
    assert calls == [("fit", 8), ("fit", 16), ("transform", 8), ("transform", 16)]
    # Refitted at each L only where the fitted shape follows L.
    refit = {method: [sweep[4] for sweep in sweeps(method, quick=True)] for method in METHODS}
    assert {m for m, (in_n, in_l) in refit.items() if in_l} == {"SFMCGK", "RandomMaclaurin"}
    assert not any(in_n for in_n, _ in refit.values())


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal():
    pipe = io.StringIO()
    progress = Progress("strings", 2, stream=pipe)
    progress.step("a")
    progress.close()
    assert pipe.getvalue() == ""

    tty = _Terminal()
    progress = Progress("strings", 2, stream=tty)
    progress.step("first")
    progress.step("second")
    progress.close()
    out = tty.getvalue()
    assert out.startswith("\rstrings") and out.endswith("\n") and "2/2" in out and "second" in out


def test_verbose_reports_progress_per_chunk(capsys):
    X = ["ACGTACGT", "GGCA", "TTTAC", "ACG", "CATCAT"]
    quiet = RandomStringEmbedding(8, random_state=0).fit(X)
    Z = quiet.transform(X)
    assert capsys.readouterr().err == ""
    loud = RandomStringEmbedding(8, random_state=0, verbose=1).fit(X)
    with pyd2ke.chunking(max_items=2):  # three chunks for five strings
        np.testing.assert_array_equal(loud.transform(X), Z)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("RandomStringEmbedding.transform: 2/5 objects")
    assert lines[-1].startswith("RandomStringEmbedding.transform: 5/5 objects (100%)")
    assert loud.get_params()["verbose"] == 1


def test_the_graphs_task_warns_of_choices_at_a_grid_end(monkeypatch):
    from pyd2ke.reports import graphs as graph_report
    from pyd2ke.reports import reproduce_runner

    fake = [{"method": "GraKeL shortest-path + SVC (precomputed)", "accuracy": 0.8, "std": 0.1, "seconds": 1.0,
             "chosen": "", "accuracies": [0.8, 0.8], "fold_choices": [{"C": 100.0}, {"C": 100.0}],
             "grids": {"C": graph_report.KERNEL_SVC_C}},
            {"method": "RandomGraphEmbedding (R=8, anchor) + LinearSVC", "accuracy": 0.8, "std": 0.1,
             "seconds": 1.0, "chosen": "", "accuracies": [0.8], "grids": graph_report.RGE_GRIDS,
             "fold_choices": [{"label_scale": 0.5, "gamma_factor": 1.0, "C": 0.01}]}]
    monkeypatch.setattr(graph_report, "mutag_rows", lambda *a, **k: fake)
    ((_, rows),) = reproduce_runner.task_graphs(QUICK, 1)
    rows = rows()
    warnings = [r for r in rows if r["kind"] == "warning"]
    assert len(rows) == 3 and len(warnings) == 1  # one per parameter at an edge, however many folds
    assert warnings[0]["method"] == "WARNING: GraKeL shortest-path + SVC (precomputed)"
    assert "CV chose C=100, the highest value of its grid" in warnings[0]["note"]


def test_defaults_runs_the_string_maps_only_with_the_strings_task(monkeypatch):
    from pyd2ke.reports import defaults_panel

    calls = []
    monkeypatch.setattr(defaults_panel, "run", lambda *a, **k: calls.append(k["sfm"]))
    for task, expected in ((["graphs"], False), (["strings", "graphs"], True), (None, True)):
        args = type("Args", (), {"task": task, "quick": True, "n_jobs": 1, "out": None})()
        defaults_panel.main(args, [])
        assert calls[-1] is expected
