"""The main job behind ``pyd2ke [--task strings|timeseries|documents|sets|graphs]``:
embed a bundled real dataset with parameters chosen beforehand, train a
linear model, and compare accuracy and time with an exact-distance baseline.

Each runner prints what the task and the features are, in plain words
(``INTRODUCTIONS``, filled with the run's sizes and parameters), and
returns a ``Report``: rows ``{method, accuracy, fit, predict}`` (seconds),
the indices of the method's row and of the baseline's, and optional extra
lines (the strings task adds a time sweep against N). ``main`` prints the
rows as a table, then what the numbers say: where the method is the better
choice, from the numbers measured in the same run. Only the strings task has
a parameter search (``search=True``); the others take the flag and ignore
it, so that every runner is called alike.
"""

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from pyd2ke import RandomSetEmbedding, RandomStringEmbedding, RandomWarpingSeries, WordMoversEmbedding
from pyd2ke.datasets import load_bbc_news, load_digits_sift, load_japanese_vowels, load_statlog_dna
from pyd2ke.distances import pairwise_distances

from .baselines import knn_baseline, nearest_neighbour_accuracy
from .data import unit_descriptors
from .provenance import build_summary
from .timing import timed

# Chosen by 3-fold cross-validation on the 2000 training strings only, with
# R = 1024 (pyd2ke --search repeats that search; CV accuracy 0.8735 at
# max_length 120 and alpha 1000, against 0.840 at max_length 60). Random
# strings longer than the 60-letter inputs matter: with max_length = 120 the
# substring sampler often returns whole training strings, whose global
# alignment to an input keeps the position of the splice site. A ridge
# classifier is solved in closed form: on 1024 features it fits in a
# fraction of the time LinearSVC needs, at the same accuracy (0.883 against
# LinearSVC's 0.889 at C = 1e-3, which took 3 s against 0.4 s).
DNA_COMPONENTS = 1024
DNA_PARAMS = {"sampler": "ss", "max_length": 120, "alpha": 1e3}
DNA_GRID = {
    "randomstringembedding__max_length": [60, 90, 120],
    "ridgeclassifier__alpha": [3e2, 1e3, 3e3],
}
# k of the exact k-NN baseline, chosen by 5-fold CV on the training strings
# (among DNA_KNN_K; --search repeats it).
DNA_KNN_K = (1, 3, 5, 9, 15, 25)
DNA_K = 25
# The time sweep: training sizes, and test strings per training string (the
# DNA split has 1186 test strings for 2000 training strings).
SWEEP_SIZES = (1000, 2000, 4000, 8000, 16000)
SWEEP_TEST_FRACTION = 0.6

# Chosen by 5-fold cross-validation on the 270 training series only
# (benchmarks/timeseries_accuracy.py repeats the search).
VOWELS_PARAMS = {"max_length": 25, "kernel": "direct", "C": 0.1}

# Chosen by 3-fold cross-validation on the 1488 training documents only
# (benchmarks/sets_accuracy.py --task documents repeats the search): random
# documents made of vocabulary words drawn by frequency beat random words on
# the unit sphere (CV 0.969 against 0.966 at R = 2048).
BBC_PARAMS = {"weighting": "tfidf", "distribution": "vocabulary", "C": 0.01}

# Chosen by 3-fold cross-validation on the 3500 training images only
# (benchmarks/sets_accuracy.py --task sets repeats the search).
SIFT_PARAMS = {"kernel": "soft", "C": 3e-3}

DEFAULT_COMPONENTS_HELP = (f"{DNA_COMPONENTS} for strings, 512 for time series, 2048 for documents, "
                           "1024 for sets, 256 for graphs")


