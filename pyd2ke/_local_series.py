"""RandomWarpingSeries' local features: how well and how often short random
shapes occur anywhere in a series.

Each local feature draws a short Gaussian series w (length U{2..9}, as the
kernels of ROCKET-style methods) and a dilation k (2^U(0, log2(L / |w|)),
L the median fit length), so that one shape spans from |w| to about L
steps. Subsequence DTW (open begin and end, squared Euclidean ground cost,
column t following column t - k) gives the cost of the best alignment of
all of w with a stretch of x ending at each step t. From that profile:

- a best-match feature: exp(-gamma * min_t cost[t]) (soft) or the minimum
  itself (direct), gamma = 1 / the median minimum over a sample of the fit
  series (the estimator's ``gamma`` is the whole-series features' only);
- an occurrence feature (one local shape in five): the share of steps whose
  cost is under a threshold, a quantile U(0.25, 0.75) of the profile of a
  random fit series (MiniRocket draws its biases the same way).

Both are divided by sqrt(number of local features), as every D2KE feature
by sqrt(R), and are functions of (x, random object), so the local block's
Z Z' approximates a positive-definite kernel of its own, added to the
whole-series one. The cost is L x |w| cells per feature, linear in the
length. Computed by the core (cpp/include/pyd2ke/distance/subsequence_dtw.hpp),
in parallel over series.
"""

import numpy as np

from . import _core
from ._ragged import Ragged
from ._standardize import feature_statistics, standardize_into

SHAPE_MIN_LENGTH, SHAPE_MAX_LENGTH = 2, 9
OCCURRENCE_EVERY = 5  # one local shape in five counts occurrences
THRESHOLD_QUANTILES = (0.25, 0.75)
FIT_SAMPLE = 256


class LocalSeriesFeatures:
    """The fitted local shapes of a RandomWarpingSeries and their statistics.

    Attributes: ``shapes`` (list of (length, channels) float64 arrays; the
    best-match shapes first, then the occurrence shapes), ``dilations``
    (int64), ``n_match``, ``thresholds`` (one per occurrence shape),
    ``gamma``, and ``mean``/``scale`` (the standardisation of
    this block: the fit sample's feature means and one common factor).
    """

    def __init__(self, shapes, dilations, n_match, thresholds, gamma):
        self.shapes = shapes
        self.dilations = np.asarray(dilations, dtype=np.int64)
        self.n_match = int(n_match)
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        self.gamma = float(gamma)
        self.mean = None
        self.scale = 1.0

    @property
    def n_features(self):
        return len(self.shapes)

    @classmethod
    def fit(cls, X, n, rng, channels, prepare, scale, kernel, n_threads, dtype):
        """n local features drawn for the fit series X (a Ragged).
        prepare(series) gives the series the shapes compare with (X or a
        part of it with the derivative channels appended, channels values
        per step); only the series the thresholds and the statistics use
        go through it. dtype: the output's, the precision of a spread."""
        lengths = X.lengths()
        median = float(np.median(lengths))
        sizes = rng.randint(SHAPE_MIN_LENGTH, SHAPE_MAX_LENGTH + 1, size=n)
        shapes = [rng.normal(0.0, scale, size=(d, channels)) for d in sizes]
        spans = np.log2(np.maximum(median / sizes, 1.0))
        dilations = np.floor(2.0 ** (rng.uniform(0.0, 1.0, size=n) * spans)).astype(np.int64)
        n_occurrence = n // OCCURRENCE_EVERY
        n_match = n - n_occurrence
        # Each occurrence threshold: a random quantile of the costs on a random fit series.
        picks = rng.randint(len(lengths), size=n_occurrence)
        quantiles = rng.uniform(*THRESHOLD_QUANTILES, size=n_occurrence)
        picked = prepare(X.take(picks)).astype(np.float64) if n_occurrence else None
        thresholds = np.empty(n_occurrence)
        for j in range(n_occurrence):
            x = picked.values[picked.offsets[j]:picked.offsets[j + 1]]
            profile = _core.subsequence_end_costs(x, shapes[n_match + j], int(dilations[n_match + j]))
            thresholds[j] = np.quantile(profile, quantiles[j])
        local = cls(shapes, dilations, n_match, thresholds, 1.0)
        sample = X
        if len(lengths) > FIT_SAMPLE:
            sample = X.take(np.sort(rng.choice(len(lengths), FIT_SAMPLE, replace=False)))
        sample = prepare(sample).astype(np.float64)
        raw = np.empty((len(sample), n))
        local._compute(sample, raw, n_threads, "direct", 1.0)
        best = raw[:, :n_match]
        median_best = float(np.median(best)) if best.size else 0.0
        local.gamma = 1.0 / median_best if median_best > 0 else 1.0
        if kernel == "soft":
            np.exp(-local.gamma * best, out=best)
        raw *= local.factor
        local.mean, local.scale, _ = feature_statistics(raw, dtype)  # no spread: the whole-series block warns
        return local

    @property
    def factor(self):
        """1 / sqrt(number of local features), as every D2KE feature has."""
        return 1.0 / np.sqrt(self.n_features)

    def _compute(self, X, out, n_threads, kernel, factor):
        dtype = out.dtype
        shapes = Ragged.pack(self.shapes, dtype)
        _core.local_series_features_into(
            np.ascontiguousarray(X.values, dtype=dtype), X.offsets, shapes.values, shapes.offsets, self.dilations,
            self.n_match, self.thresholds.astype(dtype), self.gamma, kernel, factor, out, n_threads)

    def features_into(self, X, out, n_threads, kernel, standardize):
        """The local features ("soft" or "direct" best matches) of the series
        X (a Ragged, derivative channels appended as at fit) into out (C
        order, the output dtype), standardised when asked."""
        self._compute(X, out, n_threads, kernel, self.factor)
        if standardize:
            standardize_into(out, self.mean, self.scale, n_threads)
        return out
