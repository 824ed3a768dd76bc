"""
Kernel approximation error against the number of features
==========================================================

Random features replace a kernel ``k(x, y)`` by an inner product
``z(x) . z(y)`` of ``D`` features; the error shrinks like ``1 / sqrt(D)``.
We measure it for three vector kernels, against the exact kernel matrix on
the same points:

- :class:`~pyd2ke.HashedRandomFourier` with ``kernel="laplacian"``:
  ``exp(-||x - y||_1 / beta)``;
- :class:`~pyd2ke.HashedRandomFourier` with ``kernel="rbf"``:
  ``exp(-gamma ||x - y||^2)``;
- :class:`~pyd2ke.RandomMaclaurin` with ``kernel="poly"``:
  ``(coef0 + gamma <x, y>)^degree``.

The points are 300 random vectors of dimension 20 (unit norm for the
polynomial kernel, whose values grow with the norms).
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics.pairwise import laplacian_kernel, polynomial_kernel, rbf_kernel

from pyd2ke import HashedRandomFourier, RandomMaclaurin

rng = np.random.default_rng(0)
X = rng.normal(size=(300, 20))
X_unit = X / np.linalg.norm(X, axis=1, keepdims=True)

beta, gamma = 20.0, 0.05
exact = {
    "HashedRandomFourier, Laplacian": laplacian_kernel(X, gamma=1 / beta),
    "HashedRandomFourier, RBF": rbf_kernel(X, gamma=gamma),
    "RandomMaclaurin, polynomial (degree 3)": polynomial_kernel(X_unit, degree=3, gamma=1.0, coef0=1.0),
}


def features(name, D, seed):
    if name.endswith("Laplacian"):
        return HashedRandomFourier(kernel="laplacian", beta=beta, n_components=D, random_state=seed).fit_transform(X)
    if name.endswith("RBF"):
        return HashedRandomFourier(kernel="rbf", gamma=gamma, n_components=D, random_state=seed).fit_transform(X)
    return RandomMaclaurin(D, kernel="poly", degree=3, gamma=1.0, coef0=1.0, random_state=seed).fit_transform(X_unit)


# %%
# Relative Frobenius error ``||K - Z Z'||_F / ||K||_F``, averaged over three
# seeds, for ``D`` from 64 to 8192.

Ds = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
errors = {name: [] for name in exact}
for name, K in exact.items():
    for D in Ds:
        e = [np.linalg.norm(K - (Z := features(name, D, seed)) @ Z.T) / np.linalg.norm(K) for seed in range(3)]
        errors[name].append(np.mean(e))
    print(f"{name}: error {errors[name][0]:.4f} at D={Ds[0]}, {errors[name][-1]:.4f} at D={Ds[-1]}")

# %%
fig, ax = plt.subplots(figsize=(6.5, 4.5))
for name, err in errors.items():
    ax.loglog(Ds, err, "o-", base=2, label=name)
ref = np.array(Ds, dtype=float)
ax.loglog(Ds, errors[next(iter(errors))][0] * np.sqrt(Ds[0] / ref), "k--", base=2, label=r"$\propto 1/\sqrt{D}$")
ax.set_xlabel("D (number of random features)")
ax.set_ylabel("relative Frobenius error of the Gram matrix")
ax.set_title("300 points in 20 dimensions")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()

# %%
# Every curve falls along the dashed ``1 / sqrt(D)`` line, the Monte Carlo
# rate; the constant in front depends on the kernel and the data. A Random
# Maclaurin feature is a product of ``N`` random projections, with the
# degree ``N`` itself random, so each feature varies more than a cosine of
# one projection: compare the printed errors at equal ``D``.
