"""``pyd2ke defaults``: the first try. Every estimator with its defaults
against the tool a user already has, with that tool's defaults, on the
development data.

Each pyd2ke row is ``Estimator(n_components=1024, random_state=0)`` and
nothing else, fitted on the training part; its features then go into
MiniRocket's classifier (StandardScaler + RidgeClassifierCV over alphas
1e-3..1e3), so that the rows compare features. The peers:

- strings (StatLog DNA, digit chain codes): character 3-5-gram counts, the
  same scaled ridge (the scaler without centring: the counts are sparse);
- time series (the nine UCR/UEA datasets aeon ships, z-normalised per
  series and channel): aeon's ``MiniRocketClassifier()``, on the padded
  equal-length copies where lengths differ;
- documents (BBC News): tf-idf of the word counts, the same scaled ridge;
- sets of vectors (digits as SIFT sets): a bag of 256 visual words (k-means
  codebook), the same scaled ridge;
- graphs (MUTAG, 10-fold CV): GraKeL's Weisfeiler-Lehman subtree kernel
  (its defaults, normalised) in an SVC with its default C.

Then the same pyd2ke features without a scaler, as the shortest pipeline a
user writes: RidgeClassifierCV, ``LogisticRegression()`` and ``LinearSVC()``
with their defaults (LinearSVC seeded, random_state=0, so that runs agree),
each beside the same classifier behind a StandardScaler. And the space-efficient maps: ``make_sfmedm()`` and
``make_sfmcgk()`` with their defaults (beta="auto") against the best beta of
a grid, on StatLog DNA, the chain codes and two classes of mutated strings.

Times: "fit s" is the embedding's fit and training features plus the
classifier's fit; "predict s" the test features and prediction (for the
peers, their own fit and predict). MiniRocket's numba functions are
compiled on tiny inputs before the first dataset (not counted). aeon and
GraKeL are report extras; without them their rows are skipped.
"""

import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.linear_model import LogisticRegression, RidgeClassifierCV
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

import pyd2ke
from pyd2ke.datasets import load_bbc_news, load_digits_chaincode, load_digits_sift, load_mutag, load_statlog_dna

from .command import ReportCommand
from .peers import BagOfVisualWords
from .progress import Progress
from .provenance import header_lines, publish
from .tables import cell, markdown_table
from .timeseries_panel import DATASETS as AEON_DATASETS
from .timeseries_panel import _subsample, have_aeon, load_aeon, minirocket_compile_seconds, minirocket_result

ALPHAS = np.logspace(-3, 3, 10)
FULL = {"R": 1024, "max_train": None, "max_test": None, "aeon": AEON_DATASETS, "mutag_folds": 10,
        "sfm_strings": None}
QUICK = {"R": 256, "max_train": 300, "max_test": 300, "aeon": ("ArrowHead", "GunPoint", "JapaneseVowels"),
         "mutag_folds": 3, "sfm_strings": 600}
# The betas the defaults are held against (beta="auto" is not among them).
SFM_BETAS = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
# The shortest pipelines: (name, classifier, the same classifier behind a scaler).
NO_SCALER = {
    "ridge": (lambda: RidgeClassifierCV(alphas=ALPHAS), lambda: make_pipeline(StandardScaler(),
                                                                               RidgeClassifierCV(alphas=ALPHAS))),
    "logistic": (LogisticRegression, lambda: make_pipeline(StandardScaler(), LogisticRegression())),
    # liblinear visits the samples in a random order: without a seed each run
    # of LinearSVC() differs (ItalyPowerDemand: 0.870-0.884 over 8 seeds).
    "linear SVC": (lambda: LinearSVC(random_state=0), lambda: make_pipeline(StandardScaler(),
                                                                          LinearSVC(random_state=0))),
}


def scaled_ridge(sparse=False):
    """MiniRocket's classifier: StandardScaler + RidgeClassifierCV (no centring for sparse input)."""
    return make_pipeline(StandardScaler(with_mean=not sparse), RidgeClassifierCV(alphas=ALPHAS))


