"""Data-adaptive defaults ("auto" parameters), each decided at fit from the fit
data by one simple rule and stored as a fitted attribute. The rules were
chosen on the development data (the bundled datasets and the nine UCR/UEA
sets aeon ships); each function names the measurement behind it, and
docs/results_defaults.md has the full run."""

import numpy as np

from ._validation import warn_user

# RandomStringEmbedding(max_length="auto"): random strings up to twice the
# median fit length, so that they are as long as the inputs on average.
# Measured (issue 28; RSE sampler="bss", R=1024, StandardScaler + ridge,
# test accuracy at max_length = 10 / 0.5x / 1x / 2x / 4x the median length):
# StatLog DNA (median 60) 0.564 / 0.734 / 0.799 / 0.869 / 0.890; digit chain
# codes (median 71) 0.933 / 0.983 / 0.974 / 0.982 / 0.978. Longer strings
# past 2x gain little and cost more (the bit-parallel Levenshtein takes one
# machine word per 64 symbols of the random string).
STRING_LENGTH_FACTOR = 2.0
STRING_MAX_LENGTH_CAP = 512

# RandomWarpingSeries(max_length="auto"): random series up to a quarter of the
# median fit length, but never shorter than the papers' fixed 10 steps (or
# the median length, when the series are shorter). Measured (issue 28;
# derivative=True, R=1024, float32, StandardScaler + RidgeClassifierCV, the
# nine z-normalised aeon datasets): mean test accuracy 0.896 at a quarter,
# 0.890 at a half; the panel's CV over 10..400 chose 0.2-0.8 of the length on
# the long univariate sets. The floor of 10 (mean of random_state 0, 1, 2;
# test accuracy scaled ridge / LinearSVC() without a scaler): ItalyPowerDemand
# (24 steps) 0.948 / 0.872 at a quarter (6) -> 0.958 / 0.921 at 10 (a random
# series of 6 steps is too coarse a shape: the unscaled LinearSVC() did not
# converge in its 1000 iterations), UnitTest (24) 0.909 / 0.909 both,
# JapaneseVowels (7-26 steps, 12 channels) 0.871 / 0.866 at 4 -> 0.858 /
# 0.850 at 10; longer sets unchanged. Capped at 400, the longest that CV
# chose (ACSF1, 1460 steps): the DTW to one random series costs
# L x max_length / 2 cells on average.
SERIES_LENGTH_FACTOR = 0.25
SERIES_MIN_AUTO_LENGTH = 10
SERIES_MAX_LENGTH_CAP = 400

# RandomWarpingSeries(local="auto"): 5/8 of the features local (subsequence
# DTW of short dilated random shapes, pyd2ke/_local_series.py) when the
# median fit length is at least 300 steps, none below. Measured (issue 28;
# R=1024, derivative=True, StandardScaler + RidgeClassifierCV, the nine
# z-normalised aeon datasets, mean test accuracy over random_state 0, 1, 2).
# The mix (a prototype; all whole-series -> 3/8 whole, 1/2 best match, 1/8
# occurrence): OSULeaf (427 steps) 0.858 -> 0.917, ACSF1 (1460) 0.817 ->
# 0.907, but ArrowHead (251) 0.869 -> 0.808 and JapaneseVowels (7-26, 12
# channels) 0.873 -> 0.72 (there 1/2 local); GunPoint, ItalyPowerDemand,
# BasicMotions, PickupGestureWiimoteZ and UnitTest within 0.006. This rule,
# as implemented (benchmarks/local_series_seeds.py): OSULeaf 0.858 ->
# 0.939, ACSF1 0.817 -> 0.903, the other seven unchanged; mean of the nine
# 0.891 -> 0.909 (MiniRocket 0.911). Short series are one shape that the
# whole-series DTW sees at once; in long ones the classes differ in local
# patterns, and the whole-series DTW costs L x max_length / 2 cells per
# feature against L x 9 for a local one. 300 lies between the longest
# dataset local features hurt (251) and the shortest they help (427).
LOCAL_MIN_MEDIAN_LENGTH = 300
LOCAL_FRACTION = 0.625


# Distances below this fraction of the largest one in the sample are ties
# at zero (identical objects, up to the rounding of their arithmetic).
_TIE = 1e-9


