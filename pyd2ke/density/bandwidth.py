"""Likelihood cross-validation and Scott's rule for the one Gaussian KDE
bandwidth shared by all sample sets (in the scaled [0, 1]^l coordinates)."""

import math

import numpy as np
from scipy.spatial.distance import pdist, squareform
from sklearn.utils import check_random_state

BANDWIDTH_RULES = ("cv", "scott")

# Likelihood cross-validation of the KDE bandwidth: this many fit sets, of at
# most this many points each, and candidate bandwidths (scaled coordinates).
_CV_SETS = 12
_CV_POINTS = 400
_CV_BANDWIDTHS = np.geomspace(0.002, 0.5, 25)


def scott_bandwidth(packed):
    """Scott's rule s * n^(-1/(l + 4)) for scaled sets: n the median set size,
    s the median over sets of the within-set standard deviation (averaged
    over dimensions; the pooled one if that is 0). It oversmooths multimodal
    densities."""
    l = packed.dim
    sizes = np.diff(packed.offsets)
    means = np.add.reduceat(packed.values, packed.offsets[:-1], axis=0) / sizes[:, None]
    deviations = packed.values - np.repeat(means, sizes, axis=0)
    var = np.add.reduceat(deviations**2, packed.offsets[:-1], axis=0) / sizes[:, None]
    spread = float(np.median(np.sqrt(var).mean(axis=1)))
    # On data scaled to [0, 1], a spread below 1e-10 is the rounding of sets
    # of repeated points (3e-10 passed for one, and gave densities without
    # mass on the grid): no spread.
    if not spread > 1e-10:
        spread = float(packed.values.std(axis=0).mean())
    return spread * float(np.median(sizes)) ** (-1.0 / (l + 4.0))


def cv_bandwidth(packed, random_state=None):
    """Likelihood cross-validation of one Gaussian KDE bandwidth for all sets.

    For (up to) 12 random sets, (up to) 400 random points each, the mean
    leave-one-out log density is summed over the sets for 25 bandwidths
    geometric on [0.002, 0.5]; the best one is rescaled from the subsample
    size m to the median set size n by (m / n)^(1/(l + 4)), the rate of the
    optimal bandwidth. Exact duplicates are left out of each other's
    estimates (otherwise repeated points drive the bandwidth to 0); the
    boundary of the cube is ignored.
    """
    rng = check_random_state(random_state)
    l = packed.dim
    sizes = np.diff(packed.offsets)
    picked = np.sort(rng.choice(len(sizes), size=min(_CV_SETS, len(sizes)), replace=False))
    hs = _CV_BANDWIDTHS
    scores = np.zeros(len(hs))
    used = []
    for i in picked:
        points = packed[int(i)]
        if len(points) > _CV_POINTS:
            points = points[np.sort(rng.choice(len(points), size=_CV_POINTS, replace=False))]
        D2 = squareform(pdist(points, "sqeuclidean"))
        D2[D2 == 0.0] = np.inf  # self and exact duplicates
        nearest = D2.min(axis=1)
        keep = np.isfinite(nearest)
        if keep.sum() < 2:
            continue
        D2, nearest = D2[keep], nearest[keep]
        # log sum_j exp(-D2/(2h^2)) shifted by the nearest neighbour, so no underflow.
        excess = D2 - nearest[:, None]
        for k, h in enumerate(hs):
            c = 0.5 / (h * h)
            total = np.exp(-c * excess).sum(axis=1)
            scores[k] += np.mean(np.log(total) - c * nearest) - math.log(len(points) - 1) - 0.5 * l * math.log(
                2.0 * math.pi * h * h
            )
        used.append(len(points))
    if not used:
        return scott_bandwidth(packed)
    best = float(hs[int(np.argmax(scores))])
    return best * (float(np.median(used)) / float(np.median(sizes))) ** (1.0 / (l + 4.0))
