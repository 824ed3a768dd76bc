"""The runner of ``python -m pyd2ke reproduce``: the linear SVM the embeddings
are scored with, the functions that turn one method on one dataset into
report rows (CV search, refit, test score, timings, the R sweep and the
WARNING rows of a choice at a grid's edge), and each task's plan of such
steps (TASKS). The protocol they follow is in ``reproduce``'s docstring, the
grids and the papers' numbers in ``reproduce_protocol``."""

import dataclasses
import time

import numpy as np
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.metrics.pairwise import manhattan_distances
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from pyd2ke import (CGKEmbedding, ESPVectorizer, RandomSetEmbedding, RandomStringEmbedding, RandomWarpingSeries,
                    RepresentativeSetEmbedding, WordMoversEmbedding, make_sfmcgk, make_sfmedm)
from pyd2ke.datasets import (load_bbc_news, load_digits_chaincode, load_digits_sift, load_japanese_vowels,
                             load_statlog_dna)
from pyd2ke.distances import pairwise_distances

from .baselines import distance_substitution_svc, knn_baseline
from .data import unit_descriptors
from .grid import best_value, grow, mean_cv_score
from .peers import BagOfVisualWords, PositionOneHot, equal_lengths, kmer_spectrum
from .reproduce_protocol import PAPER, QUICK, RAW_FEATURES
from .timing import timed


def _axis(grids, name, **limits):
    """How the grid of name grows past its ends (None: it stays as it is),
    with its range narrowed by limits (low=..., high=...)."""
    axis = grids["axes"].get(name)
    return axis and dataclasses.replace(axis, **limits)


def _cv():
    return StratifiedKFold(3, shuffle=True, random_state=0)


def _row(dataset, method, accuracy=None, fit=None, predict=None, search=None, chosen="", note="", kind="",
         paper=""):
    return {"dataset": dataset, "method": method, "accuracy": accuracy, "fit": fit, "predict": predict,
            "search": search, "chosen": chosen, "note": note, "kind": kind, "paper": paper}


def _describe(params):
    return ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items())


def edge_warnings(dataset, method, chosen, grids, bounds=()):
    """WARNING rows for each parameter whose chosen value is the lowest or
    highest of its grid (grids: name -> values; only grids of three or more
    values). (name, value) pairs in bounds are natural limits, not edges."""
    rows = []
    for name, values in grids.items():
        values = sorted(set(values))
        value = chosen.get(name)
        if len(values) < 3 or value is None or (name, value) in bounds:
            continue
        if value in (values[0], values[-1]):
            end = "lowest" if value == values[0] else "highest"
            rows.append(_row(dataset, f"WARNING: {method}", kind="warning",
                             note=f"CV chose {name}={value:g}, the {end} value of its grid "
                                  f"[{', '.join(f'{v:.4g}' for v in values)}]; the optimum may lie outside it"))
    return rows


def note_growth(row, initial, used):
    """Append to the row's "chosen by CV" cell each grid that grew past its
    ends (initial and used: name -> values), with the range it reached, so
    the reader sees that the choice was made inside it."""
    grown = [f"{name} {min(values):.4g}..{max(values):.4g}" for name, values in used.items()
             if len(initial.get(name, ())) > 1
             and (min(values) < min(initial[name]) or max(values) > max(initial[name]))]
    if grown:
        row["chosen"] += f"; grids grown to {', '.join(grown)}"
    return row


# A linear SVM through its kernel matrix -------------------------------------

def _gram(A, B):
    return (A @ B.T).astype(np.float64) / A.shape[1]


class LinearSVM:
    """StandardScaler + SVC on the linear kernel matrix Z Z^T / R (a linear
    SVM on the standardised features Z / sqrt(R))."""

    def __init__(self, C):
        self.C = C

    def fit(self, Z, y):
        self.scaler_ = StandardScaler().fit(Z)
        self.Z_ = self.scaler_.transform(Z).astype(np.float32)
        self.svc_ = SVC(kernel="precomputed", C=self.C).fit(_gram(self.Z_, self.Z_), y)
        return self

    def score(self, Z, y):
        return self.svc_.score(_gram(self.scaler_.transform(Z).astype(np.float32), self.Z_), y)


