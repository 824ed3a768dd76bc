"""Density kernels on sample sets (JS / Hellinger / TV, with the L2 and MMD
baselines): the paper's Gram-matrix experiment (Section 5.1, Appendix A),
the mixture-component regression (Section 5.2) and time per set against the
number of sets and the set size, in one run.

    python benchmarks/density_report.py [--quick] [--sections gram,regression,speed]
                                        [--n-train N] [--set-sizes 200,800]

Gram matrix: 50 mixtures of five truncated Gaussians on [0, 1]^2, 2500
samples each; the true kernel values exp(-d^2 / (2 sigma^2)) come from the
true densities integrated on a 512 x 512 midpoint grid; sigma is the
estimator's sigma_ (median heuristic); R^2 is the squared correlation over
the 1225 pairs (the paper's figure), the coefficient of determination
1 - SS_res / SS_tot is printed next to it.

Regression: the paper's recipe for Y ~ U{1..10} components; each component
N(mu, a A A' + B) truncated to the box [-5, 5]^2 of the means (the paper
says "truncated" but not where). 4000 training sets (the paper's figure
also has 8000 and 16000: --n-train), 2000 test sets. The
KDE bandwidth (0.5..8 x the cv rule; MMD: the base bandwidth, 1/16..1 x the
median rule), sigma (0.25..16 x the median rule) and, for JS and TV,
n_lambdas (5 or 10) are picked on a validation split (the last 10% of the
training sets) with the exact pre-RFF embedding and scikit-learn's RBFSampler (1000 features) on top;
then the estimator itself with D = 5000 features on all training sets, and
RidgeCV picks the ridge penalty by leave-one-out. A paired bootstrap over
the test sets gives intervals for the RMSE differences.
"""

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from scipy.spatial.distance import pdist, squareform
from scipy.stats import norm, truncnorm
from sklearn.base import clone
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeCV
from threadpoolctl import threadpool_limits

from pyd2ke.density import DensityKernelFeatures, MeanEmbeddingFeatures

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import median_time  # noqa: E402  benchmarks/timing.py

ALPHAS = np.logspace(-6, 2, 17)


# ---- Section 5.1 / Appendix A --------------------------------------------------
def box_mixtures(n_sets, n_samples, seed=0, k=5):
    """Mixtures of k equally weighted Gaussians N(m, diag(s^2)) truncated to
    [0, 1]^2, m ~ U[0, 1]^2, s ~ U[0.05, 0.15]^2: (parameters, sample sets)."""
    rng = np.random.default_rng(seed)
    params, sets = [], []
    for _ in range(n_sets):
        m = rng.uniform(0.0, 1.0, (k, 2))
        s = rng.uniform(0.05, 0.15, (k, 2))
        comp = rng.integers(0, k, n_samples)
        X = np.empty((n_samples, 2))
        for d in range(2):  # diagonal covariance: the truncation factorises
            lo, hi = (0.0 - m[comp, d]) / s[comp, d], (1.0 - m[comp, d]) / s[comp, d]
            X[:, d] = truncnorm.rvs(lo, hi, loc=m[comp, d], scale=s[comp, d], random_state=rng)
        params.append((m, s))
        sets.append(X)
    return params, sets


def box_mixture_density(m, s, grid):
    """The true density on the midpoint grid of [0, 1]^2 (grid^2 values)."""
    t = (np.arange(grid) + 0.5) / grid
    p = np.zeros((grid, grid))
    for j in range(len(m)):
        f = []
        for d in range(2):
            mass = norm.cdf((1.0 - m[j, d]) / s[j, d]) - norm.cdf(-m[j, d] / s[j, d])
            f.append(norm.pdf((t - m[j, d]) / s[j, d]) / (s[j, d] * mass))
        p += np.outer(f[0], f[1])
    return (p / len(m)).ravel()


def kappa(divergence, p, q):
    """Closed-form kappa(p, q) of Table 1 (natural log for JS)."""
    if divergence == "js":
        r = 0.5 * (p + q)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(p > 0, p * np.log(p / r), 0.0)
            b = np.where(q > 0, q * np.log(q / r), 0.0)
        return 0.5 * (a + b)
    if divergence == "hellinger":
        return 0.5 * (np.sqrt(p) - np.sqrt(q)) ** 2
    return np.abs(p - q)


