"""
Sample sets as distributions: density features on mixtures
==========================================================

Each object here is a *set of samples* from an unknown distribution.
:class:`~pyd2ke.DensityKernelFeatures` estimates the density behind each set
and maps it to random features whose inner products approximate
``exp(-d^2(p, q) / (2 sigma^2))``, with ``d`` the Jensen-Shannon divergence
(or Hellinger, total variation, L2) between the densities.

The task: tell sets drawn from a single Gaussian from sets drawn from a
two-component mixture with **the same mean and variance**. Summary
statistics of the first two orders cannot separate them; the shape of the
density can. We compare the JS density features with the MMD mean-embedding
baseline (:class:`~pyd2ke.MeanEmbeddingFeatures`) and with the sample mean
and standard deviation of each set.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pyd2ke import DensityKernelFeatures, MeanEmbeddingFeatures

rng = np.random.default_rng(0)
# Mixture 0.5 N(-m, s^2) + 0.5 N(m, s^2) with m^2 + s^2 = 1: mean 0, variance 1.
m = 0.8
s = np.sqrt(1 - m**2)


def draw_sets(n_sets, set_size):
    labels = rng.integers(0, 2, size=n_sets)
    sets = []
    for label in labels:
        if label == 0:
            sets.append(rng.normal(0.0, 1.0, size=(set_size, 1)))
        else:
            centres = rng.choice([-m, m], size=(set_size, 1))
            sets.append(centres + rng.normal(0.0, s, size=(set_size, 1)))
    return sets, labels


X_train, y_train = draw_sets(300, 40)
X_test, y_test = draw_sets(300, 40)
print(f"{len(X_train)} training and {len(X_test)} test sets of 40 samples each")

# %%
# Three representations, one classifier
# -------------------------------------

representations = {
    "JS density features": DensityKernelFeatures("js", n_components=500, random_state=0, n_jobs=2),
    "MMD mean embedding": MeanEmbeddingFeatures(500, random_state=0, n_jobs=2),
}
accuracies = {}
for name, features in representations.items():
    start = time.perf_counter()
    Z_train = features.fit_transform(X_train)
    Z_test = features.transform(X_test)
    elapsed = time.perf_counter() - start
    clf = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000)).fit(Z_train, y_train)
    accuracies[name] = clf.score(Z_test, y_test)
    print(f"{name}: test accuracy {accuracies[name]:.4f} ({elapsed:.2f} s for the features)")


def moments(sets):
    return np.array([[x.mean(), x.std()] for x in sets])


clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(moments(X_train), y_train)
accuracies["mean and std"] = clf.score(moments(X_test), y_test)
print(f"mean and std: test accuracy {accuracies['mean and std']:.4f}")

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
bins = np.linspace(-3.5, 3.5, 36)
for label, colour, title in ((0, "C0", "single Gaussian"), (1, "C1", "two-component mixture")):
    pooled = np.concatenate([x[:, 0] for x, y in zip(X_train, y_train) if y == label])
    ax1.hist(pooled, bins=bins, density=True, alpha=0.5, color=colour, label=f"{title} (all sets pooled)")
ax1.set_xlabel("x")
ax1.set_ylabel("density")
ax1.set_title("The two classes: same mean, same variance")
ax1.legend(fontsize=8)
names = list(accuracies)
ax2.bar(range(len(names)), [accuracies[n] for n in names], color=["C2", "C3", "C7"])
ax2.set_xticks(range(len(names)), names, fontsize=8)
ax2.set_ylim(0.4, 1.0)
ax2.axhline(0.5, color="k", linewidth=0.8, linestyle=":")
ax2.set_ylabel("test accuracy")
ax2.set_title("Logistic regression on each representation")
fig.tight_layout()
plt.show()
