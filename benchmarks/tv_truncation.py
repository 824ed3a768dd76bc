"""How far the total-variation density kernel falls below the truth because
the basis is truncated (the numbers in DensityKernelFeatures' docstring).

Two 1-D Gaussians N(0, 1) and N(mu, 1), for which int |p - q| = 2 (2 Phi(mu/2) - 1)
(= 2 TV); the estimator's implied int |p - q| is ||A(p) - A(q)||^2 of its
projection features, for several basis_size values, averaged over seeds (each
seed draws new samples and new lambdas).

    python benchmarks/tv_truncation.py [N_SAMPLES] [N_LAMBDAS] [N_SEEDS]

Defaults 2000 200 3 isolate the truncation (many samples, many lambdas);
200 5 10 is the estimator's default n_lambdas on small sets.
"""

import sys

import numpy as np
from scipy.stats import norm

from pyd2ke.density import DensityKernelFeatures

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
M = int(sys.argv[2]) if len(sys.argv) > 2 else 200
seeds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
sizes = [5, 10, 20, 40, 80, 160]
for mu in (0.91, 2.07):
    l1 = 2 * (2 * norm.cdf(mu / 2) - 1)
    print(f"mu={mu}: true int|p-q| = {l1:.3f} (TV = {l1 / 2:.3f}); {n} samples per set, n_lambdas={M}, "
          f"{seeds} seeds")
    for V in sizes:
        implied, kde = [], []
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            sets = [rng.normal(0, 1, (n, 1)), rng.normal(mu, 1, (n, 1))]
            est = DensityKernelFeatures("tv", n_components=2, n_lambdas=M, basis_size=V, sigma=1.0,
                                        random_state=seed).fit(sets)
            A = est.projection_features(sets)
            implied.append(((A[0] - A[1]) ** 2).sum())
            F = est.densities(sets)  # the KDEs on the midpoint grid of [0, 1] (HDDs do not change under the map)
            kde.append(np.abs(F[0] - F[1]).mean())
        m, s = np.mean(implied), np.std(implied)
        print(f"  basis_size={V:4d}: implied {m:.3f} +- {s:.3f} ({m / l1:.0%} of the truth; the KDEs' own "
              f"{np.mean(kde):.3f}); kernel exp(-d2/2) {np.exp(-m / 2):.3f} vs {np.exp(-l1 / 2):.3f}")