# What each runner prints before its table, in plain words: the data, the
# method and the baseline; the fields come from the run (sizes, parameters).
INTRODUCTIONS = {
    "strings": {
        "data": "StatLog DNA: {n_train} training and {n_test} test DNA strings of 60 letters (A, C, G, T), 3 "
                "classes: exon-intron boundary, intron-exon boundary, neither.",
        "method": "Random String Embedding (RSE) describes each string by {n} numbers: its similarities "
                  "exp(-d / m) to {n} random strings (pieces of training strings up to {max_length} letters), d "
                  "the edit distance (Levenshtein: the fewest letters to insert, delete or change), m the median "
                  "such distance. A linear model on them (here a ridge classifier) approximates a kernel machine on "
                  "the edit distance, at a cost linear in the number of strings.",
        "baseline": "Baseline: exact {k}-NN, the majority label of the {k} training strings nearest in edit "
                    "distance; it compares every test string with every training string.",
    },
    "timeseries": {
        "data": "JapaneseVowels: {n_train} training and {n_test} test recordings of a spoken vowel (12 channels, "
                "7-29 time steps), {n_classes} speakers to tell apart.",
        "method": "Random Warping Series (RWS) describes each series by {n} numbers: its dynamic time warping "
                  "(DTW) distances, which align series of different speeds, to {n} random series of up to "
                  "{max_length} steps. A linear SVM on them approximates a kernel machine on DTW.",
        "baseline": "Baseline: exact 1-NN, the label of the training series nearest in DTW; it compares every "
                    "test series with every training series.",
    },
    "documents": {
        "data": "BBC News: {n_train} training and {n_test} test news articles, {n_classes} topics; words come "
                "with {dim}-d GloVe word vectors.",
        "method": "Word Mover's Embedding (WME) describes each document by {n} numbers: similarities to {n} "
                  "random documents of 1-6 words, measured by the Word Mover's distance (the least total "
                  "distance, between word vectors, to move one document's words onto the other's), so that "
                  "documents using different but related words come out close. A linear SVM on them approximates "
                  "a kernel machine on that distance.",
        "baseline": "Baseline: tf-idf word counts + linear SVM, which uses the words only, not their vectors.",
    },
    "sets": {
        "data": "Digits as SIFT descriptor sets: {n_train} training and {n_test} test images of handwritten "
                "digits, each a set of 1-36 128-d SIFT descriptors, {n_classes} classes.",
        "method": "RandomSetEmbedding describes each set by {n} numbers: similarities exp(-d / m) to {n} random "
                  "sets of 3-15 unit vectors, d the modified Hausdorff distance (the mean distance from a point to "
                  "the nearest point of the other set, the larger of the two directions), m the median such "
                  "distance. A linear SVM on them approximates a kernel machine on that distance.",
        "baseline": "Baseline: exact 1-NN, the label of the training set nearest in modified Hausdorff distance; "
                    "it compares every test set with every training set.",
    },
}


def introduce(task, *parts, **fields):
    """Print the named parts of the task's introduction (default: data,
    method and baseline), each filled with the run's fields."""
    for part in parts or ("data", "method", "baseline"):
        print(INTRODUCTIONS[task][part].format(**fields))


@dataclass
class Report:
    """What a runner measured: the table rows, which row is the method and
    which the baseline it is judged against, and lines to print after the
    table (the strings task's time sweep)."""

    rows: list
    method: int = 0
    baseline: int = 1
    notes: list = field(default_factory=list)


def _row(method, accuracy, fit, predict):
    return {"method": method, "accuracy": accuracy, "fit": fit, "predict": predict}


def _scaled_linear_svc(transformer, C):
    return make_pipeline(transformer, StandardScaler(), LinearSVC(C=C))


def _fit_and_score(model, X_train, y_train, X_test, y_test):
    """(test accuracy, fit seconds, predict seconds) of a pipeline."""
    with warnings.catch_warnings():
        # liblinear stops at max_iter short of full convergence at these C;
        # the parameters were chosen (and the accuracy measured) with that default.
        warnings.simplefilter("ignore", ConvergenceWarning)
        _, fit_seconds = timed(model.fit, X_train, y_train)
    accuracy, predict_seconds = timed(model.score, X_test, y_test)
    return accuracy, fit_seconds, predict_seconds


def _embedding_row(method, transformer, C, X_train, y_train, X_test, y_test):
    """The row of transformer + StandardScaler + LinearSVC(C)."""
    return _row(method, *_fit_and_score(_scaled_linear_svc(transformer, C), X_train, y_train, X_test, y_test))


def _nearest_neighbour_row(method, X_train, y_train, X_test, y_test, metric, n_jobs):
    """1-NN with an exact distance: nothing to fit; predicting is the test x
    training distance matrix and its row minima."""
    start = time.perf_counter()
    D_test = pairwise_distances(X_test, X_train, metric=metric, n_jobs=n_jobs)
    accuracy = nearest_neighbour_accuracy(D_test, y_train, y_test)
    return _row(method, accuracy, 0.0, time.perf_counter() - start)