def mutated_strings(n, seed=0, length=53, letters=44, rate=0.5, classes=2):
    """Two classes of SMILES-like strings: each a prototype of `length`
    letters (one per class, over `letters` symbols) with every letter
    deleted, substituted or followed by an inserted letter with probability
    rate / 3 each. Returns (strings, labels), classes alternating."""
    rng = np.random.default_rng(seed)
    alphabet = np.array([chr(ord("!") + i) for i in range(letters)])
    prototypes = [rng.choice(alphabet, length) for _ in range(classes)]
    X, y = [], []
    for i in range(n):
        out = []
        for symbol in prototypes[i % classes]:
            u = rng.random()
            if u < rate / 3:
                continue
            out.append(rng.choice(alphabet) if u < 2 * rate / 3 else symbol)
            if rate * 2 / 3 <= u < rate:
                out.append(rng.choice(alphabet))
        X.append("".join(out))
        y.append(i % classes)
    return X, np.array(y)


def _timed(function, *args):
    t0 = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - t0


def _accuracy(model, Z_train, y_train, Z_test, y_test):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # lbfgs / liblinear at their default max_iter
        model.fit(Z_train, y_train)
    return float(np.mean(model.predict(Z_test) == np.asarray(y_test)))


def _fitted_choices(estimator):
    """The automatic defaults an estimator resolved, as "name=value" text."""
    names = ("max_length_", "local_", "gamma_", "feature_scale_")
    parts = [f"{n[:-1]}={getattr(estimator, n):.4g}" for n in names if getattr(estimator, n, None) is not None]
    return ", ".join(parts)


def embedding_row(dataset, make, X_train, y_train, X_test, y_test, peer):
    """One dataset: the estimator's defaults (scaled ridge and the scaler-free
    pipelines) and the peer's (accuracy, fit s, predict s)."""
    estimator = make()
    Z_train, fit_embed = _timed(estimator.fit_transform, X_train)
    Z_test, predict_embed = _timed(estimator.transform, X_test)
    model = scaled_ridge()
    accuracy, fit_model = _timed(_accuracy, model, Z_train, y_train, Z_test, y_test)
    row = {"dataset": dataset, "estimator": type(estimator).__name__, "chosen": _fitted_choices(estimator),
           "pyd2ke": accuracy, "fit": fit_embed + fit_model, "predict": predict_embed}
    for name, (bare, scaled) in NO_SCALER.items():
        row[name] = _accuracy(bare(), Z_train, y_train, Z_test, y_test)
        row[name + " scaled"] = accuracy if name == "ridge" else _accuracy(scaled(), Z_train, y_train, Z_test, y_test)
    row["peer name"], (row["peer"], row["peer fit"], row["peer predict"]) = peer[0], peer[1]()
    return row


def pipeline_peer(model, X_train, y_train, X_test, y_test):
    """A peer pipeline's (accuracy, fit s, predict s)."""
    _, fit = _timed(model.fit, X_train, y_train)
    predicted, predict = _timed(model.predict, X_test)
    return float(np.mean(predicted == np.asarray(y_test))), fit, predict


def _limit(data, grids, seed=0):
    X_train, y_train, X_test, y_test = data
    X_train, y_train = _subsample(list(X_train), np.asarray(y_train), grids["max_train"], seed)
    X_test, y_test = _subsample(list(X_test), np.asarray(y_test), grids["max_test"], seed + 1)
    return X_train, y_train, X_test, y_test


def string_rows(grids, n_jobs):
    R = grids["R"]
    for name, load in (("StatLog DNA", load_statlog_dna), ("digit chain codes", load_digits_chaincode)):
        d = load()
        data = _limit((d.X_train, d.y_train, d.X_test, d.y_test), grids)
        grams = make_pipeline(CountVectorizer(analyzer="char", ngram_range=(3, 5), lowercase=False),
                              scaled_ridge(sparse=True))
        yield embedding_row(name, lambda: pyd2ke.RandomStringEmbedding(R, random_state=0, n_jobs=n_jobs), *data,
                            ("char 3-5-grams", lambda: pipeline_peer(grams, *data)))


