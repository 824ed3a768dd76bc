"""standardize=True: the features centred on their fit-data means and divided
by one common factor, so that a linear model with its default regularisation
learns from them without a scaler in front.

The raw D2KE features exp(-gamma d) / sqrt(R) are a near-constant block (every
entry about exp(-1) / sqrt(R)); LogisticRegression() or LinearSVC() with
C=1 on them predicts the majority class. Centring removes the common block,
and one global factor (not one per feature) rescales without reweighting the
random objects, so Z Z' still approximates the kernel, up to the affine map
of kernel centring:

    Z Z'[x, y] = (k(x, y) - m(x) - m(y) + c) / s^2,

m(x) the mean of k(x, .) over the fit data, c the mean of k over pairs of
fit data, s the factor (``feature_scale_``). A model with an intercept
absorbs the centring; the factor only moves its regularisation.
"""

import numpy as np

from . import _core


def feature_statistics(features, dtype=np.float64):
    """(mean of every feature, the common factor, whether the features have
    a spread) over the rows of a sample of fit features (float64): the root
    of the mean feature variance, 1.0 when the sample has no spread (one
    object, or all objects alike) at the precision of the output, dtype."""
    mean = features.mean(axis=0)
    scale = float(np.sqrt(np.mean(np.var(features, axis=0))))
    # A spread at the rounding level of the output (float32 carries 7 digits,
    # float64 16) is no spread: dividing by it would blow rounding up to unit
    # size. A fixed 1e-5 for float64 too dropped real spreads: series 100
    # units off zero gave features whose spread was 1e-7 of their size, and
    # scale 1.0 left them all but constant (chance accuracy).
    size = float(np.sqrt(np.mean(features * features)))
    rounding = 1e-5 * np.finfo(dtype).eps / np.finfo(np.float32).eps  # 1e-5 for float32
    if not np.isfinite(scale) or scale <= rounding * size or scale <= np.finfo(np.float64).tiny * 1e10:
        return mean, 1.0, False
    return mean, scale, True


def standardize_into(out, mean, scale, n_threads):
    """out (rows of features) centred on mean and divided by scale, in place,
    on n_threads threads: the same bits as ``out -= mean; out *= 1 / scale``
    in out's dtype (that serial numpy pass was the largest serial part of
    the D2KE transforms)."""
    dtype = out.dtype
    if out.ndim == 2 and out.flags.c_contiguous and out.flags.writeable:
        _core.center_and_scale_into(out, np.ascontiguousarray(mean, dtype=dtype), dtype.type(1.0 / scale), n_threads)
        return out
    out -= mean.astype(dtype)
    out *= dtype.type(1.0 / scale)
    return out