def cv_linear_svm(Z, y, Cs, axis=None):
    """(mean CV accuracy, best C, the C values tried) for LinearSVM on the
    training features Z; the C grid grows past its ends along axis."""
    Zs = StandardScaler().fit_transform(Z).astype(np.float32)
    G = _gram(Zs, Zs)
    cv = _cv()
    scores = grow(lambda C: mean_cv_score(SVC(kernel="precomputed", C=C), G, y, cv), Cs, axis)
    C = best_value(scores)
    return scores[C], C, sorted(scores)


def _final_row(dataset, method, make_final, Z_of, C, data, search_seconds, chosen, kind, paper):
    """Refit the chosen model from scratch, timed, and score it on the test part.
    make_final() is the unfitted transformer; Z_of(model, X) its features."""
    X_train, y_train, X_test, y_test = data
    t0 = time.perf_counter()
    model = make_final().fit(X_train)
    clf = LinearSVM(C).fit(Z_of(model, X_train), y_train)
    fit_seconds = time.perf_counter() - t0
    accuracy, predict_seconds = timed(lambda: clf.score(Z_of(model, X_test), y_test))
    return _row(dataset, method, accuracy, fit_seconds, predict_seconds, search_seconds, _describe(chosen),
                kind=kind, paper=paper)


# D2KE-family embeddings and RSM ------------------------------------------------