def true_divergences(params, divergences, grid=512):
    P = np.array([box_mixture_density(m, s, grid) for m, s in params])
    n = len(P)
    out = {d: np.zeros((n, n)) for d in divergences}
    for i in range(n):
        for j in range(i + 1, n):
            for d in divergences:
                out[d][i, j] = out[d][j, i] = kappa(d, P[i], P[j]).mean()
    return out


def squared_correlation(x, y):
    return float(np.corrcoef(x, y)[0, 1] ** 2)


def determination(truth, estimate):
    return float(1.0 - ((truth - estimate) ** 2).sum() / ((truth - truth.mean()) ** 2).sum())


def gram(args):
    n_sets = 20 if args.quick else 50
    seeds = range(2 if args.quick else 5)
    t0 = time.perf_counter()
    params, sets = box_mixtures(n_sets, 2500, seed=0)
    divergences = ("js", "hellinger", "tv")
    truth = true_divergences(params, divergences)
    # Integration check: the same pairs on a grid twice as fine.
    fine = true_divergences(params[:3], ("js",), grid=1024)["js"]
    print(f"\nGram matrix: {n_sets} mixtures of 5 truncated Gaussians on [0,1]^2, 2500 samples each "
          f"(data and true values {time.perf_counter() - t0:.1f} s; JS on a 512^2 vs 1024^2 grid differs "
          f"by at most {np.abs(fine - truth['js'][:3, :3]).max():.2g})")
    iu = np.triu_indices(n_sets, 1)
    print("R^2 = squared correlation with the true kernel values over all pairs (coefficient of determination "
          "in brackets); D = 7000; mean over estimator seeds, min in the last column")
    print("| divergence | bandwidth | sigma_ | R^2 A features (exact RBF) | R^2 D=7000 | min R^2 A / D=7000 | s per fit+transform |")
    print("|---|---|---|---|---|---|---|")
    per_seed = []
    # Defaults first; then the bandwidth's effect, and more lambdas (the
    # seed-to-seed spread of JS and TV comes from the M lambdas drawn).
    configs = [(d, 1.0, 5) for d in divergences] + [("js", 0.5, 5), ("js", 2.0, 5), ("js", 1.0, 10), ("tv", 1.0, 20)]
    for divergence, scale, n_lambdas in configs:
        rows = []
        for seed in seeds:
            t0 = time.perf_counter()
            est = DensityKernelFeatures(divergence, n_components=7000, n_lambdas=n_lambdas, random_state=seed)
            if scale != 1.0:  # sensitivity: the fitted (cv) bandwidth times scale
                est.set_params(bandwidth=clone(est).fit(sets).bandwidth_ * scale)
            Z = est.fit(sets).transform(sets)
            elapsed = time.perf_counter() - t0
            A = est.projection_features(sets)
            c = 0.5 / est.sigma_**2
            K_true = np.exp(-c * truth[divergence])[iu]
            K_pc = np.exp(-c * squareform(pdist(A, "sqeuclidean")))[iu]
            K_rks = (Z @ Z.T)[iu]
            rows.append((est.bandwidth_, est.sigma_,
                         squared_correlation(K_true, K_pc), determination(K_true, K_pc),
                         squared_correlation(K_true, K_rks), determination(K_true, K_rks), elapsed))
        r = np.array(rows)
        mean = r.mean(axis=0)
        label = divergence if scale == 1.0 else f"{divergence}, cv bandwidth x{scale}"
        if n_lambdas != 5 and divergence != "hellinger":
            label += f", n_lambdas={n_lambdas}"
        print(f"| {label} | {mean[0]:.4f} | {mean[1]:.3f} | {mean[2]:.4f} ({mean[3]:.3f}) | "
              f"{mean[4]:.4f} ({mean[5]:.3f}) | {r[:, 2].min():.4f} / {r[:, 4].min():.4f} | {mean[6]:.2f} |")
        per_seed.append(f"{label}: A " + " ".join(f"{v:.4f}" for v in r[:, 2])
                        + "; D=7000 " + " ".join(f"{v:.4f}" for v in r[:, 4]))
    print("per seed (random_state " + ", ".join(map(str, seeds)) + "):")
    for line in per_seed:
        print("  " + line)
    print("paper (JS): 0.974 with the A features, 0.966 with D = 7000")