def timeseries_rows(grids, n_jobs):
    R = grids["R"]
    for name in grids["aeon"]:
        X_train, y_train, X_test, y_test, X_train_eq, X_test_eq = load_aeon(name)
        X_train, y_train, X_train_eq = _subsample(X_train, y_train, grids["max_train"], 0, X_train_eq)
        X_test, y_test, X_test_eq = _subsample(X_test, y_test, grids["max_test"], 1, X_test_eq)

        def rocket():
            r = minirocket_result(X_train_eq, y_train, X_test_eq, y_test, n_jobs)
            return r["accuracy"], r["fit"], r["predict"]

        yield embedding_row(name, lambda: pyd2ke.RandomWarpingSeries(R, random_state=0, n_jobs=n_jobs),
                            X_train, y_train, X_test, y_test, ("MiniRocket", rocket))


def document_rows(grids, n_jobs):
    d = load_bbc_news()
    train = _subsample(list(range(len(d.y_train))), np.asarray(d.y_train), grids["max_train"], 0)[0]
    test = _subsample(list(range(len(d.y_test))), np.asarray(d.y_test), grids["max_test"], 1)[0]
    y_train, y_test = np.asarray(d.y_train)[train], np.asarray(d.y_test)[test]
    tfidf = make_pipeline(TfidfTransformer(), scaled_ridge(sparse=True))
    peer = ("tf-idf", lambda: pipeline_peer(tfidf, d.bow_train[train], y_train, d.bow_test[test], y_test))
    yield embedding_row("BBC News", lambda: pyd2ke.WordMoversEmbedding(grids["R"], random_state=0, n_jobs=n_jobs),
                        [d.X_train[i] for i in train], y_train, [d.X_test[i] for i in test], y_test, peer)


def set_rows(grids, n_jobs):
    d = load_digits_sift()
    data = _limit((d.X_train, d.y_train, d.X_test, d.y_test), grids)
    words = make_pipeline(BagOfVisualWords(256, random_state=0), scaled_ridge())
    yield embedding_row("digits SIFT sets", lambda: pyd2ke.RandomSetEmbedding(grids["R"], random_state=0,
                                                                              n_jobs=n_jobs),
                        *data, ("bag of 256 visual words", lambda: pipeline_peer(words, *data)))


def graph_rows(grids, n_jobs):
    """MUTAG by stratified k-fold CV: every column is the mean over the folds."""
    from .graphs import _grakel, to_grakel

    d = load_mutag()
    folds = StratifiedKFold(grids["mutag_folds"], shuffle=True, random_state=0).split(d.y, d.y)
    rows = []
    for train, test in folds:
        X_train, X_test = [d.graphs[i] for i in train], [d.graphs[i] for i in test]
        y_train, y_test = d.y[train], d.y[test]

        def wl():
            grakel = _grakel()
            if grakel is None:
                return np.nan, np.nan, np.nan
            kernel = grakel.WeisfeilerLehman(normalize=True, base_graph_kernel=grakel.VertexHistogram)
            t0 = time.perf_counter()
            K_train = kernel.fit_transform(to_grakel(X_train))
            svc = SVC(kernel="precomputed").fit(K_train, y_train)
            fit = time.perf_counter() - t0
            predicted, predict = _timed(lambda: svc.predict(kernel.transform(to_grakel(X_test))))
            return float(np.mean(predicted == y_test)), fit, predict

        rows.append(embedding_row("MUTAG", lambda: pyd2ke.RandomGraphEmbedding(grids["R"], random_state=0,
                                                                               n_jobs=n_jobs),
                                  X_train, y_train, X_test, y_test, ("GraKeL WL", wl)))
    row = dict(rows[0])
    for key, value in row.items():
        if isinstance(value, float):
            row[key] = float(np.mean([r[key] for r in rows]))
    row["dataset"] = f"MUTAG ({grids['mutag_folds']}-fold CV)"
    row["chosen"] = "per fold"
    yield row


