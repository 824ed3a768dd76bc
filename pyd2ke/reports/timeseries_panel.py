"""``python -m pyd2ke timeseries``: Random Warping Series against the time-series
classifiers a user would pick instead, on the UCR/UEA datasets that ship
inside aeon's package data.

Rows per dataset, each on the dataset's official train/test split, all
series z-normalised per series and channel (``pyd2ke.znormalize``):

- RWS as measured at the start of issue 22: random series of lengths
  U{1..max_length} (the default min_length then) and N(0, scale^2) values,
  scale and max_length chosen by cross-validation, float64, whole-series
  features only (``local=0``);
- RWS as recommended now: ``derivative`` (first derivatives as extra
  channels, as in derivative DTW; on or off) and max_length (10 to 400, the
  grid doubling past an end that CV picks) chosen by cross-validation,
  float32 arithmetic, local features as ``local="auto"`` decides (on series
  of 300 steps or more);
- 1-NN with the exact DTW distance (pyd2ke's, no window);
- MiniRocket (aeon's ``MiniRocketClassifier``: its transform,
  StandardScaler and RidgeClassifierCV).

Both RWS rows use the classifier MiniRocket uses (StandardScaler +
RidgeClassifierCV over alphas 1e-3..1e3), so the comparison is between the
features. RWS settings are chosen by repeated stratified 3-fold CV on the
training part only (RWS is unsupervised: each setting is fitted once on the
training part and the ridge is cross-validated on its features); the test
part is scored once.

Variable-length datasets (JapaneseVowels, PickupGestureWiimoteZ) stay
variable-length for RWS and DTW; MiniRocket takes equal lengths only, so it
gets the padded copies aeon ships (``load_equal_length=True``).

Timing: "fit+transform s" is fitting the chosen setting on the training part,
its training features and the classifier fit; "predict s" is the test
features and prediction (for 1-NN DTW: the test x train distance matrix and
the arg-min). MiniRocket's numba functions are compiled once, on tiny one-
and two-channel inputs, before any dataset; that compile time is reported
on its own line (numba caches it on disk: a second run pays little).

aeon is an optional extra of the report (``pip install 'pyd2ke[timeseries-compare]'``);
the library never imports it. Without aeon, ``run`` still works on datasets
given as arrays (the tests do that) and MiniRocket rows say aeon is missing.
"""

import importlib.util
import itertools
import sys
import time

import numpy as np
from sklearn.linear_model import RidgeClassifierCV
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pyd2ke import RandomWarpingSeries, znormalize
from pyd2ke.distances import pairwise_distances

from .baselines import nearest_neighbour_accuracy
from .command import ReportCommand
from .grid import Axis, grow
from .progress import Progress
from .provenance import header_lines, publish, versions
from .tables import cell, markdown_table
from .timing import timed

# The classification problems aeon ships in its package data (aeon 1.x).
DATASETS = ("ACSF1", "ArrowHead", "BasicMotions", "GunPoint", "ItalyPowerDemand", "JapaneseVowels", "OSULeaf",
            "PickupGestureWiimoteZ", "UnitTest")

# RWS settings searched by CV: the grid measured at the start of issue 22
# (float64, whole-series features only), and the recommended one (derivative
# channels, longer random series, float32: about three times faster, see
# RandomWarpingSeries.dtype; local features as local="auto" decides).
START_GRID = {"scale": [0.5, 1.0, 2.0], "max_length": [10, 25, 50]}
FINAL_GRID = {"derivative": [False, True], "max_length": [10, 25, 50, 100, 200, 400]}
START_PARAMS = {"min_length": 1, "derivative": False, "local": 0.0, "standardize": False}  # before issues 22, 28
FINAL_PARAMS = {"dtype": np.float32}
FULL = {"R": 1024, "max_train": None, "max_test": None, "cv_repeats": 2, "grow_lengths": True}
QUICK = {"R": 64, "max_train": 40, "max_test": 40, "cv_repeats": 1, "grow_lengths": False,
         "start_grid": {"scale": [1.0], "max_length": [10]}, "final_grid": {"derivative": [True], "max_length": [10]}}

COLUMNS = ["dataset", "train/test, length, channels", "RWS start", "RWS final", "1-NN DTW", "MiniRocket",
           "RWS final chosen by CV", "RWS final fit+transform s", "RWS final predict s", "RWS final CV search s",
           "1-NN DTW s", "MiniRocket fit s", "MiniRocket predict s"]


