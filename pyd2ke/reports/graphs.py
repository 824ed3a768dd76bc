"""Graphs: MUTAG accuracy by 10-fold cross-validation, and embedding time on
synthetic graphs, for RandomGraphEmbedding against RSM and GraKeL's
Weisfeiler-Lehman subtree and shortest-path kernels (SVC on the precomputed
kernel). GraKeL is a comparison extra (pip install 'pyd2ke[graphs-compare]'); its rows are
skipped without it. The library never imports it.

Cross-validation: 10 stratified folds (shuffled, seed 0). In each, every
parameter is chosen on the training folds only: the embedding is fitted on
the training graphs, and an inner 5-fold CV on their features picks the
setting and C; the test fold is scored once. RGE settings: label_scale and
gamma = factor * gamma_auto. Soft features for every gamma come from one
fit with kernel="direct": exp(-gamma d) / sqrt(R) of the same distances d,
exactly what kernel="soft" computes, without recomputing the EMDs per gamma.
In ``reproduce``'s full run every inner grid grows past an end the inner CV
picks (AXES; pyd2ke/reports/grid.py).
"""

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from pyd2ke import RandomGraphEmbedding, RepresentativeSetEmbedding
from pyd2ke.datasets import load_mutag

from .grid import Axis, best_value, grow, mean_cv_score

# RGE grid (chosen inside the training folds) and its classifier's C grid.
RGE_LABEL_SCALES = (0.5, 1.0)
RGE_GAMMA_FACTORS = (1.0, 3.0)
RGE_C = (1e-3, 1e-2, 1e-1)
KERNEL_SVC_C = (1e-2, 1e-1, 1.0, 10.0, 100.0)
WL_ITERATIONS = (1, 2, 3, 4, 5)
# The grids of rge_fold's choices, by the names it reports them under.
RGE_GRIDS = {"label_scale": RGE_LABEL_SCALES, "gamma_factor": RGE_GAMMA_FACTORS, "C": RGE_C}
# How each grid grows past an end the inner CV picks (mutag_cv(grow_grids=True)).
AXES = {"label scale": Axis(factor=2, low=1 / 16, high=16), "gamma factor": Axis(factor=3, low=1 / 81, high=81),
        "C": Axis(factor=10, low=1e-6, high=1e5), "n_iter": Axis(step=1, low=1, high=10, integer=True)}


def _outer_folds(y, n_folds=10):
    return list(StratifiedKFold(n_folds, shuffle=True, random_state=0).split(np.zeros(len(y)), y))


def _inner_cv():
    return StratifiedKFold(5, shuffle=True, random_state=0)


def _linear_svc(C=1.0):
    return make_pipeline(StandardScaler(), LinearSVC(C=C, max_iter=5000))


def _take(X, idx):
    return [X[i] for i in idx]


def _cv_score(estimator, X, y):
    return mean_cv_score(estimator, X, y, _inner_cv())


def rge_fold(make, X_train, y_train, X_test, y_test, label_scales=RGE_LABEL_SCALES,
             gamma_factors=RGE_GAMMA_FACTORS, C_grid=RGE_C, axes=None):
    """(test accuracy, chosen setting, seconds) of RGE with its parameters chosen
    on the training part (each grid grows past an end CV picks, along axes)."""
    axes = axes or {}
    t0 = time.perf_counter()
    fits = {}

    def evaluate_scale(scale):
        model = make(label_scale=scale).fit(X_train)  # kernel="direct": features d / sqrt(R)
        R = model.n_components_
        D_train = model.transform(X_train) * np.sqrt(R)
        gamma_auto = 1.0 / np.median(D_train)  # all training rows: a prefix may hold one class only
        fits[scale] = (model, D_train, R, gamma_auto)

        def evaluate_factor(factor):
            Z_train = np.exp(-factor * gamma_auto * D_train) / np.sqrt(R)
            scores = grow(lambda C: _cv_score(_linear_svc(C), Z_train, y_train), C_grid, axes.get("C"))
            C = best_value(scores)
            return {"score": scores[C], "C": C}

        factors = grow(evaluate_factor, gamma_factors, axes.get("gamma factor"))
        factor = best_value(factors)
        return {**factors[factor], "factor": factor}

    scales = grow(evaluate_scale, label_scales, axes.get("label scale"))
    scale = best_value(scales)
    best = scales[scale]
    model, D_train, R, gamma_auto = fits[scale]
    gamma = best["factor"] * gamma_auto
    clf = _linear_svc(best["C"]).fit(np.exp(-gamma * D_train) / np.sqrt(R), y_train)
    D_test = model.transform(X_test) * np.sqrt(R)
    accuracy = clf.score(np.exp(-gamma * D_test) / np.sqrt(R), y_test)
    return accuracy, {"label_scale": scale, "gamma_factor": best["factor"], "C": best["C"]}, time.perf_counter() - t0