def sfm_rows(grids, n_jobs):
    """make_sfmedm() / make_sfmcgk() with beta="auto" against SFM_BETAS."""
    d, c = load_statlog_dna(), load_digits_chaincode()
    X, y = mutated_strings(3000)
    sets = [("StatLog DNA", (d.X_train, d.y_train, d.X_test, d.y_test)),
            ("digit chain codes", (c.X_train, c.y_train, c.X_test, c.y_test)),
            ("mutated strings", (X[:2000], y[:2000], X[2000:], y[2000:]))]
    n = grids["sfm_strings"]
    for dataset, data in sets:
        data = _limit(data, {"max_train": n, "max_test": n})
        for name, make in (("make_sfmedm", pyd2ke.make_sfmedm), ("make_sfmcgk", pyd2ke.make_sfmcgk)):
            def score(**params):
                features = make(random_state=0, n_jobs=n_jobs, **params)
                Z_train = features.fit_transform(data[0])
                return _accuracy(scaled_ridge(), Z_train, data[1], features.transform(data[2]), data[3]), features

            auto, fitted = score()
            grid = {beta: score(beta=beta)[0] for beta in SFM_BETAS}
            best = max(grid, key=grid.get)
            yield {"dataset": dataset, "pipeline": name, "beta_": fitted[-1].beta_, "auto": auto,
                   "best beta": best, "best": grid[best], "grid": grid}


TASKS = {"strings": string_rows, "timeseries": timeseries_rows, "documents": document_rows, "sets": set_rows,
         "graphs": graph_rows}


def _f(value, spec=".3f"):
    """A dash where there is no number: no peer on the dataset (NaN) or no value."""
    return cell(None if isinstance(value, float) and np.isnan(value) else value, spec, missing="—")


def main_table(rows):
    header = ["dataset", "pyd2ke defaults", "chosen at fit", "pyd2ke", "peer", "peer (defaults)", "gap",
              "pyd2ke fit s", "pyd2ke predict s", "peer fit s", "peer predict s", "time ratio"]
    lines = []
    for r in rows:
        lines.append([r["dataset"], r["estimator"], r["chosen"], _f(r["pyd2ke"]), r["peer name"], _f(r["peer"]),
                      _f(r["peer"] - r["pyd2ke"], "+.3f"), _f(r["fit"], ".2f"), _f(r["predict"], ".2f"),
                      _f(r["peer fit"], ".2f"), _f(r["peer predict"], ".2f"), _f(_time_ratio(r), ".2f")])
    return markdown_table(header, lines)


def no_scaler_table(rows):
    header = ["dataset"]
    for name in NO_SCALER:
        header += [f"{name}", f"{name} after StandardScaler"]
    header += ["worst drop without the scaler"]
    lines = []
    for r in rows:
        cells = [r["dataset"]]
        for name in NO_SCALER:
            cells += [_f(r[name]), _f(r[name + " scaled"])]
        cells.append(_f(_worst_drop(r), "+.3f"))
        lines.append(cells)
    return markdown_table(header, lines)


def sfm_table(rows):
    header = ["dataset", "pipeline", "beta_ (auto)", "accuracy, beta auto", "best beta of the grid", "its accuracy",
              "auto - best", "accuracy at beta=1"]
    return markdown_table(header, [[r["dataset"], f"`{r['pipeline']}()`", _f(r["beta_"], ".1f"), _f(r["auto"]),
                                     _f(r["best beta"], "g"), _f(r["best"]), _f(r["auto"] - r["best"], "+.3f"),
                                     _f(r["grid"][1.0])] for r in rows])


def _time_ratio(r):
    peer = r["peer fit"] + r["peer predict"]
    return (r["fit"] + r["predict"]) / peer if peer and np.isfinite(peer) else np.nan


def _worst_drop(r):
    """How far the scaler-free pipelines fall below the same classifier behind a scaler (negative: below)."""
    return min(r[name] - r[name + " scaled"] for name in NO_SCALER)