def distance_rows(dataset, method, make, settings, data, grids, *, R, kernels=("SF", "DF"), R_grid=None,
                  merge=False, bounds=(), kind="family", paper_key=None, sweep=False, axis=None):
    """Rows of a distance-based embedding (one per kernel, or one for the best
    kernel when merge) with a linear SVM.

    make(n_components, kernel, gamma, **setting) returns the unfitted
    estimator; settings are dicts of one parameter (or [{}]), whose grid
    grows past its ends along axis. For each setting, one direct-kernel fit
    at R_fit gives the training distances D; the candidates are D[:, :r]
    (DF) and exp(-f gamma_auto D[:, :r]) (SF) for f in grids["gamma_factors"]
    and r in R_grid (R alone when None), each with C by cross-validation (the
    gamma and C grids grow along grids["axes"]). The best candidate per
    kernel is refitted and timed. With sweep, the row also holds the test
    accuracy at the prefixes r of grids["sweep"] (the chosen setting, gamma
    and C kept).
    """
    X_train, y_train, X_test, y_test = data
    R_grid = list(R_grid or [R])
    # The sweep goes up to R (RSM: up to all training objects, the last point).
    limit = len(X_train) if kind == "rsm" else R
    sweep_R = sorted({r for r in grids["sweep"] if r < limit} | {limit}) if sweep else []
    R_fit = max(R_grid + sweep_R)
    y = np.asarray(y_train)
    name = next(iter(settings[0]), None)
    keys = ["any"] if merge else [k for k in ("SF", "DF") if k in kernels]
    fitted = {}  # per setting value: the direct-kernel estimator, its training distances, seconds

    def evaluate(value):
        setting = {} if name is None else {name: value}
        t0 = time.perf_counter()
        estimator = make(R_fit, "direct", "auto", **setting).fit(X_train)
        D = (estimator.transform(X_train) * np.sqrt(R_fit)).astype(np.float32)
        fitted[value] = {"estimator": estimator, "D": D, "seconds": time.perf_counter() - t0}
        best = {}
        for r in R_grid:
            candidates = []
            if "DF" in kernels:
                score, C, C_grid = cv_linear_svm(D[:, :r], y, grids["C"], _axis(grids, "C"))
                candidates.append({"score": score, "kernel": "DF", "factor": None, "gamma": None, "C": C,
                                   "C grid": C_grid})
            if "SF" in kernels:
                def soft(factor):
                    score, C, C_grid = cv_linear_svm(np.exp(-factor * estimator.gamma_ * D[:, :r]), y, grids["C"],
                                                     _axis(grids, "C"))
                    return {"score": score, "C": C, "C grid": C_grid}

                factors = grow(soft, grids["gamma_factors"], _axis(grids, "gamma factor"))
                factor = best_value(factors)
                candidates.append({**factors[factor], "kernel": "SF", "factor": factor,
                                   "gamma": factor * estimator.gamma_, "factor grid": sorted(factors)})
            for candidate in candidates:
                key = "any" if merge else candidate["kernel"]
                if key not in best or candidate["score"] > best[key]["score"]:
                    best[key] = {**candidate, "r": r}
        return best

    t_search = time.perf_counter()
    results = grow(evaluate, [s.get(name) for s in settings], axis, keys=keys)
    search_seconds = time.perf_counter() - t_search
    rows = []
    for key in keys:
        value = best_value(results, key)
        b = results[value][key]
        setting = {} if name is None else {name: value}
        label = method if merge else f"{method}, {b['kernel']}"
        label = label.replace("{R}", str(b["r"]))
        chosen = {**setting}
        if len(R_grid) > 1:
            chosen["R"] = b["r"]
        chosen["kernel"] = b["kernel"]
        if b["factor"] is not None:
            chosen["gamma"] = f"{b['factor']:g} x auto = {b['gamma']:.3g}"
        chosen["C"] = b["C"]
        paper = PAPER.get((dataset, f"{paper_key} {b['kernel']}" if paper_key and not merge else paper_key), "")
        features = (lambda M: M) if b["gamma"] is None else (lambda M, g=b["gamma"]: np.exp(-g * M))
        fit = fitted[value]

        def distances_test():
            # Computed once per setting (both kernels' rows and the sweep use
            # them); each row's predict time counts their computation.
            if "D_test" not in fit:
                t0 = time.perf_counter()
                fit["D_test"] = (fit["estimator"].transform(X_test) * np.sqrt(R_fit)).astype(np.float32)
                fit["test_seconds"] = time.perf_counter() - t0
            return fit["D_test"]

        if b["r"] == R_fit:
            # The chosen model is the search's fit: its training distances
            # (timed there) give the features; soft features exp(-gamma d)
            # cost what the kernel's own output does.
            clf, seconds = timed(lambda: LinearSVM(b["C"]).fit(features(fit["D"]), y_train))
            D_test = distances_test()
            accuracy, predict_seconds = timed(lambda: clf.score(features(D_test), y_test))
            row = _row(dataset, label, accuracy, fit["seconds"] + seconds, fit["test_seconds"] + predict_seconds,
                       search_seconds,
                       _describe(chosen), kind=kind, paper=paper)
        else:
            gamma = "auto" if b["gamma"] is None else b["gamma"]
            kernel = "soft" if b["kernel"] == "SF" else "direct"
            make_final = lambda: make(b["r"], kernel, gamma, **setting)  # noqa: E731
            row = _final_row(dataset, label, make_final, lambda m, X: m.transform(X), b["C"], data, search_seconds,
                             chosen, kind, paper)
        if sweep_R:
            D, D_test = fit["D"], distances_test()
            row["sweep"] = {r: LinearSVM(b["C"]).fit(features(D[:, :r]), y_train).score(features(D_test[:, :r]),
                                                                                         y_test)
                            for r in sweep_R}
        rows.append(row)
        grids_used = {} if name is None else {name: sorted(results)}
        grids_used["C"] = b["C grid"]
        if b["factor"] is not None:
            grids_used["gamma factor"] = b["factor grid"]
            chosen = {**chosen, "gamma factor": b["factor"]}
        if len(R_grid) > 1:
            grids_used["R"] = R_grid
        note_growth(row, {name: [s[name] for s in settings] if name else [], "C": grids["C"],
                          "gamma factor": grids["gamma_factors"]}, grids_used)
        rows += edge_warnings(dataset, label, chosen, grids_used, bounds)
    return rows