def exact_knn_predict(X_test, X_train, y_train, k, metric="levenshtein", n_jobs=None, chunk=512):
    """Labels of X_test by majority vote of their k nearest training objects
    under the exact distance (ties: the first class in sorted order).

    The test objects go in chunks, so memory stays at chunk x len(X_train)
    distances however many there are; the cost is one distance per test and
    training pair."""
    if not 1 <= k <= len(X_train):
        raise ValueError(f"k must be in [1, {len(X_train)}] (the number of training objects), got {k}")
    classes, y_index = np.unique(np.asarray(y_train), return_inverse=True)
    predicted = []
    for start in range(0, len(X_test), chunk):
        D = pairwise_distances(X_test[start:start + chunk], X_train, metric=metric, n_jobs=n_jobs)
        nearest = np.argpartition(D, k - 1, axis=1)[:, :k]
        votes = np.zeros((len(D), len(classes)))
        np.add.at(votes, (np.arange(len(D))[:, None], y_index[nearest]), 1.0)
        predicted.append(classes[votes.argmax(axis=1)])
    return np.concatenate(predicted)


def _rse_pipeline(n_components, params, n_jobs, random_state=0):
    rse = RandomStringEmbedding(n_components, sampler=params["sampler"], max_length=params["max_length"],
                                random_state=random_state, n_jobs=n_jobs, dtype=np.float32)
    return make_pipeline(rse, StandardScaler(), RidgeClassifier(alpha=params["alpha"]))


def _cpu_seconds(function, *args):
    """CPU seconds of one call: on one thread this is its running time on an
    idle machine, whatever else the machine runs meanwhile."""
    start = time.process_time()
    function(*args)
    return time.process_time() - start


def time_against_n(strings, n_components, params, k, sizes=SWEEP_SIZES, test_fraction=SWEEP_TEST_FRACTION,
                   seed=0):
    """CPU seconds of RSE + ridge (fit on n strings, predict n * test_fraction)
    and of exact k-NN (the same prediction) for each n in sizes, one thread.

    The strings are drawn with repetition from `strings` (timing only: with
    repeats, an accuracy would mean nothing). The sweep stops once RSE has
    been the faster at two sizes in a row. Returns rows (n, n_test, rse s, knn s)."""
    rng = np.random.default_rng(seed)
    pool = np.asarray(strings, dtype=object)
    rows = []
    with threadpool_limits(1):  # BLAS on one thread too, like the distances
        for n in sizes:
            n_test = int(round(test_fraction * n))
            X_train, X_test = list(pool[rng.integers(0, len(pool), n)]), list(pool[rng.integers(0, len(pool), n_test)])
            # Labels only give the ridge classifier something to fit; none is scored.
            y_train = np.arange(n) % 3
            model = _rse_pipeline(n_components, params, n_jobs=1)
            rse_seconds = _cpu_seconds(lambda: model.fit(X_train, y_train).predict(X_test))
            knn_seconds = _cpu_seconds(exact_knn_predict, X_test, X_train, y_train, min(k, n), "levenshtein", 1)
            rows.append((n, n_test, rse_seconds, knn_seconds))
            if len(rows) >= 2 and all(r[2] < r[3] for r in rows[-2:]):
                break
    return rows


def sweep_lines(rows, k, n_components):
    """The sweep as a table and the sentence that says where RSE wins."""
    lines = [f"\nTime against the number of strings N: fit on N training strings and predict "
             f"{SWEEP_TEST_FRACTION:g} N test strings, drawn from the DNA strings, with the parameters above. "
             f"CPU seconds on one thread, which other programs running on the machine do not inflate:",
             f"{'N':>7}  {'test':>6}  {'RSE + ridge s':>13}  {f'exact {k}-NN s':>13}  {'k-NN / RSE':>10}"]
    for n, n_test, rse, knn in rows:
        lines.append(f"{n:>7}  {n_test:>6}  {rse:>13.2f}  {knn:>13.2f}  {knn / rse:>10.2f}")
    wins = [r for r in rows if r[2] < r[3]]
    if wins:
        n, _, rse, knn = wins[0]
        last_n, _, last_rse, last_knn = rows[-1]
        sentence = f"RSE is the faster from N = {n} training strings on ({rse:.2f} s against {knn:.2f} s)"
        if last_n > n and last_knn / last_rse > knn / rse:
            sentence += (f", and the gap grows with N (k-NN takes {last_knn / last_rse:.1f} times as long at "
                         f"N = {last_n})")
        lines.append(f"{sentence}: exact k-NN computes {SWEEP_TEST_FRACTION:g} N x N distances, RSE "
                     f"{n_components} per string.")
    else:
        n, _, rse, knn = rows[-1]
        lines.append(f"Exact k-NN stayed the faster up to N = {n} ({knn:.2f} s against {rse:.2f} s for RSE) in "
                     f"this run.")
    return lines


