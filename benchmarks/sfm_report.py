"""SFMEDM / SFMCGK report: the measured numbers of issue 5's acceptance
criteria, all in one run.

    python benchmarks/sfm_report.py                 # everything
    python benchmarks/sfm_report.py --parts 1,2     # approximation tables, ESP/CGK constants
    python benchmarks/sfm_report.py --parts 4 --speed-rows 20000

Parts: 1 approximation error (Table IV protocol: 300 StatLog DNA strings,
mean |k - z'z| over pairs i <= j, SFM and the explicit-matrix FM, beta = 1
and beta = median pairwise L1); 2 ESP edit/move constant c and the CGK
Hamming/edit ratio; 3 memory of the hashed map at d = 2^63 vs an explicit
FM; 4 speed (ESP chars/s; HashedRandomFourier RBF vs RBFSampler at equal
threads); 5 SFMEDM / SFMCGK / RSE + LinearSVC test accuracy.
"""

import argparse
import math
import os
import time
import tracemalloc
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import RBFSampler
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from pyd2ke import RandomStringEmbedding, build_info
from pyd2ke.datasets import load_digits_chaincode, load_statlog_dna
from pyd2ke.fourier import HashedRandomFourier
from pyd2ke.sketches import CGKEmbedding, esp_sketches

D_VALUES = [128, 512, 2048, 8192]
PAPER_BETA1 = {128: 0.0705, 512: 0.0353, 2048: 0.0176, 8192: 0.0088}


def dense_vectors(S):
    """ESP vectors as a dense matrix over the labels that occur (small data only)."""
    labels, column = np.unique(S.labels, return_inverse=True)
    rows = np.repeat(np.arange(len(S)), np.diff(S.offsets))
    dense = np.zeros((len(S), len(labels)))
    np.add.at(dense, (rows, column), S.counts)
    return dense


def l1_matrix(S):
    """Exact pairwise L1 between ESP vectors, and the vectors themselves."""
    dense = dense_vectors(S)
    return np.abs(dense[:, None, :] - dense[None, :, :]).sum(-1), dense


def mean_pair_error(K, Z):
    iu = np.triu_indices(len(K))  # i <= j, as in the paper
    return float(np.abs(K - Z @ Z.T)[iu].mean())