def inverse_median(distances):
    """gamma="auto": 1 / the median of a sample of distances; when that median
    is a tie at zero (at rounding level), the median of the distances above
    it (1.0 when none is). Four cycles and two paths, in
    RandomGraphEmbedding, gave a median of 3e-16 and gamma 3e15: rounding
    noise in a distance then moved features by 1."""
    distances = np.asarray(distances, dtype=np.float64).ravel()
    median = float(np.median(distances))
    tie = _TIE * float(distances.max()) if distances.size else 0.0
    if not median > tie:
        above = distances[distances > tie]
        median = float(np.median(above)) if above.size else 0.0
    # A subnormal median would give gamma = inf (and NaN features at d = 0).
    return min(1.0 / median, np.finfo(np.float64).max) if median > 0 else 1.0


def string_max_length(lengths):
    """RandomStringEmbedding's max_length="auto" from the fit strings' lengths."""
    median = float(np.median(lengths))
    return int(np.clip(round(STRING_LENGTH_FACTOR * median), 1, STRING_MAX_LENGTH_CAP))


def series_max_length(lengths, min_length):
    """RandomWarpingSeries' max_length="auto" from the fit series' lengths (at
    least min_length)."""
    median = float(np.median(lengths))
    length = max(round(SERIES_LENGTH_FACTOR * median), min(SERIES_MIN_AUTO_LENGTH, int(median)))
    return int(max(min_length, min(SERIES_MAX_LENGTH_CAP, length)))


def series_local_fraction(lengths):
    """RandomWarpingSeries' local="auto" from the fit series' lengths."""
    return LOCAL_FRACTION if float(np.median(lengths)) >= LOCAL_MIN_MEDIAN_LENGTH else 0.0


# HashedRandomFourier(beta="auto") (and make_sfmedm / make_sfmcgk): the
# Laplacian kernel exp(-||x - y||_1 / beta) with beta twice the median L1
# distance between fit vectors, so that the kernel is exp(-1/2) at the median
# pair. With the papers' beta=1 and L1 distances of 50-100 between ESP
# vectors the kernel is 0 for every pair and the features are noise.
# Measured (issue 28; D=2048, StandardScaler + ridge, test accuracy; beta =
# 1 / 0.5x / 1x / 2x / 4x / 8x the median): ESP on StatLog DNA 0.483 / 0.567
# / 0.569 / 0.583 / 0.596 / 0.577; CGK on DNA 0.476 / 0.675 / 0.723 / 0.739 /
# 0.743 / 0.749; ESP on the digit chain codes 0.119 / 0.696 / 0.694 / 0.696 /
# 0.704 / 0.707; CGK on the chain codes 0.117 / 0.852 / 0.874 / 0.872 / 0.861
# / 0.870; both on two classes of mutated 53-letter strings 0.51 and 0.50 at
# beta=1, 1.000 from 0.5x on. 2x is within 0.014 of the best of each.
BETA_FACTOR = 2.0
# Rows of the fit data whose pairwise L1 distances set beta="auto".
BETA_SAMPLE = 256


def sample_rows(n, size=BETA_SAMPLE):
    """Up to `size` row indices spread evenly over n rows (no random draw, so
    the estimator's random_state keeps its meaning)."""
    return np.unique(np.linspace(0, n - 1, min(n, size)).round().astype(np.int64))


def laplacian_beta(l1_distances):
    """beta="auto" from a square matrix of L1 distances between fit rows:
    BETA_FACTOR x the median over pairs of different rows (duplicates left
    out: 240 copies of one string among 300 made the median 0, and beta 1.0
    turned distances of about 100 into noise); 1.0, with a warning, when no
    two rows differ."""
    pairs = l1_distances[np.triu_indices(l1_distances.shape[0], 1)]
    pairs = pairs[pairs > 0]
    median = float(np.median(pairs)) if pairs.size else 0.0
    if median > 0 and np.isfinite(median):
        return BETA_FACTOR * median
    if l1_distances.shape[0] > 1:
        warn_user('beta="auto" found no two different rows among the fit rows it sampled: beta 1.0 is used; '
                  'pass beta= for the distances your data will have')
    return 1.0