# ---- Section 5.2 ---------------------------------------------------------------
def component_sets(n_sets, n_samples, seed):
    """The paper's mixture-component data: (sample sets, number of components)."""
    rng = np.random.default_rng(seed)
    sets, y = [], rng.integers(1, 11, n_sets)
    for k in y:
        mu = rng.uniform(-5.0, 5.0, (k, 2))
        A = rng.uniform(-1.0, 1.0, (k, 2, 2))
        cov = rng.uniform(1.0, 4.0, (k, 1, 1)) * A @ A.transpose(0, 2, 1)
        cov[:, [0, 1], [0, 1]] += rng.uniform(0.0, 1.0, (k, 2))
        L = np.linalg.cholesky(cov)
        X = np.empty((n_samples, 2))
        todo = np.arange(n_samples)
        while todo.size:  # truncation to [-5, 5]^2 by rejection
            comp = rng.integers(0, k, todo.size)
            draw = mu[comp] + np.einsum("nij,nj->ni", L[comp], rng.standard_normal((todo.size, 2)))
            inside = np.all(np.abs(draw) <= 5.0, axis=1)
            X[todo[inside]] = draw[inside]
            todo = todo[~inside]
        sets.append(X)
    return sets, y.astype(np.float64)


def rmse(a, b):
    return float(np.sqrt(np.mean((a - b) ** 2)))


def _select(make, embed, width0, width_scales, sigma_scales, train, y_train, n_val, D_select):
    """The (validation RMSE, width, width scale, sigma, sigma scale) with the
    lowest RMSE on the validation split: the pre-RFF embedding is computed
    once per width, and the RBF kernel on it is approximated by
    scikit-learn's RBFSampler with D_select features."""
    fit_part, y_fit, y_val = train[:-n_val], y_train[:-n_val], y_train[-n_val:]
    best = None
    for width_scale in width_scales:
        width = width0 * width_scale
        est = make(width, "median", 2).fit(fit_part)
        E = embed(est, train)
        for scale in sigma_scales:
            sigma = est.sigma_ * scale
            rbf = RBFSampler(gamma=0.5 / sigma**2, n_components=D_select, random_state=0).fit(E[:1])
            model = RidgeCV(alphas=ALPHAS).fit(rbf.transform(E[:-n_val]), y_fit)
            score = rmse(model.predict(rbf.transform(E[-n_val:])), y_val)
            if best is None or score < best[0]:
                best = (score, width, width_scale, sigma, scale)
    return best


def _fit_predict(make, width, sigma, train, y_train, test, D_final):
    """The estimator itself with D_final features on all training sets, and
    RidgeCV (leave-one-out) on top: test predictions and the chosen alpha."""
    t0 = time.perf_counter()
    est = make(width, sigma, D_final).fit(train)
    Z_train, Z_test = est.transform(train), est.transform(test)
    t_features = time.perf_counter() - t0
    model = RidgeCV(alphas=ALPHAS).fit(Z_train, y_train)
    return model.predict(Z_test), model.alpha_, t_features


def _paired_bootstrap(pred_a, pred_b, y, rng, rounds=2000):
    """95% interval of RMSE(a) - RMSE(b) over test-set resamples."""
    idx = rng.integers(0, len(y), (rounds, len(y)))
    ea, eb = (pred_a - y) ** 2, (pred_b - y) ** 2
    diff = np.sqrt(ea[idx].mean(axis=1)) - np.sqrt(eb[idx].mean(axis=1))
    return np.percentile(diff, [2.5, 97.5])