def kernel_fold(make_kernel, settings, X_train, y_train, X_test, y_test, C_grid=KERNEL_SVC_C, axes=None):
    """(test accuracy, chosen setting, seconds) of SVC(kernel="precomputed") on a
    graph kernel, its setting (dicts of one parameter, or [{}]) and C chosen
    by inner CV on the training part (each grid grows past an end CV picks,
    along axes: "C", and the setting's own name)."""
    axes = axes or {}
    t0 = time.perf_counter()
    name = next(iter(settings[0]), None)
    kernels = {}

    def evaluate(value):
        kernel = make_kernel(**({} if name is None else {name: value}))
        K_train = kernel.fit_transform(X_train)
        kernels[value] = (kernel, K_train)
        scores = grow(lambda C: _cv_score(SVC(kernel="precomputed", C=C), K_train, y_train), C_grid, axes.get("C"))
        C = best_value(scores)
        return {"score": scores[C], "C": C}

    results = grow(evaluate, [s.get(name) for s in settings], axes.get(name))
    value = best_value(results)
    kernel, K_train = kernels[value]
    C = results[value]["C"]
    svc = SVC(kernel="precomputed", C=C).fit(K_train, y_train)
    accuracy = svc.score(kernel.transform(X_test), y_test)
    return accuracy, {**({} if name is None else {name: value}), "C": C}, time.perf_counter() - t0


def to_grakel(graphs):
    """(adjacency, labels) pairs as GraKeL's [edge dict, node label dict] input."""
    out = []
    for A, labels in graphs:
        A = A.tocoo()
        edges = {}
        for i, j in zip(A.row.tolist(), A.col.tolist()):
            edges.setdefault(i, []).append(j)
        for i in range(A.shape[0]):
            edges.setdefault(i, [])
        out.append([edges, {i: int(l) for i, l in enumerate(labels)}])
    return out


def _grakel():
    try:
        import grakel
    except ImportError:
        return None
    return grakel


def mutag_rows(n_components=256, n_jobs=None, methods=("RGE", "RSM", "WL", "SP"), log=print, grow_grids=False):
    """mutag_cv as rows {method, accuracy (mean over folds), std, seconds, chosen}."""
    results = mutag_cv(n_components, n_jobs, methods, log, grow_grids)
    rows = []
    for name, r in results.items():
        chosen = "; ".join(", ".join(f"{k}={v:g}" for k, v in c.items()) for c in r["chosen"])
        rows.append({"method": name, "accuracy": r["mean"], "std": r["std"], "seconds": r["seconds"],
                     "chosen": chosen, "accuracies": r["accuracies"], "fold_choices": r["chosen"],
                     "grids": r["grids"]})
    if _grakel() is None:
        log("  (GraKeL not installed: pip install 'pyd2ke[graphs-compare]' for the Weisfeiler-Lehman and "
            "shortest-path rows)")
    return rows


