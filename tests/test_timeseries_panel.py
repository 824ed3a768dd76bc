"""The time-series panel report (pyd2ke.reports.timeseries_panel) on tiny
data. Its library parts (RWS rows, 1-NN DTW, the table and the gaps) run
without aeon; the MiniRocket rows and the aeon datasets only when aeon is
installed."""

import io

import numpy as np
import pytest

from pyd2ke.reports import timeseries_panel as panel


def _tiny(name, n_train=12, n_test=10):
    """Two classes of variable-length 2-channel series: a sine or a ramp."""
    rng = np.random.default_rng(len(name))

    def make(n):
        X, y = [], np.arange(n) % 2
        for label in y:
            t = np.linspace(0, 1, rng.integers(20, 30))
            shape = np.sin(6 * t) if label else t
            X.append(np.column_stack([shape, -shape]) + 0.1 * rng.standard_normal((len(t), 2)))
        return panel.znormalize(X), y

    return (*make(n_train), *make(n_test))


def test_panel_runs_without_aeon_parts(monkeypatch):
    monkeypatch.setattr(panel, "have_aeon", lambda: False)
    out = io.StringIO()
    rows = panel.run(["tiny-a", "tiny-b"], quick=True, loader=_tiny, stream=out)
    text = out.getvalue()
    assert [r["dataset"] for r in rows] == ["tiny-a", "tiny-b"]
    header = next(line for line in text.splitlines() if line.startswith("| dataset"))
    assert [c.strip() for c in header.strip("|").split("|")] == panel.COLUMNS
    assert text.count("aeon not installed") == 3  # the compile line and two MiniRocket cells
    for r in rows:
        for key in ("start", "final", "dtw"):
            assert 0.0 <= r[key]["accuracy"] <= 1.0
        assert r["final"]["chosen"] == "derivative=True, max_length=10 (fixed: a one-setting grid, no search)"
        assert r["shape"].startswith("12/10, 2") and r["shape"].endswith(", 2")  # lengths 20-29, 2 channels
    assert "Mean accuracy over 2 datasets" in text and "RWS final below 1-NN DTW on:" in text
    # Sines against ramps: every method separates them.
    assert all(r["dtw"]["accuracy"] == 1.0 for r in rows)


def test_panel_rows_are_deterministic(monkeypatch):
    monkeypatch.setattr(panel, "have_aeon", lambda: False)
    first = panel.run(["tiny"], quick=True, loader=_tiny, stream=io.StringIO())[0]
    second = panel.run(["tiny"], quick=True, loader=_tiny, stream=io.StringIO(), n_jobs=2)[0]
    for key in ("start", "final", "dtw"):
        assert first[key]["accuracy"] == second[key]["accuracy"]


def test_subsample_keeps_every_class_and_the_paired_lists():
    y = np.array([0] * 10 + [1] * 3 + [2] * 2)
    X = [np.full((3, 1), i, dtype=float) for i in range(len(y))]
    X_sub, y_sub, paired = panel._subsample(X, y, 6, 0, list(range(len(y))))
    assert len(y_sub) == 6 and set(y_sub) == {0, 1, 2}
    assert [int(x[0, 0]) for x in X_sub] == paired and list(y[paired]) == list(y_sub)


def test_summary_gaps():
    def row(start, final, dtw, mr):
        timing = {"fit": 1.0, "predict": 1.0}
        return {"start": {"accuracy": start, **timing}, "final": {"accuracy": final, **timing},
                "dtw": {"accuracy": dtw}, "minirocket": {"accuracy": mr, **timing}, "dataset": "d"}

    lines = panel.summary_lines([row(0.6, 0.8, 0.7, 0.9), row(0.8, 0.85, 0.9, 0.9)])
    assert "Mean gap to MiniRocket: start 0.200, final 0.075 (final / start = 0.38)" in lines
    assert lines[-1] == "RWS final below 1-NN DTW on: d (0.850 < 0.900)"


def test_cli_without_aeon_says_how_to_install(monkeypatch, capsys):
    from pyd2ke.__main__ import main

    monkeypatch.setattr(panel, "have_aeon", lambda: False)
    assert main(["timeseries", "--quick"]) == 2
    assert "pip install 'pyd2ke[timeseries-compare]'" in capsys.readouterr().err


def test_panel_quick_on_an_aeon_dataset(tmp_path):
    pytest.importorskip("aeon", reason="aeon is the comparison extra: pip install '.[timeseries-compare]'")
    from pyd2ke.__main__ import main

    argv = ["timeseries", "--quick", "--dataset", "UnitTest", "--n-jobs", "1", "--out", str(tmp_path)]
    assert main(argv) == 0
    text = (tmp_path / "results_timeseries.md").read_text()
    assert "Command: `python -m pyd2ke timeseries --quick --dataset UnitTest" in text and "aeon " in text
    row = next(line for line in text.splitlines() if line.startswith("| UnitTest"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert all(0.0 <= float(c) <= 1.0 for c in cells[2:6])


def test_final_grid_grows_max_length_past_the_end_cv_picked(monkeypatch):
    # A CV score that rises with max_length: the grid [2, 4] doubles past its
    # top, to 8 and 16, until 32 would pass the longest training series.
    current = {}
    real = panel.RandomWarpingSeries

    def recording(*args, **kwargs):
        current["max_length"] = kwargs["max_length"]
        return real(*args, **kwargs)

    monkeypatch.setattr(panel, "RandomWarpingSeries", recording)
    monkeypatch.setattr(panel, "cross_val_score", lambda *args, **kwargs: np.array([current["max_length"]]))
    data = _tiny("grow")
    assert 16 <= max(len(s) for s in data[0]) < 32
    grown = panel.rws_result(data, {"max_length": [2, 4]}, {}, 8, 1, 1, grow_lengths=True)
    assert grown["chosen"] == "max_length=16"
    assert panel.rws_result(data, {"max_length": [2, 4]}, {}, 8, 1, 1)["chosen"] == "max_length=4"