def have_aeon():
    return importlib.util.find_spec("aeon") is not None


def _as_steps(X):
    """aeon's cases (channels, length) as float64 arrays (length, channels)."""
    return [np.ascontiguousarray(np.asarray(case, dtype=np.float64).T) for case in X]


def load_aeon(name):
    """(X_train, y_train, X_test, y_test, X_train_eq, X_test_eq) of one dataset
    shipped with aeon, series z-normalised as lists of (length, channels)
    arrays; the *_eq lists are the equal-length copies for MiniRocket (the
    same as X_* when the dataset has equal lengths)."""
    from aeon.datasets import load_classification

    parts = {}
    for split in ("train", "test"):
        X, y = load_classification(name, split=split)
        parts[split] = (znormalize(_as_steps(X)), np.asarray(y))
        if len({len(s) for s in parts[split][0]}) > 1:
            X_eq, y_eq = load_classification(name, split=split, load_equal_length=True)
            if not np.array_equal(np.asarray(y_eq), parts[split][1]):
                raise ValueError(f"{name}: the equal-length copy's labels differ from the original's")
            parts[split + "_eq"] = znormalize(_as_steps(X_eq))
        else:
            parts[split + "_eq"] = parts[split][0]
    return (*parts["train"], *parts["test"], parts["train_eq"], parts["test_eq"])


def _subsample(X, y, n, seed, *others):
    """A stratified subsample of at most n series (with the same rows of others)."""
    if n is None or n >= len(y):
        return (X, y, *others)
    rng = np.random.default_rng(seed)
    classes = np.unique(y)
    # Round-robin over the classes in a random order: every class is kept
    # as long as n allows.
    pools = [list(rng.permutation(np.flatnonzero(y == c))) for c in classes]
    keep = []
    while len(keep) < n:
        for pool in pools:
            if pool and len(keep) < n:
                keep.append(pool.pop())
    keep = np.sort(keep)
    return ([X[i] for i in keep], y[keep], *([[o[i] for i in keep] for o in others]))


def ridge():
    """The classifier on every feature set: MiniRocket's (StandardScaler + RidgeClassifierCV)."""
    return make_pipeline(StandardScaler(), RidgeClassifierCV(alphas=np.logspace(-3, 3, 10)))


def _cv(y, repeats):
    # 3 folds, or fewer when a class has fewer training series.
    folds = int(min(3, np.bincount(np.unique(y, return_inverse=True)[1]).min()))
    return RepeatedStratifiedKFold(n_splits=max(folds, 2), n_repeats=repeats, random_state=0)


def _describe(setting):
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in setting.items())


def rws_result(data, grid, params, R, n_jobs, repeats, grow_lengths=False):
    """RWS + ridge: every setting of grid (a dict of lists; params fixed)
    fitted on the training part, the best by CV on it, then scored on the
    test part. With grow_lengths, the max_length grid grows past an end that
    CV picked (doubling, from 2 up to the longest training series)."""
    X_train, y_train, X_test, y_test = data
    best = None
    others = {name: values for name, values in grid.items() if name != "max_length"}
    longest = max(len(s) for s in X_train)
    axis = Axis(factor=2, low=2, high=max(longest, max(grid["max_length"])), integer=True) if grow_lengths else None
    t_search = time.perf_counter()
    for values in itertools.product(*others.values()):
        def evaluate(max_length, fixed=dict(zip(others, values))):
            nonlocal best
            setting = {**fixed, "max_length": max_length}
            model = RandomWarpingSeries(R, random_state=0, n_jobs=n_jobs, **params, **setting)
            Z, seconds = timed(model.fit_transform, X_train)
            score = cross_val_score(ridge(), Z, y_train, cv=_cv(y_train, repeats)).mean()
            if best is None or score > best["score"]:
                best = {"score": score, "setting": setting, "model": model, "Z": Z, "seconds": seconds}
            return score

        grow(evaluate, grid["max_length"], axis)
    search = time.perf_counter() - t_search
    clf, clf_seconds = timed(ridge().fit, best["Z"], y_train)
    t0 = time.perf_counter()
    accuracy = clf.score(best["model"].transform(X_test), y_test)
    searched = grow_lengths or any(len(values) > 1 for values in grid.values())
    chosen = _describe(best["setting"]) + ("" if searched else " (fixed: a one-setting grid, no search)")
    return {"accuracy": accuracy, "fit": best["seconds"] + clf_seconds, "predict": time.perf_counter() - t0,
            "search": search, "chosen": chosen, "cv": best["score"]}


