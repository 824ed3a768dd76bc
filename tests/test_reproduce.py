"""The report commands (reproduce, scaling), the progress display and the
transformers' verbose output. Kept small: CI runs them on every push."""

import io

import numpy as np
import pytest

import pyd2ke
from pyd2ke import RandomStringEmbedding
from pyd2ke.__main__ import main
from pyd2ke.reports import scaling as _scaling
from pyd2ke.reports.progress import Progress
from pyd2ke.reports.reproduce import COLUMNS
from pyd2ke.reports.scaling import METHODS, loglog_slope, markdown_table, measure, plot, random_strings, sweeps


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
        accuracy = float(row.split("|")[3])
        assert 0.0 <= accuracy <= 1.0


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
    table = markdown_table(rows)
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
