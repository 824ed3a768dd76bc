"""
Speakers from their vowels: Random Warping Series on JapaneseVowels
===================================================================

:class:`~pyd2ke.RandomWarpingSeries` (RWS) describes a multivariate time
series by its dynamic-time-warping distances to ``R`` short random series.
Series of different lengths (here 7 to 29 frames of 12 cepstral
coefficients) all become vectors of the same length, ready for a linear
classifier. We classify the nine speakers of JapaneseVowels and look at a
2-D projection of the features.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pyd2ke import RandomWarpingSeries
from pyd2ke.datasets import load_japanese_vowels

vowels = load_japanese_vowels()
lengths = [len(s) for s in vowels.X_train + vowels.X_test]
print(f"{len(vowels.X_train)} training and {len(vowels.X_test)} test series, "
      f"{vowels.X_train[0].shape[1]} channels, lengths {min(lengths)}-{max(lengths)}")

# %%
# Features
# --------
# The random series have standard Gaussian values and 2 to ``max_length_``
# steps (``max_length="auto"``): a quarter of the median training length,
# but at least the papers' 10 steps (these series have a median of 15);
# with ``derivative=True`` (the default) they and the inputs carry slopes
# as well as values. ``gamma="auto"`` sets the kernel scale to one over the
# median DTW distance between training and random series.

rws = RandomWarpingSeries(256, random_state=0, n_jobs=2)
start = time.perf_counter()
Z_train = rws.fit_transform(vowels.X_train)
Z_test = rws.transform(vowels.X_test)
print(f"features {Z_train.shape[1]} per series in {time.perf_counter() - start:.2f} s, "
      f"max_length_ = {rws.max_length_}, gamma_ = {rws.gamma_:.4f}")

clf = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
clf.fit(Z_train, vowels.y_train)
print(f"test accuracy of logistic regression on the RWS features: {clf.score(Z_test, vowels.y_test):.4f}")

# %%
# A 2-D view of the features
# --------------------------
# The first two principal components of the (standardised) test features,
# coloured by speaker: series of one speaker land near each other although
# they differ in length.

scaled = clf[0].transform(Z_test)
xy = PCA(n_components=2, random_state=0).fit(clf[0].transform(Z_train)).transform(scaled)
labels = np.asarray(vowels.y_test)
fig, ax = plt.subplots(figsize=(6, 5))
for speaker in vowels.classes:
    mask = labels == speaker
    ax.scatter(xy[mask, 0], xy[mask, 1], s=12, label=f"speaker {speaker}")
ax.set_xlabel("first principal component")
ax.set_ylabel("second principal component")
ax.set_title("RWS features of the JapaneseVowels test series")
ax.legend(fontsize=7, ncol=3)
fig.tight_layout()
plt.show()
