"""pyd2ke.show_config() and the command line around it: `pyd2ke info`,
`--version`, the help texts and the message from the source folder."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy
import sklearn

import pyd2ke
from pyd2ke.__main__ import main

LEVELS = ["scalar", "sse2", "avx2", "avx512"]
PACKAGE = Path(pyd2ke.__file__).parent


def test_show_config_dicts_fields():
    report = pyd2ke.show_config(mode="dicts")
    core = report["core"]
    assert report["pyd2ke"]["version"] == pyd2ke.__version__
    # The level in use is compiled in and runs on this CPU; the compiled
    # levels are in order, start at the portable build, and include every
    # level the CPU runs.
    assert core["simd_compiled"][0] == "scalar"
    assert core["simd_compiled"] == sorted(core["simd_compiled"], key=LEVELS.index)
    assert core["simd_in_use"] in core["simd_compiled"]
    assert core["simd_in_use"] in core["simd_cpu_runs"]
    assert set(core["simd_cpu_runs"]) <= set(core["simd_compiled"])
    assert core["simd_in_use"] == core["simd_cpu_runs"][-1]  # the best one the CPU runs
    assert isinstance(core["openmp"], bool) and core["openmp_threads"] >= 1
    if not core["openmp"]:
        assert core["openmp_threads"] == 1
    assert core["compiler"] and core["compiler"] != "unknown"
    assert report["dependencies"]["numpy"] == np.__version__
    assert report["dependencies"]["scipy"] == scipy.__version__
    assert report["dependencies"]["scikit-learn"] == sklearn.__version__
    assert report["python"]["version"] == ".".join(map(str, sys.version_info[:3]))
    # numpy's BLAS is loaded by then; threadpoolctl sees it with its threads.
    assert report["blas"] and all(pool["num_threads"] >= 1 for pool in report["blas"])


def test_build_info_matches_show_config():
    info, core = pyd2ke.build_info(), pyd2ke.show_config(mode="dicts")["core"]
    assert info["simd"] == core["simd_in_use"]
    assert info["simd_compiled"] == core["simd_compiled"]
    assert info["simd_levels"] == core["simd_cpu_runs"]


def test_show_config_prints_and_info_prints_the_same(capsys):
    assert pyd2ke.show_config() is None
    printed = capsys.readouterr().out
    core = pyd2ke.show_config(mode="dicts")["core"]
    assert printed.startswith(f"pyd2ke {pyd2ke.__version__} (")
    assert f"SIMD level in use:  {core['simd_in_use']}\n" in printed
    assert f"SIMD compiled in:   {', '.join(core['simd_compiled'])}\n" in printed
    assert f"compiler:           {core['compiler']}\n" in printed
    assert f"numpy {np.__version__}\n" in printed and f"scikit-learn {sklearn.__version__}\n" in printed
    assert main(["info"]) == 0
    assert capsys.readouterr().out == printed


def test_show_config_bad_mode():
    with pytest.raises(ValueError, match="mode must be 'stdout' or 'dicts'"):
        pyd2ke.show_config(mode="json")


def test_version_flag(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"pyd2ke {pyd2ke.__version__}\n"


def test_help_is_whole_and_names_the_command(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/usr/bin/pyd2ke"])
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert text.startswith("usage: pyd2ke ")
    assert "python -m pyd2ke" not in text
    # The description is whole sentences, and every subcommand is listed.
    description = text.split("\n\n")[1]
    assert description.rstrip().endswith("the method is the faster.")
    for subcommand in ("reproduce", "scaling", "info"):
        assert f"  {subcommand}  " in text
    monkeypatch.setattr(sys, "argv", [str(PACKAGE / "__main__.py")])
    with pytest.raises(SystemExit):
        main(["reproduce", "--help"])
    text = capsys.readouterr().out
    assert text.startswith("usage: python -m pyd2ke reproduce")
    assert "minutes" not in text  # --quick promises no duration


def test_source_folder_gives_one_clear_message(tmp_path):
    # A package folder without the compiled core, as the repository root
    # shows it to `python -m pyd2ke`.
    source = tmp_path / "pyd2ke"
    source.mkdir()
    for name in ("__init__.py", "__main__.py"):
        shutil.copy(PACKAGE / name, source / name)
    result = subprocess.run([sys.executable, "-m", "pyd2ke"], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": ""}, timeout=120)
    assert result.returncode == 1
    assert "compiled core is missing" in result.stderr
    assert "circular import" not in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_exact_knn_predict_matches_scikit_learn():
    from sklearn.neighbors import KNeighborsClassifier

    from pyd2ke.distances import pairwise_distances
    from pyd2ke.reports.data import random_series
    from pyd2ke.reports.tasks import exact_knn_predict

    # Real-valued DTW distances between random series: no ties between neighbours.
    train, test = random_series(60, 9, seed=1), random_series(25, 7, seed=2)
    y = np.arange(60) % 3
    knn = KNeighborsClassifier(5, metric="precomputed").fit(pairwise_distances(train, metric="dtw"), y)
    expected = knn.predict(pairwise_distances(test, train, metric="dtw"))
    # Chunks smaller than the test set give the labels of one block.
    predicted = exact_knn_predict(test, train, y, 5, metric="dtw", chunk=7)
    assert np.array_equal(predicted, expected)
    with pytest.raises(ValueError, match="k must be in"):
        exact_knn_predict(test, train, y, 61)


def test_verdict_says_when_the_method_is_not_the_better_choice():
    from pyd2ke.reports.tasks import verdict

    method = {"method": "WME (8 random documents) + linear SVM", "accuracy": 0.9, "fit": 2.0, "predict": 1.0}
    baseline = {"method": "tf-idf + linear SVM", "accuracy": 0.95, "fit": 0.1, "predict": 0.1}
    assert verdict(method, baseline).startswith("On this task WME is not the better choice: it is less accurate "
                                                "(0.9000 against 0.9500 for tf-idf + linear SVM) and 15.0 times slower")
    assert "wins outright" in verdict({**method, "accuracy": 0.97, "fit": 0.05, "predict": 0.05}, baseline)


def test_sweep_lines_state_only_what_was_measured():
    from pyd2ke.reports.tasks import sweep_lines

    rows = [(1000, 600, 0.10, 0.02), (2000, 1200, 0.20, 0.08), (4000, 2400, 0.40, 0.50), (8000, 4800, 0.80, 2.00)]
    text = "\n".join(sweep_lines(rows, 25, 1024))
    assert "RSE is the faster from N = 4000 training strings on (0.40 s against 0.50 s), and the gap grows" in text
    assert "(k-NN takes 2.5 times as long at N = 8000)" in text
    text = "\n".join(sweep_lines(rows[:2], 25, 1024))
    assert "Exact k-NN stayed the faster up to N = 2000 (0.08 s against 0.20 s for RSE) in this run." in text


def _import_in_a_fresh_process(env, folder):
    code = ("import os, pyd2ke; print(os.environ.get('GOMP_SPINCOUNT')); "
            "print(pyd2ke.show_config(mode='dicts')['core']['openmp_wait'])")
    env = {**{k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")},
           "OMP_DISPLAY_ENV": "VERBOSE", **env}
    # From another folder than the repository's: its pyd2ke/ is the source, without the compiled core.
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=folder, capture_output=True, text=True,
                          check=True)
    # libgomp prints its settings when it is loaded: the core's runtime first.
    spins = [line.split("=")[1].strip(" '") for line in done.stderr.splitlines() if "GOMP_SPINCOUNT =" in line]
    return done.stdout.splitlines(), spins


# GOMP_SPINCOUNT is read by libgomp, the OpenMP runtime of GCC builds only.
_LIBGOMP = pytest.mark.skipif(not (pyd2ke.build_info()["openmp"] and pyd2ke.build_info()["compiler"].startswith("gcc")),
                              reason="the core was built without OpenMP or by a compiler whose runtime is not libgomp")


@_LIBGOMP
def test_the_core_runtime_spins_briefly_and_nothing_else_inherits_it(tmp_path):
    (left, reported), spins = _import_in_a_fresh_process({}, tmp_path)
    assert spins and spins[0] == "3000"
    assert left == "None"  # removed again after the import
    assert reported.startswith("GOMP_SPINCOUNT=3000 (pyd2ke's")


@_LIBGOMP
def test_a_users_openmp_wait_setting_is_kept(tmp_path):
    (left, reported), spins = _import_in_a_fresh_process({"GOMP_SPINCOUNT": "12345"}, tmp_path)
    assert spins and spins[0] == "12345" and left == "12345"
    assert reported == "GOMP_SPINCOUNT=12345 (yours)"


@_LIBGOMP
def test_a_libgomp_loaded_before_pyd2ke_is_reported_as_it_is(tmp_path):
    """A deployment trial: with libgomp already loaded by another library,
    show_config claimed pyd2ke's short spin, which the runtime never read."""
    code = ("import ctypes; ctypes.CDLL('libgomp.so.1', mode=ctypes.RTLD_GLOBAL); import os, pyd2ke; "
            "print(os.environ.get('GOMP_SPINCOUNT')); print(pyd2ke.show_config(mode='dicts')['core']['openmp_wait'])")
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    if done.returncode != 0 and "libgomp.so.1" in done.stderr:
        pytest.skip("no libgomp.so.1 to preload")
    left, reported = done.stdout.splitlines()
    assert left == "None"
    assert reported.startswith("the setting of the libgomp another library loaded before pyd2ke")