def explicit_fm(dense, D, beta, seed):
    """The paper's FM: an explicit Cauchy matrix of shape (d, D/2) (baseline only)."""
    rng = np.random.default_rng(seed)
    W = rng.standard_cauchy(size=(dense.shape[1], D // 2)) / beta
    P = dense @ W
    return np.hstack([np.cos(P), np.sin(P)]) * math.sqrt(2.0 / D)


def part1():
    print("## 1. Approximation error, Table IV protocol (300 StatLog DNA strings, ESP vectors)\n")
    X = load_statlog_dna().X_train[:300]
    S = esp_sketches(X)
    L1, dense = l1_matrix(S)
    median = float(np.median(L1[np.triu_indices(300, 1)]))
    print(f"d = {dense.shape[1]} distinct ESP labels; median pairwise L1 = {median:g}\n")
    for beta in (1.0, median):
        K = np.exp(-L1 / beta)
        print(f"beta = {beta:g}: mean exact kernel off the diagonal = {K[np.triu_indices(300, 1)].mean():.4g}\n")
        print("| D | SFMEDM (hashed) | FMEDM (explicit matrix) | paper (beta = 1) | SFM / paper | err * sqrt(D) |")
        print("|---|---|---|---|---|---|")
        for D in D_VALUES:
            Z = HashedRandomFourier(beta=beta, n_components=D, random_state=0).fit_transform(S)
            e_sfm = mean_pair_error(K, Z)
            e_fm = mean_pair_error(K, explicit_fm(dense, D, beta, seed=1))
            if beta == 1.0:
                paper, ratio = f"{PAPER_BETA1[D]:.4f}", f"{e_sfm / PAPER_BETA1[D]:.3f}"
            else:
                paper = ratio = "-"
            print(f"| {D} | {e_sfm:.4f} | {e_fm:.4f} | {paper} | {ratio} | {e_sfm * math.sqrt(D):.3f} |")
        print()


def log_star(n):
    k, v = 0, float(n)
    while v > 1:
        v = math.log2(v)
        k += 1
    return k


def part2_impl():
    print("## 2. ESP edit / move constants and the CGK Hamming / edit ratio\n")
    rng = np.random.default_rng(0)
    letters = np.array(list("ACGT"))
    print("| L | single edits: max c | median c | block moves (L/10): max c | median c |")
    print("|---|---|---|---|---|")
    for L in (100, 1000, 10000, 100000):
        bound = math.log2(L) * log_star(L)
        edit, move = [], []
        for rep in range(30 if L < 100000 else 10):
            a = "".join(letters[rng.integers(0, 4, size=L)])
            p = int(rng.integers(L))
            kind = rep % 3
            b = (a[:p] + ("A" if a[p] != "A" else "C") + a[p + 1:]) if kind == 0 else (
                a[:p] + a[p + 1:] if kind == 1 else a[:p] + "G" + a[p:])
            n = L // 10
            s = int(rng.integers(L - n))
            rest = a[:s] + a[s + n:]
            t = int(rng.integers(len(rest)))
            m = rest[:t] + a[s:s + n] + rest[t:]
            V = dense_vectors(esp_sketches([a, b, m]))
            edit.append(np.abs(V[0] - V[1]).sum() / bound)
            move.append(np.abs(V[0] - V[2]).sum() / bound)
        print(f"| {L} | {max(edit):.3f} | {np.median(edit):.3f} | {max(move):.3f} | {np.median(move):.3f} |")
    print("\nc = ||V(S) - V(S')||_1 / (log2 L * log* L).\n")
    # CGK: Hamming distance of walks / edit distance, for k random substitutions/indels on length-200 strings.
    ratios = {}
    for k in (1, 2, 4, 8):
        r = []
        for rep in range(100):
            a = "".join(letters[rng.integers(0, 4, size=200)])
            b = list(a)
            for _ in range(k):
                op = rng.integers(3)
                p = int(rng.integers(len(b)))
                if op == 0:
                    b[p] = str(letters[rng.integers(4)])
                elif op == 1 and len(b) > 1:
                    del b[p]
                else:
                    b.insert(p, str(letters[rng.integers(4)]))
            b = "".join(b)
            ed = _levenshtein(a, b)
            W = CGKEmbedding(output="symbols", output_length=600, random_state=rep).fit([a, b]).transform([a, b])
            if ed:
                r.append(np.count_nonzero(W[0] != W[1]) / ed)
        ratios[k] = (float(np.median(r)), float(np.mean(r)))
    print("| edits | CGK Hamming / edit distance: median | mean |")
    print("|---|---|---|")
    for k, (med, mean) in ratios.items():
        print(f"| {k} | {med:.2f} | {mean:.2f} |")
    print()


def _levenshtein(a, b):
    from pyd2ke.distances import pairwise_distances

    return int(pairwise_distances([a], [b], metric="levenshtein")[0, 0])


def part3():
    print("## 3. Memory: hashed weights at d = 2^63 vs an explicit matrix\n")
    ids = np.sort(np.random.default_rng(0).integers(0, 2**63, size=10000, dtype=np.uint64))
    from pyd2ke.sketches import ESPSketches

    S = ESPSketches(ids, np.ones(len(ids)), np.arange(0, 10001, 100))
    h = HashedRandomFourier(n_components=16384, random_state=0).fit(S)
    tracemalloc.start()
    Z = h.transform(S)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"HashedRandomFourier, d = 2^63, D = 16384, 100 rows: peak Python allocations {peak / 2**20:.1f} MiB "
          f"(the output alone is {Z.nbytes / 2**20:.1f} MiB); C++ scratch is D/2 doubles per thread.")
    print(f"An explicit FM at d = 10^6, D = 16384 would store 10^6 x 8192 doubles = {1e6 * 8192 * 8 / 2**30:.0f} GiB.\n")


def part4(rows):
    print("## 4. Speed, one run\n")
    info = build_info()
    print(f"build: {info}; cores: {os.cpu_count()}\n")
    rng = np.random.default_rng(0)
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    strings = ["".join(r) for r in letters[rng.integers(0, 20, size=(100000, 300))]]
    # CPU seconds next to wall-clock ones: on a shared machine the wall clock
    # also counts the time other processes hold the cores.
    print("| ESP, 10^5 protein strings x 300 | threads | wall s (median of 5) | CPU s | chars/s (wall) | "
          "chars/s per CPU-second |")
    print("|---|---|---|---|---|---|")
    for threads in (1, 2):
        ts, cs = [], []
        for _ in range(5):
            t, c = time.perf_counter(), time.process_time()
            esp_sketches(strings, n_jobs=threads)
            ts.append(time.perf_counter() - t)
            cs.append(time.process_time() - c)
        sec, cpu = float(np.median(ts)), float(np.median(cs))
        print(f"| ESP | {threads} | {sec:.3f} | {cpu:.3f} | {3e7 / sec:.3g} | {3e7 / cpu:.3g} |")
    del strings
    X = rng.standard_normal((rows, 128))
    gamma = 1.0 / 128
    print(f"\n| RBF features, X ({rows}, 128), D = 4096 | threads | pyd2ke HashedRandomFourier s | "
          "sklearn RBFSampler.transform s | speed-up |")
    print("|---|---|---|---|---|")
    chunk = 10000  # both outputs in row chunks: two full (10^5, 4096) float64 arrays need 6.5 GB
    for threads in (1, 2):
        h = HashedRandomFourier(kernel="rbf", gamma=gamma, n_components=4096, random_state=0, n_jobs=threads).fit(X)
        r = RBFSampler(gamma=gamma, n_components=4096, random_state=0).fit(X)
        th, tr, ch, cr = [], [], [], []
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            for s in range(0, rows, chunk):
                h.transform(X[s:s + chunk])
            th.append(time.perf_counter() - t)
            ch.append(time.process_time() - c)
            with threadpool_limits(limits=threads):
                t, c = time.perf_counter(), time.process_time()
                for s in range(0, rows, chunk):
                    r.transform(X[s:s + chunk])
                tr.append(time.perf_counter() - t)
                cr.append(time.process_time() - c)
        a, b = float(np.median(th)), float(np.median(tr))
        print(f"| RBF | {threads} | {a:.3f} (CPU {np.median(ch):.3f}) | {b:.3f} (CPU {np.median(cr):.3f}) | "
              f"{b / a:.2f}x |")
    print()


C_GRID = [1e-3, 1e-2, 1e-1]
BETA_FACTORS = [1 / 8, 1 / 4, 1 / 2, 1]


def svm(C):
    return make_pipeline(StandardScaler(), LinearSVC(C=C, dual="auto"))


def cv_score(Z, y, C):
    from sklearn.model_selection import cross_val_score

    return cross_val_score(svm(C), Z, y, cv=StratifiedKFold(3, shuffle=True, random_state=0)).mean()


def choose(features, y, betas):
    """(beta, C) with the best 3-fold CV accuracy on the training part; features(beta) -> Z_train."""
    best = (-1.0, None, None)
    for beta in betas:
        Z = features(beta)
        for C in C_GRID:
            score = cv_score(Z, y, C)
            if score > best[0]:
                best = (score, beta, C)
    return best[1], best[2]


def part5(d_values):
    print("## 5. Accuracy: features + StandardScaler + LinearSVC\n")
    print("beta (a multiple of the median pairwise L1 of 300 training strings) and C are chosen by 3-fold CV "
          f"on the training part at D = {d_values[0]} and kept for larger D; the test part is scored once per cell.\n")
    warnings.simplefilter("ignore", ConvergenceWarning)
    datasets = (("StatLog DNA", load_statlog_dna(), 120), ("digit chain codes", load_digits_chaincode(), 100))
    for name, data, rse_length in datasets:
        ytr, yte = data.y_train, data.y_test
        S_train, S_test = esp_sketches(data.X_train), esp_sketches(data.X_test)
        L1, _ = l1_matrix(S_train[:300])
        median_esp = float(np.median(L1[np.triu_indices(300, 1)]))
        cgk = CGKEmbedding(random_state=0).fit(data.X_train)
        C_train, C_test = cgk.transform(data.X_train), cgk.transform(data.X_test)
        Cd = C_train[:300].toarray()
        median_cgk = float(np.median(np.abs(Cd[:, None, :] - Cd[None, :, :]).sum(-1)[np.triu_indices(300, 1)]))
        D0 = d_values[0]
        rows = {}
        chosen = {}
        for method, (Vtr, Vte, median) in {"SFMEDM": (S_train, S_test, median_esp),
                                           "SFMCGK": (C_train, C_test, median_cgk)}.items():
            def feats(beta, D=D0, V=Vtr):
                return HashedRandomFourier(beta=beta, n_components=D, random_state=0).fit(V).transform(V)

            beta, C = choose(feats, ytr, [f * median for f in BETA_FACTORS])
            chosen[method] = (beta, C)
            for D in d_values:
                t = time.perf_counter()
                h = HashedRandomFourier(beta=beta, n_components=D, random_state=0).fit(Vtr)
                Ztr, Zte = h.transform(Vtr), h.transform(Vte)
                seconds = time.perf_counter() - t
                acc = svm(C).fit(Ztr, ytr).score(Zte, yte)
                rows.setdefault(D, {})[method] = (acc, seconds)
        rse_C = None
        for D in d_values:
            if D > 2048:
                break
            rse = RandomStringEmbedding(D, sampler="ss", max_length=rse_length, random_state=0).fit(data.X_train)
            Rtr, Rte = rse.transform(data.X_train), rse.transform(data.X_test)
            if rse_C is None:
                rse_C = max(C_GRID, key=lambda C: cv_score(Rtr, ytr, C))
            rows[D]["RSE"] = (svm(rse_C).fit(Rtr, ytr).score(Rte, yte), 0.0)
        print(f"### {name} ({len(data.X_train)} train / {len(data.X_test)} test)\n")
        print(f"chosen: SFMEDM beta = {chosen['SFMEDM'][0]:g}, C = {chosen['SFMEDM'][1]:g}; SFMCGK beta = "
              f"{chosen['SFMCGK'][0]:g}, C = {chosen['SFMCGK'][1]:g}; RSE (ss, D_max = {rse_length}) C = {rse_C:g}\n")
        print("| D | SFMEDM test acc | SFMCGK test acc | RSE test acc | SFMEDM features s | SFMCGK features s |")
        print("|---|---|---|---|---|---|")
        for D in d_values:
            r = rows[D]
            rse = f"{r['RSE'][0]:.4f}" if "RSE" in r else "not run"
            print(f"| {D} | {r['SFMEDM'][0]:.4f} | {r['SFMCGK'][0]:.4f} | {rse} | {r['SFMEDM'][1]:.2f} | "
                  f"{r['SFMCGK'][1]:.2f} |", flush=True)
        print(flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="1,2,3,4,5")
    parser.add_argument("--speed-rows", type=int, default=100000)
    parser.add_argument("--accuracy-d", default="512,2048,8192")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    if "1" in parts:
        part1()
    if "2" in parts:
        part2_impl()
    if "3" in parts:
        part3()
    if "4" in parts:
        part4(args.speed_rows)
    if "5" in parts:
        part5([int(d) for d in args.accuracy_d.split(",")])


if __name__ == "__main__":
    main()
