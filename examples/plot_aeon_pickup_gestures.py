"""
Unequal lengths without padding: RWS in aeon on PickupGestureWiimoteZ
=====================================================================

aeon's rockets take equal-length series only: on PickupGestureWiimoteZ
(accelerometer traces of 29 to 361 steps) aeon ships a padded copy for
them. :class:`pyd2ke.aeon.RandomWarpingSeriesClassifier` takes the
unequal-length collection as it is (aeon's list of ``(n_channels,
n_timepoints)`` arrays): each series becomes its DTW similarities to random
series, then a StandardScaler and a ridge classifier, as in aeon's
``MiniRocketClassifier``. It is an aeon estimator (tags, ``fit`` /
``predict`` on aeon collections, aeon's own estimator checks pass).
"""

import matplotlib.pyplot as plt
import numpy as np
from aeon.datasets import load_classification

from pyd2ke.aeon import RandomWarpingSeriesClassifier

X_train, y_train = load_classification("PickupGestureWiimoteZ", split="train")
X_test, y_test = load_classification("PickupGestureWiimoteZ", split="test")
lengths = [x.shape[1] for x in X_train + X_test]
print(f"{len(X_train)} training and {len(X_test)} test series, lengths {min(lengths)}-{max(lengths)}")

# %%
# Fit and score, five random draws
# --------------------------------
# The random series are the only randomness; the spread over seeds shows
# how much one draw matters on 50 test series (one series is 0.02).

scores = []
for seed in range(5):
    clf = RandomWarpingSeriesClassifier(random_state=seed, n_jobs=2).fit(X_train, y_train)
    scores.append(clf.score(X_test, y_test))
print("test accuracy per seed:", [round(s, 2) for s in scores], f"mean {np.mean(scores):.3f}")
print("random series up to", clf.pipeline_[0].max_length_, "steps (a quarter of the median length, at least 10)")

# %%
# The lengths the classifier took as they are
# -------------------------------------------

fig, ax = plt.subplots(figsize=(6, 3))
ax.hist(lengths, bins=30)
ax.set_xlabel("series length (steps)")
ax.set_ylabel("series")
ax.set_title("PickupGestureWiimoteZ: no padding needed")
fig.tight_layout()
plt.show()