def feature_rows(dataset, method, make, settings, data, grids, *, make_final=None, sparse=False, C_grid=None,
                 kind="peer", bounds=(), axis=None):
    """One row for a transformer + linear SVM: the best setting and C by CV.

    settings are dicts of one parameter (or [{}]), whose grid grows past its
    ends along axis. Dense features use LinearSVM (C from grids["C"]);
    sparse ones LinearSVC (C from C_grid); the C grid grows along
    grids["axes"]. make_final(**setting), when given, is the model refitted
    for the test (a larger D, say), with C chosen again on its features."""
    X_train, y_train, X_test, y_test = data
    C_grid = C_grid or (grids["liblinear_C"] if sparse else grids["C"])
    C_axis = _axis(grids, "liblinear C" if sparse else "C")
    name = next(iter(settings[0]), None)

    def search_C(Z):
        if sparse:
            scores = grow(lambda C: mean_cv_score(LinearSVC(C=C), Z, y_train, _cv()), C_grid, C_axis)
            C = best_value(scores)
            return scores[C], C, sorted(scores)
        return cv_linear_svm(Z, y_train, C_grid, C_axis)

    def evaluate(value):
        score, C, Cs = search_C(make(**({} if name is None else {name: value})).fit_transform(X_train))
        return {"score": score, "C": C, "C grid": Cs}

    t_search = time.perf_counter()
    results = grow(evaluate, [s.get(name) for s in settings], axis)
    value = best_value(results)
    setting = {} if name is None else {name: value}
    C, Cs = results[value]["C"], results[value]["C grid"]
    final = (lambda: make_final(**setting)) if make_final else (lambda: make(**setting))
    if make_final and not sparse:
        _, C, Cs = cv_linear_svm(final().fit_transform(X_train), y_train, C_grid, C_axis)
    search_seconds = time.perf_counter() - t_search
    chosen = {**setting, "C": C}
    if sparse:
        t0 = time.perf_counter()
        model = make_pipeline(final(), LinearSVC(C=C)).fit(X_train, y_train)
        fit_seconds = time.perf_counter() - t0
        accuracy, predict_seconds = timed(model.score, X_test, y_test)
        row = _row(dataset, method, accuracy, fit_seconds, predict_seconds, search_seconds, _describe(chosen),
                   kind=kind)
    else:
        row = _final_row(dataset, method, final, lambda m, X: m.transform(X), C, data, search_seconds, chosen,
                         kind, "")
    grids_used = {} if name is None else {name: sorted(results)}
    grids_used["C"] = Cs
    note_growth(row, {name: [s[name] for s in settings] if name else [], "C": C_grid}, grids_used)
    return [row] + edge_warnings(dataset, method, chosen, grids_used, bounds)


# Exact kernels -----------------------------------------------------------------