def dtw_1nn_result(data, n_jobs):
    X_train, y_train, X_test, y_test = data
    t0 = time.perf_counter()
    D = pairwise_distances(X_test, X_train, metric="dtw", n_jobs=n_jobs)
    accuracy = nearest_neighbour_accuracy(D, y_train, y_test)
    return {"accuracy": accuracy, "seconds": time.perf_counter() - t0}


def _aeon_cases(X):
    """Equal-length (length, channels) series as aeon's (n, channels, length) array."""
    return np.stack([s.T for s in X])


def minirocket_compile_seconds(n_jobs):
    """Fit and predict MiniRocket on tiny inputs (one and two channels):
    numba compiles (or loads from its cache) every function on the way.
    Returns the seconds."""
    from aeon.classification.convolution_based import MiniRocketClassifier

    y = np.array([0, 1, 0, 1])
    t0 = time.perf_counter()
    # One and several channels take different numba functions.
    for channels in (1, 2):
        X = np.random.default_rng(0).standard_normal((4, channels, 16))
        MiniRocketClassifier(random_state=0, n_jobs=n_jobs).fit(X, y).predict(X)
    return time.perf_counter() - t0


def minirocket_result(X_train, y_train, X_test, y_test, n_jobs):
    from aeon.classification.convolution_based import MiniRocketClassifier

    model = MiniRocketClassifier(random_state=0, n_jobs=n_jobs)
    _, fit = timed(model.fit, _aeon_cases(X_train), y_train)
    predicted, predict = timed(model.predict, _aeon_cases(X_test))
    return {"accuracy": float(np.mean(predicted == y_test)), "fit": fit, "predict": predict}


def _shape(X_train, X_test):
    lengths = [len(s) for s in X_train + X_test]
    length = str(lengths[0]) if min(lengths) == max(lengths) else f"{min(lengths)}-{max(lengths)}"
    return f"{len(X_train)}/{len(X_test)}, {length}, {X_train[0].shape[1]}"


def dataset_row(name, parts, grids, n_jobs, minirocket=True):
    """One row: parts = (X_train, y_train, X_test, y_test[, X_train_eq, X_test_eq])."""
    X_train, y_train, X_test, y_test = parts[:4]
    X_train_eq, X_test_eq = parts[4:] if len(parts) > 4 else (X_train, X_test)
    X_train, y_train, X_train_eq = _subsample(X_train, y_train, grids["max_train"], 0, X_train_eq)
    X_test, y_test, X_test_eq = _subsample(X_test, y_test, grids["max_test"], 1, X_test_eq)
    data = (X_train, y_train, X_test, y_test)
    R, repeats = grids["R"], grids["cv_repeats"]
    row = {"dataset": name, "shape": _shape(X_train, X_test),
           "start": rws_result(data, grids.get("start_grid", START_GRID), START_PARAMS, R, n_jobs, repeats),
           "final": rws_result(data, grids.get("final_grid", FINAL_GRID), FINAL_PARAMS, R, n_jobs, repeats,
                               grow_lengths=grids["grow_lengths"]),
           "dtw": dtw_1nn_result(data, n_jobs), "minirocket": None}
    if minirocket:
        row["minirocket"] = minirocket_result(X_train_eq, y_train, X_test_eq, y_test, n_jobs)
    return row


def panel_table(rows):
    """The panel's table: one line per dataset, its columns COLUMNS."""
    lines = []
    for r in rows:
        mr = r["minirocket"] or {}
        lines.append([r["dataset"], r["shape"], cell(r["start"]["accuracy"], ".3f"),
                      cell(r["final"]["accuracy"], ".3f"), cell(r["dtw"]["accuracy"], ".3f"),
                      cell(mr.get("accuracy"), ".3f", missing="aeon not installed"), r["final"]["chosen"],
                      cell(r["final"]["fit"], ".2f"), cell(r["final"]["predict"], ".2f"),
                      cell(r["final"]["search"], ".1f"), cell(r["dtw"]["seconds"], ".2f"), cell(mr.get("fit"), ".2f"),
                      cell(mr.get("predict"), ".2f")])
    return markdown_table(COLUMNS, lines)