def run_strings(n_components=None, n_jobs=None, search=False):
    """StatLog DNA: Random String Embedding against k-NN with the exact Levenshtein distance."""
    n_components = n_components or DNA_COMPONENTS
    data = load_statlog_dna()
    introduce("strings", "data", n_train=len(data.X_train), n_test=len(data.X_test))
    params, k = dict(DNA_PARAMS), DNA_K
    if search:
        grid_search = GridSearchCV(_rse_pipeline(n_components, params, n_jobs), DNA_GRID,
                                   cv=StratifiedKFold(3, shuffle=True, random_state=0))
        _, seconds = timed(grid_search.fit, data.X_train, data.y_train)
        best = grid_search.best_params_
        params.update(max_length=best["randomstringembedding__max_length"], alpha=best["ridgeclassifier__alpha"])
        D_train = pairwise_distances(data.X_train, n_jobs=n_jobs)
        D_test = pairwise_distances(data.X_test, data.X_train, n_jobs=n_jobs)
        k = knn_baseline(D_train, data.y_train, D_test, data.y_test, DNA_KNN_K,
                         StratifiedKFold(5, shuffle=True, random_state=0)).chosen["k"]
        print(f"CV search on the training set ({seconds:.1f} s): max_length {params['max_length']}, ridge alpha "
              f"{params['alpha']:g} (CV accuracy {grid_search.best_score_:.4f}); k-NN: k = {k}")
    introduce("strings", "method", "baseline", n=n_components, max_length=params["max_length"], k=k)
    rse = _rse_pipeline(n_components, params, n_jobs)
    rows = [_row(f"RSE ({n_components} random strings) + ridge classifier",
                 *_fit_and_score(rse, data.X_train, data.y_train, data.X_test, data.y_test))]
    predicted, seconds = timed(exact_knn_predict, data.X_test, data.X_train, data.y_train, k, "levenshtein", n_jobs)
    rows.append(_row(f"exact {k}-NN, edit distance", float(np.mean(predicted == np.asarray(data.y_test))),
                     0.0, seconds))
    sweep = time_against_n(list(data.X_train) + list(data.X_test), n_components, params, k)
    return Report(rows, notes=sweep_lines(sweep, k, n_components))


def run_timeseries(n_components=None, n_jobs=None, search=False):
    """JapaneseVowels: Random Warping Series against 1-NN with the exact DTW distance."""
    data = load_japanese_vowels()
    n_components = n_components or 512
    params = VOWELS_PARAMS
    introduce("timeseries", n_train=len(data.X_train), n_test=len(data.X_test), n_classes=len(data.classes),
              n=n_components, max_length=params["max_length"])
    rws = RandomWarpingSeries(n_components, max_length=params["max_length"], kernel=params["kernel"], derivative=False,
                              random_state=0, n_jobs=n_jobs)
    return Report([
        _embedding_row(f"RWS ({n_components} random series) + linear SVM",
                       rws, params["C"], data.X_train, data.y_train, data.X_test, data.y_test),
        _nearest_neighbour_row("exact 1-NN, DTW", data.X_train, data.y_train, data.X_test, data.y_test, "dtw",
                               n_jobs),
    ])


def run_documents(n_components=None, n_jobs=None, search=False):
    """BBC News: Word Mover's Embedding against tf-idf + LinearSVC."""
    data = load_bbc_news()
    n_components = n_components or 2048
    params = BBC_PARAMS
    introduce("documents", n_train=len(data.y_train), n_test=len(data.y_test), n_classes=len(data.classes),
              dim=data.embeddings.shape[1], n=n_components)
    wme = WordMoversEmbedding(n_components, embeddings=data.embeddings, weighting=params["weighting"],
                              distribution=params["distribution"], random_state=0, n_jobs=n_jobs, dtype=np.float32)
    tfidf_svc = make_pipeline(TfidfTransformer(sublinear_tf=True), LinearSVC(C=1.0))
    return Report([
        _embedding_row(f"WME ({n_components} random documents) + linear SVM",
                       wme, params["C"], data.bow_train, data.y_train, data.bow_test, data.y_test),
        _row("tf-idf + linear SVM",
             *_fit_and_score(tfidf_svc, data.bow_train, data.y_train, data.bow_test, data.y_test)),
    ], notes=["\nWME pays where word counts carry little: short texts that share few words. News articles "
              "share many words, and there tf-idf is hard to beat (no such short-text task is bundled, so this "
              "run cannot measure it)."])


