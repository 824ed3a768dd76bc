"""Random Maclaurin features: approximation error against D (with the fitted
log-log slope), H0/1 at small D, accuracy against exact-kernel SVMs on
scikit-learn's digits and breast_cancer, and transform speed against the bare
BLAS product it needs and scikit-learn's PolynomialCountSketch, in one run.

    python benchmarks/maclaurin_report.py [--skip-speed] [--repeats 5]
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import PolynomialCountSketch
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import Normalizer, StandardScaler
from sklearn.svm import SVC, LinearSVC

from threadpoolctl import threadpool_limits

from pyd2ke import RandomMaclaurin
from timing import median_time  # benchmarks/timing.py

KERNELS = {
    "poly d=2": dict(kernel="poly", degree=2, coef0=1.0),
    "poly d=3": dict(kernel="poly", degree=3, coef0=1.0),
    "poly d=10": dict(kernel="poly", degree=10, coef0=1.0),
    "exp": dict(kernel="exp", gamma=1.0),
}


def convergence():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 20))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    sizes = [100, 300, 1000, 3000, 10000]
    print("\nMean |K - Z Z'| over 200 points on the unit sphere of R^20")
    print("| kernel | " + " | ".join(f"D={d}" for d in sizes) + " | slope |")
    print("|---" * (len(sizes) + 2) + "|")
    for name, params in KERNELS.items():
        errors = []
        for D in sizes:
            rm = RandomMaclaurin(D, random_state=0, **params).fit(X)
            Z = rm.transform(X)
            errors.append(np.abs(Z @ Z.T - rm.exact_kernel(X)).mean())
        slope = np.polyfit(np.log(sizes), np.log(errors), 1)[0]
        print(f"| {name} | " + " | ".join(f"{e:.4g}" for e in errors) + f" | {slope:.3f} |")
    for name in ("poly d=2", "poly d=3", "poly d=10"):
        row = []
        for h01 in (False, True):
            rm = RandomMaclaurin(100, h01=h01, random_state=0, **KERNELS[name]).fit(X)
            Z = rm.transform(X)
            row.append(np.abs(Z @ Z.T - rm.exact_kernel(X)).mean())
        print(f"H0/1 at D=100, {name}: plain {row[0]:.4g}, H0/1 {row[1]:.4g}")


def accuracy():
    print("\nRandomMaclaurin (D=2000) + LinearSVC vs exact-kernel SVC (rows L2-normalised; 70/30 split, seed 0)")
    print("| data | kernel | RM+LinearSVC acc | RM fit+train s | exact SVC acc | SVC train s |")
    print("|---|---|---|---|---|---|")
    for data_name, loader in (("digits", load_digits), ("breast_cancer", load_breast_cancer)):
        X, y = loader(return_X_y=True)
        X = Normalizer().fit_transform(StandardScaler().fit_transform(X))
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        for name in ("poly d=3", "exp"):
            params = KERNELS[name]
            t0 = time.perf_counter()
            rm = RandomMaclaurin(2000, random_state=0, **params).fit(Xtr)
            Ztr, Zte = rm.transform(Xtr), rm.transform(Xte)
            clf = LinearSVC(C=1.0).fit(Ztr, ytr)
            t_rm = time.perf_counter() - t0
            acc_rm = clf.score(Zte, yte)
            t0 = time.perf_counter()
            svc = SVC(kernel="precomputed", C=1.0).fit(rm.exact_kernel(Xtr), ytr)
            t_svc = time.perf_counter() - t0
            acc_svc = svc.score(rm.exact_kernel(Xte, Xtr), yte)
            print(f"| {data_name} | {name} | {acc_rm:.4f} | {t_rm:.2f} | {acc_svc:.4f} | {t_svc:.3f} |")


def speed(repeats):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((100000, 128))
    print(f"\nTransform of X {X.shape}, D=4096, median of {repeats} (BLAS: numpy's, limited to n_jobs threads)")
    for n_jobs in (1, 2):
        rm = RandomMaclaurin(4096, kernel="poly", degree=2, random_state=0, n_jobs=n_jobs).fit(X[:100])
        W = rm.rademacher_.astype(np.float64)
        pcs = PolynomialCountSketch(degree=2, n_components=4096, random_state=0).fit(X[:100])
        t_rm = median_time(lambda: rm.transform(X), repeats)
        with threadpool_limits(limits=n_jobs, user_api="blas"):  # the same thread count
            t_blas = median_time(lambda: X @ W, repeats)
        # PolynomialCountSketch holds complex FFTs of the whole input (over 24 GB
        # here): it transforms 10000-row chunks, which only helps it.
        t_pcs = median_time(lambda: [pcs.transform(X[i : i + 10000]) for i in range(0, len(X), 10000)], repeats)
        print(f"n_jobs={n_jobs}: RandomMaclaurin {t_rm:.3f} s; bare X @ W ({W.shape[1]} columns) {t_blas:.3f} s "
              f"-> ratio {t_rm / t_blas:.2f}; PolynomialCountSketch(degree=2, 10000-row chunks) {t_pcs:.3f} s -> "
              f"{t_pcs / t_rm:.2f}x slower than RandomMaclaurin")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    convergence()
    accuracy()
    if not args.skip_speed:
        speed(args.repeats)


if __name__ == "__main__":
    main()