def summary_lines(rows):
    """Means, the gaps to MiniRocket, where RWS final is below 1-NN DTW, and
    the median time ratio RWS final / MiniRocket."""
    def mean(key):
        return float(np.mean([r[key]["accuracy"] for r in rows]))

    lines = [f"Mean accuracy over {len(rows)} datasets: RWS start {mean('start'):.3f}, RWS final "
             f"{mean('final'):.3f}, 1-NN DTW {mean('dtw'):.3f}"
             + (f", MiniRocket {mean('minirocket'):.3f}" if all(r["minirocket"] for r in rows) else "")]
    if all(r["minirocket"] for r in rows):
        start_gap, final_gap = mean("minirocket") - mean("start"), mean("minirocket") - mean("final")
        ratio = final_gap / start_gap if start_gap > 0 else float("nan")
        lines.append(f"Mean gap to MiniRocket: start {start_gap:.3f}, final {final_gap:.3f} "
                     f"(final / start = {ratio:.2f})")
        fit = np.median([r["final"]["fit"] / r["minirocket"]["fit"] for r in rows])
        predict = np.median([r["final"]["predict"] / r["minirocket"]["predict"] for r in rows])
        lines.append(f"Median time ratio RWS final / MiniRocket: fit {fit:.2f}, predict {predict:.2f}")
    below = [f"{r['dataset']} ({r['final']['accuracy']:.3f} < {r['dtw']['accuracy']:.3f})" for r in rows
             if r["final"]["accuracy"] < r["dtw"]["accuracy"]]
    lines.append("RWS final below 1-NN DTW on: " + (", ".join(below) if below else "none"))
    return lines


def run(datasets=None, quick=False, n_jobs=1, out=None, argv=None, stream=None, loader=None):
    """Run the panel; print the report to stream (stdout) and write it to
    out/results_timeseries.md when out is given. Returns the rows.

    loader(name) returns (X_train, y_train, X_test, y_test[, X_train_eq,
    X_test_eq]); by default ``load_aeon`` (aeon needed). MiniRocket rows are
    filled only when aeon is installed.
    """
    stream = sys.stdout if stream is None else stream
    grids = QUICK if quick else FULL
    datasets = list(DATASETS if datasets is None else datasets)
    loader = load_aeon if loader is None else loader
    minirocket = have_aeon()
    t_start = time.perf_counter()
    compile_seconds = minirocket_compile_seconds(n_jobs) if minirocket else None
    rows = []
    progress = Progress("timeseries panel", len(datasets))
    for name in datasets:
        progress.step(name)
        rows.append(dataset_row(name, loader(name), grids, n_jobs, minirocket))
    progress.close()
    wall = time.perf_counter() - t_start
    aeon_version = ""
    if minirocket:
        import aeon

        aeon_version = f", aeon {aeon.__version__}"
    report = "\n".join([
        *header_lines("timeseries", argv)[:2],
        f"Versions: {versions()}{aeon_version}",
        (f"Mode: {'--quick (subsamples, R=64, one setting)' if quick else 'full'}; R={grids['R']}; "
         f"n_jobs={n_jobs}; wall time {wall:.0f} s"),
        "MiniRocket numba compilation (tiny inputs, before the first dataset): "
        + (f"{compile_seconds:.1f} s" if minirocket else "aeon not installed"),
        (f"RWS start grid: {grids.get('start_grid', START_GRID)} (min_length=1, local=0, standardize=False, float64); "
         f"RWS final grid: {grids.get('final_grid', FINAL_GRID)} (float32, local='auto'"
         f"{'; max_length doubles past an end CV picks, up to the longest series' if grids['grow_lengths'] else ''})"),
        "",
        panel_table(rows),
        "",
        *summary_lines(rows),
        "",
    ])
    publish(report, stream, out, "results_timeseries.md")
    return rows


COMMAND = ReportCommand(
    description="Random Warping Series (its first settings and the recommended ones, each chosen by CV) against "
                "1-NN DTW and aeon's MiniRocket on the UCR/UEA datasets aeon ships, each on its official "
                "train/test split (needs aeon: pip install 'pyd2ke[timeseries-compare]'). RWS, DTW and "
                "MiniRocket run on --n-jobs threads, one unless it says otherwise.",
    quick="subsamples, R=64, one RWS setting (a minute or two)",
    select="--dataset", choices=DATASETS, report_file="results_timeseries.md", n_jobs=1,
)


def main(args, argv):
    if not have_aeon():
        print("the time-series panel loads its datasets through aeon: pip install 'pyd2ke[timeseries-compare]'",
              file=sys.stderr)
        return 2
    run(args.dataset, quick=args.quick, n_jobs=args.n_jobs, out=args.out, argv=argv)
    return 0
