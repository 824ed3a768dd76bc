"""
Embedding time against N, next to an exact-kernel SVM
=====================================================

An exact kernel method needs the ``N x N`` matrix of distances between all
training objects: its cost grows like ``N^2``. Random features need the
distances from each object to ``R`` random objects only: the cost grows
like ``N R``. We time both on StatLog DNA strings, for growing ``N``:

- **exact**: all pairwise Levenshtein distances
  (:func:`pyd2ke.distances.pairwise_distances`), the kernel
  ``exp(-gamma d)``, and an SVM on the precomputed kernel;
- **RSE**: :class:`~pyd2ke.RandomStringEmbedding` with ``R = 1024`` and a
  linear classifier (ridge regression on the labels).

Both are trained on the first ``N`` training strings and tested on the 1186
test strings (the exact method also needs the ``1186 x N`` test-to-train
distances). To reach larger ``N`` than the 2000 training strings, we also
time the two embeddings alone on the training strings repeated.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import RidgeClassifier
from sklearn.svm import SVC

from pyd2ke import RandomStringEmbedding
from pyd2ke.datasets import load_statlog_dna
from pyd2ke.distances import pairwise_distances

dna = load_statlog_dna()


def exact_svm(X_train, y_train, X_test, y_test):
    D_train = pairwise_distances(X_train, metric="levenshtein", n_jobs=2)
    gamma = 1.0 / np.median(D_train)
    svm = SVC(kernel="precomputed", C=1.0).fit(np.exp(-gamma * D_train), y_train)
    D_test = pairwise_distances(X_test, X_train, metric="levenshtein", n_jobs=2)
    return svm.score(np.exp(-gamma * D_test), y_test)


def rse_svm(X_train, y_train, X_test, y_test):
    rse = RandomStringEmbedding(1024, sampler="ss", max_length=60, random_state=0, n_jobs=2)
    clf = make_pipeline(rse, StandardScaler(), RidgeClassifier(alpha=10.0))
    return clf.fit(X_train, y_train).score(X_test, y_test)


# %%
# Training and testing, end to end
# --------------------------------

Ns = [250, 500, 1000, 2000]
accuracies = {"exact": [], "RSE": []}
timings = {"exact": [], "RSE": []}
for N in Ns:
    for name, run in (("exact", exact_svm), ("RSE", rse_svm)):
        start = time.perf_counter()
        accuracies[name].append(run(dna.X_train[:N], dna.y_train[:N], dna.X_test, dna.y_test))
        timings[name].append(time.perf_counter() - start)
        print(f"N={N:5d} {name:5s}: test accuracy {accuracies[name][-1]:.4f}, {timings[name][-1]:.2f} s")

# %%
# The distances alone, for larger N
# ---------------------------------
# The training strings repeated up to ``N = 8000``: the exact method's
# ``N x N`` distance matrix against RSE's ``N x R`` features.

big_Ns = [1000, 2000, 4000, 8000]
strings = dna.X_train * 4
rse = RandomStringEmbedding(1024, sampler="ss", max_length=60, random_state=0, n_jobs=2).fit(dna.X_train)
distance_seconds, feature_seconds = [], []
for N in big_Ns:
    start = time.perf_counter()
    pairwise_distances(strings[:N], metric="levenshtein", n_jobs=2)
    distance_seconds.append(time.perf_counter() - start)
    start = time.perf_counter()
    rse.transform(strings[:N])
    feature_seconds.append(time.perf_counter() - start)
    print(f"N={N:6d}: N x N distances {distance_seconds[-1]:.2f} s, N x 1024 RSE features {feature_seconds[-1]:.3f} s")

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.semilogx(Ns, accuracies["exact"], "o-", label="exact kernel + SVC")
ax1.semilogx(Ns, accuracies["RSE"], "s-", label="RSE (R=1024) + ridge")
ax1.set_xticks(Ns, [str(n) for n in Ns])
ax1.minorticks_off()
ax1.set_xlabel("N (training strings)")
ax1.set_ylabel("test accuracy")
ax1.set_title("accuracy on the 1186 test strings")
ax1.legend()
ax2.loglog(big_Ns, distance_seconds, "o-", label="N x N Levenshtein (exact kernel)")
ax2.loglog(big_Ns, feature_seconds, "s-", label="N x 1024 RSE features")
ax2.set_xticks(big_Ns, [str(n) for n in big_Ns])
ax2.minorticks_off()
ax2.set_xlabel("N (strings)")
ax2.set_ylabel("time (s)")
ax2.set_title("the distances each method needs")
ax2.legend()
fig.tight_layout()
plt.show()

# %%
# Read the two panels together. At these N an SVM on the exact kernel is
# both cheap and accurate: its ``N x N`` matrix is small, and every training
# string serves as a "feature". The right panel shows why that does not
# last: the exact matrix grows quadratically while the random features grow
# linearly, so beyond the N where the curves cross (printed above) the
# features remain the affordable route (and R can grow with the budget: see
# the accuracy against R in :ref:`sphx_glr_auto_examples_plot_rse_dna.py`).
#
# The slopes of the right panel on a log-log scale, fitted to the runs
# above (a slope of 2 is quadratic growth, 1 linear; at the smallest N the
# threads are not yet fully busy, which flattens the slopes a little).

print(f"slope of the N x N distances: {np.polyfit(np.log(big_Ns), np.log(distance_seconds), 1)[0]:.2f}")
print(f"slope of the RSE features:    {np.polyfit(np.log(big_Ns), np.log(feature_seconds), 1)[0]:.2f}")