def mutag_cv(n_components=256, n_jobs=None, methods=("RGE", "RSM", "WL", "SP"), log=print, grow_grids=False):
    """Per method: fold accuracies, their mean and std, chosen settings and
    seconds. With grow_grids, every inner grid grows past an end the inner
    CV picks (AXES)."""
    axes = AXES if grow_grids else None
    data = load_mutag()
    X, y = data.graphs, data.y
    folds = _outer_folds(y)
    grakel = _grakel()
    results = {}

    def run(name, fold_fn, grids):
        accs, chosen, seconds = [], [], 0.0
        for train, test in folds:
            a, c, s = fold_fn(train, test)
            accs.append(a)
            chosen.append(c)
            seconds += s
        results[name] = {"accuracies": accs, "mean": float(np.mean(accs)), "std": float(np.std(accs)),
                         "chosen": chosen, "seconds": seconds, "grids": grids}
        log(f"  {name}: {np.mean(accs):.4f} +- {np.std(accs):.4f} ({seconds:.1f} s)")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if "RGE" in methods:
            # (gamma is unused by kernel="direct"; a number skips the auto-gamma pass)
            make = lambda label_scale: RandomGraphEmbedding(n_components, label_scale=label_scale,  # noqa: E731
                                                            kernel="direct", gamma=1.0, random_state=0,
                                                            n_jobs=n_jobs, standardize=False)
            run(f"RandomGraphEmbedding (R={n_components}, anchor) + LinearSVC",
                lambda tr, te: rge_fold(make, _take(X, tr), y[tr], _take(X, te), y[te], axes=axes), RGE_GRIDS)
        if "RSM" in methods:
            make = lambda label_scale: RepresentativeSetEmbedding(  # noqa: E731
                min(n_components, 150), metric="graph_emd", metric_params={"label_scale": label_scale},
                kernel="direct", gamma=1.0, random_state=0, n_jobs=n_jobs, standardize=False)
            run("RSM (graph EMD, all training graphs) + LinearSVC",
                lambda tr, te: rge_fold(make, _take(X, tr), y[tr], _take(X, te), y[te], axes=axes), RGE_GRIDS)
        if grakel is not None:
            G = to_grakel(X)
            if "WL" in methods:
                make_wl = lambda n_iter: grakel.kernels.WeisfeilerLehman(  # noqa: E731
                    n_iter=n_iter, base_graph_kernel=grakel.kernels.VertexHistogram, normalize=True)
                run("GraKeL Weisfeiler-Lehman subtree + SVC (precomputed)",
                    lambda tr, te: kernel_fold(make_wl, [{"n_iter": k} for k in WL_ITERATIONS],
                                               _take(G, tr), y[tr], _take(G, te), y[te], axes=axes),
                    {"n_iter": WL_ITERATIONS, "C": KERNEL_SVC_C})
            if "SP" in methods:
                make_sp = lambda: grakel.kernels.ShortestPath(normalize=True, with_labels=True)  # noqa: E731
                run("GraKeL shortest-path + SVC (precomputed)",
                    lambda tr, te: kernel_fold(make_sp, [{}], _take(G, tr), y[tr], _take(G, te), y[te],
                                               axes=axes), {"C": KERNEL_SVC_C})
    return results


def synthetic_graphs(n, seed=0, min_nodes=20, max_nodes=200, n_labels=5):
    """n labelled random graphs of U{min_nodes..max_nodes} nodes, mean degree about 3
    (a random spanning path plus random edges), as (csr adjacency, labels) pairs."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    out = []
    for m in rng.integers(min_nodes, max_nodes + 1, n):
        order = rng.permutation(m)
        extra = m // 2
        rows = np.r_[order[:-1], rng.integers(0, m, extra)]
        cols = np.r_[order[1:], rng.integers(0, m, extra)]
        keep = rows != cols
        A = sp.coo_matrix((np.ones(keep.sum()), (rows[keep], cols[keep])), shape=(m, m)).tocsr()
        A = A + A.T
        A.data[:] = 1.0
        out.append((A, rng.integers(0, n_labels, m)))
    return out


def timing(sizes=(1000, 2000, 4000), n_components=64, n_jobs=None, grakel_max=4000, log=print):
    """Seconds of RGE fit+transform and of GraKeL's WL kernel matrix (n_iter=3) against N."""
    from .scaling import loglog_slope

    grakel = _grakel()
    rows = []
    for n in sizes:
        X = synthetic_graphs(n)
        t0 = time.perf_counter()
        RandomGraphEmbedding(n_components, random_state=0, n_jobs=n_jobs).fit_transform(X)
        ours = time.perf_counter() - t0
        wl = None
        if grakel is not None and n <= grakel_max:
            G = to_grakel(X)
            t0 = time.perf_counter()
            grakel.kernels.WeisfeilerLehman(n_iter=3, base_graph_kernel=grakel.kernels.VertexHistogram,
                                            normalize=True).fit_transform(G)
            wl = time.perf_counter() - t0
        rows.append({"n": n, "rge": ours, "wl": wl})
        log(f"  N={n}: RGE fit+transform {ours:.2f} s" + (f", GraKeL WL kernel matrix {wl:.2f} s" if wl else ""))
    slope = loglog_slope([r["n"] for r in rows], [r["rge"] for r in rows]) if len(rows) > 1 else None
    wl_rows = [r for r in rows if r["wl"]]
    wl_slope = loglog_slope([r["n"] for r in wl_rows], [r["wl"] for r in wl_rows]) if len(wl_rows) > 1 else None
    return rows, slope, wl_slope