def exact_distance_rows(dataset, metric_name, distances, data, grids):
    """k-NN with the exact distance, exp(-gamma d) and DSK_RBF exp(-gamma d^2),
    each + SVC(precomputed).

    distances(A, B) returns the exact distance matrix; the training matrix is
    computed once and its time counted in every row's fit time (the test
    matrix likewise in every row's predict time).
    """
    X_train, y_train, X_test, y_test = data
    D_train, train_seconds = timed(distances, X_train, X_train)
    D_test, test_seconds = timed(distances, X_test, X_train)
    # k stays below the training part of a CV fold (two thirds of the objects)
    k_axis = _axis(grids, "k", high=len(y_train) * 2 // 3 - 1)
    knn = knn_baseline(D_train, y_train, D_test, y_test, grids["k"], _cv(), k_axis=k_axis)
    rows = [_row(dataset, f"k-NN, exact {metric_name}", knn.accuracy, train_seconds + knn.fit_seconds,
                 test_seconds + knn.predict_seconds, knn.search_seconds, f"k={knn.chosen['k']}", kind="knn",
                 paper=PAPER.get((dataset, "k-NN"), ""))]
    note_growth(rows[0], {"k": grids["k"]}, knn.grids)
    rows += edge_warnings(dataset, "k-NN", knn.chosen, knn.grids, bounds={("k", 1)})
    for power, name, key in ((1, f"exp(-gamma {metric_name}) kernel + SVC", "exp"),
                             (2, f"DSK_RBF: exp(-gamma {metric_name}^2) + SVC", "DSK_RBF")):
        svc = distance_substitution_svc(D_train, y_train, D_test, y_test, grids["dsk_factors"], grids["svc_C"],
                                        _cv(), power=power, factor_axis=_axis(grids, "gamma factor"),
                                        C_axis=_axis(grids, "svc C"))
        rows.append(_row(dataset, name, svc.accuracy, train_seconds + svc.fit_seconds,
                         test_seconds + svc.predict_seconds, svc.search_seconds,
                         f"gamma={svc.chosen['factor']:g} / median d{'^2' if power == 2 else ''} = "
                         f"{svc.chosen['gamma']:.3g}, C={svc.chosen['C']:g}", kind="exact",
                         paper=PAPER.get((dataset, key), "")))
        note_growth(rows[-1], {"gamma factor": grids["dsk_factors"], "C": grids["svc_C"]}, svc.grids)
        rows += edge_warnings(dataset, name, {"gamma factor": svc.chosen["factor"], "C": svc.chosen["C"]},
                              svc.grids)
    return rows


def exact_sketch_kernel_rows(dataset, name, vectorizer, data, grids):
    """The SFM paper's exact kernels exp(-||V(x) - V(y)||_1 / beta) on ESP or
    CGK vectors V, + SVC(precomputed); beta in grids["sfm_beta"] and C by CV."""
    X_train, y_train, X_test, y_test = data
    t0 = time.perf_counter()
    model = vectorizer.fit(X_train)
    V_train = model.transform(X_train)
    D_train = manhattan_distances(V_train)
    train_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    D_test = manhattan_distances(model.transform(X_test), V_train)
    test_seconds = time.perf_counter() - t0
    betas = grids["sfm_beta"]
    # beta grows by tens past either end (1 / beta is the factor searched)
    svc = distance_substitution_svc(D_train, y_train, D_test, y_test, [1 / b for b in betas], grids["svc_C"], _cv(),
                                    scale=1.0, factor_axis=_axis(grids, "beta"),
                                    C_axis=_axis(grids, "svc C"))
    beta = 1 / svc.chosen["factor"]
    median = float(np.median(D_train[np.triu_indices(len(D_train), 1)]))
    method = f"exact {name} kernel exp(-L1/beta) + SVC"
    row = _row(dataset, method, svc.accuracy, train_seconds + svc.fit_seconds, test_seconds + svc.predict_seconds,
               svc.search_seconds, f"beta={beta:g} (median L1 {median:.3g}), C={svc.chosen['C']:g}", kind="exact")
    used = {"beta": [1 / f for f in svc.grids["gamma factor"]], "C": svc.grids["C"]}
    note_growth(row, {"beta": betas, "C": grids["svc_C"]}, used)
    return [row] + edge_warnings(dataset, method, {"beta": beta, "C": svc.chosen["C"]}, used)


# Datasets ----------------------------------------------------------------------

def _subsample(X, y, n, seed):
    """A stratified subsample of n objects (all of them when n is None or larger)."""
    if n is None or n >= len(y):
        return X, y
    keep, _ = train_test_split(np.arange(len(y)), train_size=n, stratify=y, random_state=seed)
    keep = np.sort(keep)
    if hasattr(X, "tocsr"):
        return X[keep], [y[i] for i in keep]
    return [X[i] for i in keep], [y[i] for i in keep]


def _split(X_train, y_train, X_test, y_test, grids):
    X_train, y_train = _subsample(X_train, y_train, grids["max_train"], 0)
    X_test, y_test = _subsample(X_test, y_test, grids["max_test"], 1)
    return X_train, y_train, X_test, y_test


def rsm_rows(dataset, metric, data, grids, n_jobs, sweep=False, dtype=np.float64, R_grid=None):
    """RSM under the D2KE paper's protocol: R <= 512 (prefixes of one set of
    representatives), soft (gamma by CV) or direct kernel, by CV."""
    R_grid = [r for r in (R_grid or grids["rsm_R"]) if r <= len(data[0])]
    make = lambda R, kernel, gamma: RepresentativeSetEmbedding(R, metric=metric, kernel=kernel,  # noqa: E731
                                                               gamma=gamma, random_state=0, n_jobs=n_jobs,
                                                               dtype=dtype, **RAW_FEATURES)
    return distance_rows(dataset, "RSM (R={R}, by CV)", make, [{}], data, grids, R=max(R_grid), R_grid=R_grid,
                         merge=True, kind="rsm", paper_key="RSM", sweep=sweep, bounds={("R", max(R_grid))})


# Each task's plan: (label, callable -> rows) per step --------------------------

def string_plan(dataset, data, grids, n_jobs):
    """(label, callable -> rows) for one string dataset."""
    R = grids["R"]["strings"]
    X_train = data[0]
    longest = max(len(s) for s in X_train)

    def rse(sampler):
        if sampler in ("ss", "bss"):
            # Longer than the longest input, a substring length only adds
            # whole training strings: the grid stops at the input length.
            lengths = sorted({max(1, round(f * longest)) for f in grids["ss_fractions"]})
            bounds = {("max_length", longest)}
            axis = _axis(grids, "random length", high=longest)
        else:
            lengths, bounds, axis = grids["rf_lengths"], set(), _axis(grids, "random length")
        make = lambda R_, kernel, gamma, max_length: RandomStringEmbedding(  # noqa: E731
            R_, sampler=sampler, kernel=kernel, gamma=gamma, max_length=max_length, random_state=0, n_jobs=n_jobs,
            **RAW_FEATURES)
        return lambda: distance_rows(dataset, f"RSE (R={R}, {sampler})", make, [{"max_length": m} for m in lengths],
                                     data, grids, R=R, bounds=bounds, paper_key=f"RSE {sampler}", sweep=True,
                                     axis=axis)

    def sfm(name):
        def run():
            if name == "SFMEDM":
                make = lambda D, beta: make_sfmedm(n_components=D, beta=beta, random_state=0, n_jobs=n_jobs,  # noqa
                                                   dtype=np.float32)
            else:
                make = lambda D, beta: make_sfmcgk(n_components=D, beta=beta, random_state=0, n_jobs=n_jobs,  # noqa
                                                   dtype=np.float32)
            D, D_search = grids["sfm_D"], grids["sfm_search_D"]
            return feature_rows(dataset, f"{name} (D={D}; beta searched at D={D_search})",
                                lambda beta: make(D_search, beta), [{"beta": b} for b in grids["sfm_beta"]], data,
                                grids, make_final=lambda beta: make(D, beta), kind="family",
                                axis=_axis(grids, "sfm beta"))
        return run

    def exact():
        return exact_distance_rows(dataset, "Levenshtein", lambda A, B: pairwise_distances(A, B, n_jobs=n_jobs),
                                   data, grids)

    def sketches():
        return (exact_sketch_kernel_rows(dataset, "ESP", ESPVectorizer(n_jobs=n_jobs), data, grids)
                + exact_sketch_kernel_rows(dataset, "CGK", CGKEmbedding(random_state=0, n_jobs=n_jobs), data, grids))

    def peers():
        rows = feature_rows(dataset, "k-mer spectrum + LinearSVC (peer)", lambda k: kmer_spectrum(k),
                            [{"k": k} for k in grids["kmer_k"]], data, grids, sparse=True,
                            axis=_axis(grids, "kmer k"))
        if equal_lengths(X_train) and equal_lengths(data[2]):
            rows += feature_rows(dataset, "one-hot per position + LinearSVC (peer)", lambda: PositionOneHot(), [{}],
                                 data, grids, sparse=True)
        else:
            rows.append(_row(dataset, "one-hot per position (peer)", kind="peer",
                             note=f"not run: string lengths vary ({min(len(s) for s in X_train)}-{longest})"))
        return rows

    plan = [(f"RSE {sampler}", rse(sampler)) for sampler in ("rf", "rfd", "ss", "bss")]
    plan += [("SFMEDM", sfm("SFMEDM")), ("SFMCGK", sfm("SFMCGK")),
             ("RSM", lambda: rsm_rows(dataset, "levenshtein", data, grids, n_jobs, sweep=True)),
             ("exact Levenshtein", exact), ("exact ESP / CGK kernels", sketches), ("peers", peers)]
    return plan


def task_strings(grids, n_jobs):
    plans = []
    dna = load_statlog_dna()
    data = _split(dna.X_train, dna.y_train, dna.X_test, dna.y_test, grids)
    plans += [(f"DNA: {label}", run) for label, run in string_plan("StatLog DNA", data, grids, n_jobs)]
    chain = load_digits_chaincode()
    data = _split(chain.X_train, chain.y_train, chain.X_test, chain.y_test, grids)
    plans += [(f"chain codes: {label}", run) for label, run in string_plan("digit chain codes", data, grids, n_jobs)]
    return plans


def task_timeseries(grids, n_jobs):
    vowels = load_japanese_vowels()
    data = _split(vowels.X_train, vowels.y_train, vowels.X_test, vowels.y_test, grids)
    dataset, R = "JapaneseVowels", grids["R"]["timeseries"]

    def rws():
        make = lambda R_, kernel, gamma, max_length: RandomWarpingSeries(  # noqa: E731
            R_, max_length=max_length, kernel=kernel, gamma=gamma, random_state=0, n_jobs=n_jobs, derivative=False,
            **RAW_FEATURES)
        # RWS's random series are at least 2 long (its min_length)
        axis = _axis(grids, "random length", low=2, high=400)
        return distance_rows(dataset, f"RWS (R={R})", make, [{"max_length": m} for m in grids["rws_lengths"]],
                             data, grids, R=R, axis=axis, bounds={("max_length", 2)})

    exact = lambda: exact_distance_rows(dataset, "DTW", lambda A, B: pairwise_distances(A, B, metric="dtw",  # noqa
                                                                                        n_jobs=n_jobs), data, grids)
    return [("RWS", rws), ("RSM", lambda: rsm_rows(dataset, "dtw", data, grids, n_jobs)), ("exact DTW", exact)]


def task_sets(grids, n_jobs):
    sift = load_digits_sift()
    data = _split(unit_descriptors(sift.X_train), sift.y_train, unit_descriptors(sift.X_test), sift.y_test, grids)
    dataset, R = "digits SIFT sets", grids["R"]["sets"]

    def rse():
        make = lambda R_, kernel, gamma, max_size: RandomSetEmbedding(  # noqa: E731
            R_, kernel=kernel, gamma=gamma, min_size=min(3, max_size), max_size=max_size, random_state=0,
            n_jobs=n_jobs, dtype=np.float32, **RAW_FEATURES)
        return distance_rows(dataset, f"RandomSetEmbedding (R={R}, modified Hausdorff)", make,
                             [{"max_size": m} for m in grids["set_sizes"]], data, grids, R=R,
                             axis=_axis(grids, "set size"))

    def bovw():
        return feature_rows(dataset, "bag of visual words + linear SVM (peer)", lambda n_words: BagOfVisualWords(n_words),
                            [{"n_words": k} for k in grids["bovw_words"]], data, grids,
                            axis=_axis(grids, "bovw words"))

    distances = lambda A, B: pairwise_distances(A, B, metric="modified_hausdorff", n_jobs=n_jobs,  # noqa: E731
                                                dtype=np.float32)
    return [("RandomSetEmbedding", rse),
            ("RSM", lambda: rsm_rows(dataset, "modified_hausdorff", data, grids, n_jobs, dtype=np.float32)),
            ("exact modified Hausdorff", lambda: exact_distance_rows(dataset, "modified Hausdorff", distances, data,
                                                                     grids)),
            ("bag of visual words", bovw)]


def task_documents(grids, n_jobs):
    bbc = load_bbc_news()
    bow = _split(bbc.bow_train, bbc.y_train, bbc.bow_test, bbc.y_test, grids)
    pairs = _split(bbc.X_train, bbc.y_train, bbc.X_test, bbc.y_test, grids)
    dataset, R = "BBC News", grids["R"]["documents"]

    def wme(distribution):
        make = lambda R_, kernel, gamma: WordMoversEmbedding(  # noqa: E731
            R_, embeddings=bbc.embeddings, weighting="tfidf", distribution=distribution, kernel=kernel, gamma=gamma,
            random_state=0, n_jobs=n_jobs, dtype=np.float32, **RAW_FEATURES)
        return lambda: distance_rows(dataset, f"WME (R={R}, tf-idf, {distribution} words)", make, [{}], bow, grids,
                                     R=R)

    def tfidf():
        return feature_rows(dataset, "tf-idf + LinearSVC (peer; words only, no vectors)",
                            lambda: TfidfTransformer(sublinear_tf=True), [{}], bow, grids, sparse=True,
                            C_grid=grids["tfidf_C"])

    def rsm():
        if not grids["rsm_documents"]:
            return [_row(dataset, "RSM (exact EMD)", kind="rsm",
                         note="not run with --quick: each exact EMD between two real documents costs milliseconds")]
        return rsm_rows(dataset, "emd", pairs, grids, n_jobs, R_grid=grids["rsm_documents"])

    def exact():
        # N^2 exact EMDs between real documents (about 140 distinct words each)
        # are out of reach here: time a small block and report the estimate.
        X = pairs[0]
        t0 = time.perf_counter()
        pairwise_distances(X[:10], X[10:30], metric="emd", n_jobs=n_jobs)
        per_pair = (time.perf_counter() - t0) / 200
        n_pairs = len(X) * (len(X) + len(pairs[2]))
        return [_row(dataset, "k-NN / exp(-gamma EMD) kernels, exact EMD", kind="exact",
                     note=f"not run: {n_pairs:.3g} exact EMDs at a measured {per_pair * 1e3:.2f} ms per pair "
                          f"would take about {n_pairs * per_pair / 60:.0f} minutes")]

    return [("WME vocabulary", wme("vocabulary")), ("WME sphere", wme("sphere")), ("tf-idf", tfidf),
            ("RSM", rsm), ("exact EMD", exact)]


def task_graphs(grids, n_jobs):
    """MUTAG has no published split: 10-fold CV, every parameter chosen inside
    the training folds (pyd2ke/reports/graphs.py); "test accuracy" is the mean
    over the folds and "CV search s" the whole cross-validation."""
    from .graphs import mutag_rows

    R = grids["R"]["graphs"]
    methods = ("RGE", "WL", "SP") if grids is QUICK else ("RGE", "RSM", "WL", "SP")
    kinds = {"RGE": "family", "RSM": "rsm"}

    def row(r):
        method = r["method"].replace("RandomGraphEmbedding", "RGE")
        return _row("MUTAG (10-fold CV)", method, r["accuracy"], search=r["seconds"],
                    chosen=f"fold std {r['std']:.3f}; per fold: accuracy "
                           f"{', '.join(f'{a:.3f}' for a in r['accuracies'])}; chosen {r['chosen']}",
                    kind=next((k for p, k in kinds.items() if method.startswith(p)), "peer"))

    def with_edges(r):
        """The method's row, then a WARNING row for each parameter some fold chose at an end of its
        grid (none when the grids grow past their ends)."""
        out, seen = [row(r)], set()
        for chosen in ([] if grids["axes"] else r["fold_choices"]):
            for warning in edge_warnings("MUTAG (10-fold CV)", out[0]["method"], chosen, r["grids"]):
                if warning["note"] not in seen:
                    seen.add(warning["note"])
                    out.append(warning)
        return out

    def rows():
        results = mutag_rows(R, n_jobs, methods, log=lambda *a: None, grow_grids=bool(grids["axes"]))
        return [line for r in results for line in with_edges(r)]

    return [("MUTAG graphs", rows)]


TASKS = {"strings": task_strings, "timeseries": task_timeseries, "documents": task_documents, "sets": task_sets,
         "graphs": task_graphs}