def regression(args):
    n_train, n_test = (1000, 500) if args.quick else (4000, 2000)
    n_train = args.n_train or n_train
    sizes = (200,) if args.quick else (200, 800)
    if args.set_sizes:
        sizes = tuple(int(n) for n in args.set_sizes.split(","))
    D_select, D_final = (500, 1000) if args.quick else (1000, 5000)
    n_val = n_train // 10
    sigma_scales = (0.5, 1.0, 2.0) if args.quick else (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
    kde_scales = (0.5, 1, 2) if args.quick else (0.5, 1, 2, 4, 8)
    mmd_scales = (1 / 8, 1 / 4, 1 / 2) if args.quick else (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1)
    lambda_counts = (5,) if args.quick else (5, 10)
    print(f"\nMixture-component regression: {n_train} training sets (the last 10% for validation), {n_test} test "
          f"sets; ridge on D = {D_final} features (KDE/base bandwidth, sigma and, for JS/TV, n_lambdas picked on "
          f"the validation split with {D_select} RBFSampler features of the pre-RFF embedding)", flush=True)
    results, notes, intervals = {}, [], []
    rng = np.random.default_rng(0)
    for n in sizes:
        train, y_train = component_sets(n_train, n, seed=1)
        test, y_test = component_sets(n_test, n, seed=2)
        predictions = {"constant": np.full(n_test, y_train.mean())}
        h0 = DensityKernelFeatures("js", n_components=2, random_state=0).fit(train).bandwidth_
        b0 = MeanEmbeddingFeatures(2, random_state=0).fit(train).base_bandwidth_
        for name in ("js", "hellinger", "tv", "l2", "mmd"):
            # One option per n_lambdas tried: (n_lambdas, make, embed, base width, width scales).
            if name == "mmd":
                def make(width, sigma, D):
                    return MeanEmbeddingFeatures(D, base_bandwidth=width, sigma=sigma, random_state=0)

                options = [(None, make, lambda est, X: est.mean_embeddings(X), b0, mmd_scales)]
                label = f"base bandwidth (median {b0:.4f})"
            else:
                options = []
                # n_lambdas only matters where the measure is not a point mass (JS, TV).
                for M in lambda_counts if name in ("js", "tv") else lambda_counts[:1]:
                    def make(width, sigma, D, divergence=name, M=M):
                        return DensityKernelFeatures(divergence, n_components=D, bandwidth=width, sigma=sigma,
                                                     n_lambdas=M, random_state=0)

                    options.append((M, make, lambda est, X: est.projection_features(X), h0, kde_scales))
                label = f"KDE bandwidth (cv {h0:.4f})"
            candidates = [(*_select(make, embed, width0, scales, sigma_scales, train, y_train, n_val, D_select),
                           M, make) for M, make, embed, width0, scales in options]
            score, width, width_scale, sigma, scale, M, make = min(candidates, key=lambda c: c[0])
            predictions[name], alpha, t_features = _fit_predict(make, width, sigma, train, y_train, test, D_final)
            lambdas = f", n_lambdas {M}" if name in ("js", "tv") else ""
            notes.append(f"|chi|={n} {name}: {label} width {width:.4f} (x{width_scale}), sigma {sigma:.4g} "
                         f"(median x{scale}){lambdas}, validation RMSE {score:.4f}, alpha {alpha:.2g}, "
                         f"features {t_features:.1f} s")
            print(f"  ... |chi|={n} {name}: RMSE {rmse(predictions[name], y_test):.3f}", flush=True)
        for name, pred in predictions.items():
            results.setdefault(name, []).append(rmse(pred, y_test))
        for name in ("js", "hellinger", "tv"):
            for base in ("l2", "mmd"):
                lo, hi = _paired_bootstrap(predictions[name], predictions[base], y_test, rng)
                intervals.append(f"|chi|={n} {name} - {base}: [{lo:+.3f}, {hi:+.3f}]")
    print("| method | " + " | ".join(f"RMSE |chi|={n}" for n in sizes) + " |")
    print("|---" * (len(sizes) + 1) + "|")
    for name in ("js", "hellinger", "tv", "l2", "mmd", "constant"):
        print(f"| {name} | " + " | ".join(f"{v:.3f}" for v in results[name]) + " |")
    for line in notes:
        print("  " + line)
    print("95% paired-bootstrap intervals of the RMSE difference (negative: the HDD kernel is better):")
    for line in intervals:
        print("  " + line)
    print("paper: constant predictor RMSE 2.8; HDD kernels well below L2 and MMD")


# ---- speed ---------------------------------------------------------------------
def _slope(x, t):
    return float(np.polyfit(np.log(x), np.log(t), 1)[0])


def speed(args):
    repeats = 1 if args.quick else 3
    D = 1000 if args.quick else 5000
    counts = [125, 250, 500] if args.quick else [250, 500, 1000, 2000]
    lengths = [100, 400, 1600] if args.quick else [100, 200, 400, 800, 1600, 3200]
    fixed_n, fixed_N = 400, (100 if args.quick else 250)
    methods = {
        "js": lambda: DensityKernelFeatures("js", n_components=D, random_state=0, n_jobs=1),
        "l2": lambda: DensityKernelFeatures("l2", n_components=D, random_state=0, n_jobs=1),
        "mmd": lambda: MeanEmbeddingFeatures(D, random_state=0, n_jobs=1),
    }
    print(f"\nTransform time per set (ms), one thread, D = {D}, 2-D mixture sets (median of {repeats})")
    for label, grid, make_sets in (
        (f"number of sets N (set size {fixed_n})", counts, lambda N: component_sets(N, fixed_n, seed=3)[0]),
        (f"set size n (N = {fixed_N} sets)", lengths, lambda n: component_sets(fixed_N, n, seed=3)[0]),
    ):
        print(f"\nagainst {label}")
        print("| method | " + " | ".join(str(v) for v in grid) + " | slope of total time | slope, largest 3 |")
        print("|---" * (len(grid) + 3) + "|")
        data = {v: make_sets(v) for v in grid}
        for name, make in methods.items():
            est = make().fit(data[grid[0]])
            times = [median_time(lambda X=data[v]: est.transform(X), repeats) for v in grid]
            per_set = [1e3 * t / len(data[v]) for t, v in zip(times, grid)]
            print(f"| {name} | " + " | ".join(f"{p:.3f}" for p in per_set)
                  + f" | {_slope(grid, times):.2f} | {_slope(grid[-3:], times[-3:]):.2f} |")
    # Threads: the same features, two threads.
    X = component_sets(fixed_N * 4, fixed_n, seed=3)[0]
    est = methods["js"]().fit(X)
    t1 = median_time(lambda: est.transform(X), repeats)
    est.set_params(n_jobs=2)
    t2 = median_time(lambda: est.transform(X), repeats)
    print(f"\njs, {len(X)} sets of {fixed_n}: 1 thread {t1:.3f} s, 2 threads {t2:.3f} s (speed-up {t1 / t2:.2f})")
    # Control for busy cores: the same two-thread split of plain single-threaded GEMMs.
    a = np.random.default_rng(0).random((600, 600))

    def gemms(_=None):
        for _ in range(20):
            a @ a

    with threadpool_limits(limits=1, user_api="blas"):
        g1 = median_time(lambda: (gemms(), gemms()), repeats)
        with ThreadPoolExecutor(2) as pool:
            g2 = median_time(lambda: list(pool.map(gemms, range(2))), repeats)
    print(f"control, 2 x 20 GEMMs 600^2: 1 thread {g1:.3f} s, 2 threads {g2:.3f} s (speed-up {g1 / g2:.2f}; "
          "below 2 means the two cores were not free)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller data, fewer seeds")
    parser.add_argument("--sections", default="gram,regression,speed")
    parser.add_argument("--n-train", type=int, default=None,
                        help="training sets in the regression (default 4000; 1000 with --quick)")
    parser.add_argument("--set-sizes", default=None, help="comma-separated |chi| for the regression (default 200,800)")
    args = parser.parse_args()
    for section in args.sections.split(","):
        t0 = time.perf_counter()
        {"gram": gram, "regression": regression, "speed": speed}[section.strip()](args)
        print(f"[{section}: {time.perf_counter() - t0:.0f} s]")


if __name__ == "__main__":
    main()