def run_sets(n_components=None, n_jobs=None, search=False):
    """Digits as SIFT descriptor sets: RandomSetEmbedding against 1-NN with the exact modified Hausdorff distance."""
    data = load_digits_sift()
    n_components = n_components or 1024
    introduce("sets", n_train=len(data.y_train), n_test=len(data.y_test), n_classes=len(data.classes),
              n=n_components)
    X_train, X_test = unit_descriptors(data.X_train), unit_descriptors(data.X_test)
    params = SIFT_PARAMS
    rse = RandomSetEmbedding(n_components, kernel=params["kernel"], random_state=0, n_jobs=n_jobs, dtype=np.float32)
    return Report([
        _embedding_row(f"RandomSetEmbedding ({n_components} random sets) + linear SVM",
                       rse, params["C"], X_train, data.y_train, X_test, data.y_test),
        _nearest_neighbour_row("exact 1-NN, modified Hausdorff", X_train, data.y_train, X_test, data.y_test,
                               "modified_hausdorff", n_jobs),
    ])


def run_graphs(n_components=None, n_jobs=None, search=False):
    """MUTAG: RandomGraphEmbedding against GraKeL's Weisfeiler-Lehman and
    shortest-path kernels (when GraKeL is installed), 10-fold CV with every
    parameter chosen inside the training folds (the search is always on)."""
    from .graphs import mutag_rows

    n_components = n_components or 256
    print("MUTAG: 188 molecule graphs (10-28 atoms, 7 atom labels), 2 classes; 10-fold CV, parameters chosen by "
          "5-fold CV inside each training part")
    rows = mutag_rows(n_components, n_jobs, methods=("RGE", "WL", "SP"))
    # fit here is the whole cross-validation (10 folds with their inner searches).
    rows = [_row(f"{r['method']} (10-fold CV mean, std {r['std']:.3f})", r["accuracy"], r["seconds"], 0.0)
            for r in rows]
    # Without GraKeL only the RGE row is there: nothing to judge it against.
    if len(rows) > 1:
        return Report(rows)
    return Report(rows, baseline=None, notes=[
        "No verdict: the baselines (GraKeL's Weisfeiler-Lehman and shortest-path kernels) need GraKeL: "
        "pip install 'pyd2ke[graphs-compare]'"])


TASKS = {"strings": run_strings, "timeseries": run_timeseries, "documents": run_documents, "sets": run_sets,
         "graphs": run_graphs}


def rows_table(rows):
    """The rows as an aligned plain-text table."""
    width = max(len(r["method"]) for r in rows)
    lines = [f"\n{'method':<{width}}  accuracy  fit s  predict s"]
    for r in rows:
        lines.append(f"{r['method']:<{width}}  {r['accuracy']:8.4f}  {r['fit']:5.2f}  {r['predict']:9.2f}")
    return "\n".join(lines)


def verdict(method, baseline):
    """One sentence on the method's row against the baseline's, from the
    measured accuracy and time (fit + predict) alone."""
    name, other = method["method"].split(" (")[0], baseline["method"]
    gain = method["accuracy"] - baseline["accuracy"]
    t_method, t_base = method["fit"] + method["predict"], baseline["fit"] + baseline["predict"]
    accuracy = (f"{'more' if gain > 0 else 'less'} accurate ({method['accuracy']:.4f} against "
                f"{baseline['accuracy']:.4f} for {other})" if abs(gain) >= 0.0005 else f"as accurate as {other}")
    ratio = max(t_method, t_base) / max(min(t_method, t_base), 1e-9)
    times = f"({t_method:.2f} s against {t_base:.2f} s, fit + predict, wall-clock)"
    if ratio < 1.05:  # "1.0 times slower" says nothing
        speed = f"as fast {times}"
    else:
        speed = f"{ratio:.1f} times {'faster' if t_method < t_base else 'slower'} {times}"
    if gain <= 0 and t_method >= t_base:
        return f"On this task {name} is not the better choice: it is {accuracy} and {speed}."
    if gain > 0 and t_method < t_base:
        return f"On this task {name} wins outright: it is {accuracy} and {speed}."
    return f"On this task {name} is {accuracy}, and {speed} at this size."


def main(task, n_components=None, n_jobs=None, search=False):
    """Run one task and print its table and what it says; returns the exit status."""
    print(build_summary())
    # The features run on n_jobs OpenMP threads; BLAS (the linear models'
    # solves) on one thread, so that the two thread pools do not compete for
    # the same cores: on 2 shared cores that made the ridge fit 2-3 times slower.
    with threadpool_limits(1, user_api="blas"):
        report = TASKS[task](n_components=n_components, n_jobs=n_jobs, search=search)
    print(rows_table(report.rows))
    if report.baseline is not None:
        print(verdict(report.rows[report.method], report.rows[report.baseline]))
    for line in report.notes:
        print(line)
    return 0