def summary_lines(rows, sfm):
    scored = [r for r in rows if np.isfinite(r["peer"])]
    gaps = np.array([r["peer"] - r["pyd2ke"] for r in scored])
    ratios = np.array([_time_ratio(r) for r in scored])
    aeon = [r for r in scored if r["peer name"] == "MiniRocket"]
    lines = [
        f"Datasets with a peer: {len(scored)}; mean gap to the peer (peer - pyd2ke): {gaps.mean():+.3f}; "
        f"largest: {gaps.max():+.3f} ({scored[int(gaps.argmax())]['dataset']}); behind on {int((gaps > 0).sum())}",
        f"Median time ratio pyd2ke / peer (fit + predict): {np.median(ratios):.2f}",
    ]
    if aeon:
        ours, theirs = np.mean([r["pyd2ke"] for r in aeon]), np.mean([r["peer"] for r in aeon])
        lines.append(f"Time series ({len(aeon)} aeon datasets): RWS defaults {ours:.3f}, MiniRocket {theirs:.3f}, "
                     f"gap {theirs - ours:+.3f}")
    def worst_drop(name):
        drop, dataset = min((r[name] - r[name + " scaled"], r["dataset"]) for r in rows)
        return f"{name} {drop:+.3f} ({dataset})"

    lines.append("Without a scaler, the worst drop against the same classifier behind a StandardScaler: "
                 + ", ".join(worst_drop(name) for name in NO_SCALER) + "; against the scaled ridge, "
                 + ", ".join(f"{name} {min(r[name] - r['pyd2ke'] for r in rows):+.3f}" for name in NO_SCALER)
                 + " at worst")
    if sfm:
        worst = min(sfm, key=lambda r: r["auto"] - r["best"])
        lines.append(f"SFM beta='auto' against the best beta of {list(SFM_BETAS)}: at worst "
                     f"{worst['auto'] - worst['best']:+.3f} ({worst['pipeline']}, {worst['dataset']})")
    return lines


def run(tasks=None, quick=False, n_jobs=None, out=None, argv=None, stream=None, sfm=True):
    """Run the panel; print the report to stream (stdout) and write it to
    out/results_defaults.md when out is given. Returns (rows, sfm rows)."""
    stream = sys.stdout if stream is None else stream
    grids = QUICK if quick else FULL
    tasks = [t for t in (tasks or TASKS) if t != "timeseries" or have_aeon()]
    t_start = time.perf_counter()
    if "timeseries" in tasks:
        minirocket_compile_seconds(n_jobs)
    rows, sfm_results = [], []
    progress = Progress("defaults panel", len(tasks) + bool(sfm))
    for task in tasks:
        progress.step(task)
        rows.extend(TASKS[task](grids, n_jobs))
    if sfm:
        progress.step("sfm")
        sfm_results = list(sfm_rows(grids, n_jobs))
    progress.close()
    wall = time.perf_counter() - t_start
    report = "\n".join([
        *header_lines("defaults", argv),
        (f"Mode: {'--quick (subsamples, R=256, three aeon datasets, 3 MUTAG folds)' if quick else 'full'}; "
         f"R={grids['R']}; n_jobs={n_jobs}; wall time {wall:.0f} s"),
        "",
        "Every estimator with its defaults (n_components and random_state set) + StandardScaler + "
        "RidgeClassifierCV, against the peer with its defaults:",
        "",
        main_table(rows),
        "",
        "The same features without a scaler (default C), beside the same classifier behind a StandardScaler:",
        "",
        no_scaler_table(rows),
        "",
        *([f"make_sfmedm() / make_sfmcgk() (n_components=1024) with beta='auto', against beta in "
           f"{list(SFM_BETAS)}, each + StandardScaler + RidgeClassifierCV:", "", sfm_table(sfm_results), ""]
          if sfm else []),
        *summary_lines(rows, sfm_results),
        "",
    ])
    publish(report, stream, out, "results_defaults.md")
    return rows, sfm_results


COMMAND = ReportCommand(
    description="The first try: every estimator with its defaults (n_components=1024) + StandardScaler + "
                "RidgeClassifierCV against the tool a user already has with its defaults (character n-grams, "
                "MiniRocket, tf-idf, bag of visual words, GraKeL's WL kernel) on the development data; the same "
                "features without a scaler (ridge, LogisticRegression(), LinearSVC()); make_sfmedm() and "
                "make_sfmcgk() with beta='auto' against a grid of betas. Time series need aeon and MUTAG's peer "
                "GraKeL: pip install 'pyd2ke[timeseries-compare,graphs-compare]'.",
    quick="subsamples, R=256, three aeon datasets, 3 MUTAG folds (a few minutes)",
    select="--task", choices=TASKS, report_file="results_defaults.md",
)


def main(args, argv):
    # The beta grid of the string maps belongs to the strings task: --task graphs ran it for 40 s.
    sfm = not args.task or "strings" in args.task
    run(args.task, quick=args.quick, n_jobs=args.n_jobs, out=args.out, argv=argv, sfm=sfm)
    return 0
