"""Random Warping Series: D2KE features for multivariate time series under
dynamic time warping (L. Wu et al., "Random Warping Series: A Random
Features Method for Time-Series Embedding", AISTATS 2018; L. Wu et al.,
"D2KE: From Distance to Kernel and Embedding", 2018).

Random series w_j have lengths D_j ~ U{min_length..max_length} and entries
i.i.d. N(0, scale^2); features are exp(-gamma * DTW(x, w_j)) / sqrt(R) (soft)
or DTW(x, w_j) / sqrt(R) (direct).
"""

from numbers import Integral, Real

import numpy as np

from ._auto import series_local_fraction, series_max_length
from ._base import COUNT, Interval, StrOptions, store_parameters
from ._docstrings import fill_doc
from ._domains.series import (
    MIN_LENGTH,
    SCALE,
    DerivativeEngine,
    append_derivatives,
    check_series,
    check_window,
    warn_if_channels_first,
)
from ._validation import (
    check_dtype,
    check_non_negative_real,
    check_positive_int,
    check_positive_int_or_auto,
    check_positive_real,
    effective_n_threads,
    is_auto,
)
from ._local_series import LocalSeriesFeatures
from .d2ke import D2KEBase


def znormalize(X, eps=1e-8):
    """Per-series, per-channel z-normalisation: (x - mean) / std.

    Call it explicitly when the series should be compared by shape rather
    than level and amplitude (the RWS paper does); channels with
    std <= eps are only centred (eps >= 0).

    Parameters
    ----------
    X : sequence of arrays of shape (length,) or (length, channels)

    Returns
    -------
    list of float64 arrays, shaped as the inputs
    """
    eps = check_non_negative_real(eps, "eps")
    X = list(X) if not isinstance(X, np.ndarray) else X
    packed = check_series(X)
    if packed.dim > 1 and packed.lengths().max() == 1:
        # Each series one step: every channel would be centred to zero. The
        # look of aeon's univariate (1, n_timepoints) cases read as (length, channels).
        raise ValueError(f"every series of X has a single step (X[0]: 1 step of {packed.dim} channels), which "
                         f"z-normalises to zeros. pyd2ke reads a series as (length, channels): if these are aeon's or "
                         f"sktime's (n_channels, n_timepoints) cases, pass [x.T for x in X]")
    warn_if_channels_first(packed)
    univariate = [np.ndim(s) == 1 for s in X]
    out = []
    for s, flat in zip(packed.to_list(), univariate):
        # Scaled by the largest magnitude first: mean and std of values near
        # the float64 limit would overflow; z is scale-invariant.
        scale = np.abs(s).max(axis=0)
        scale = np.where(scale > 0, scale, 1.0)
        s = s / scale
        mean = s.mean(axis=0)
        std = s.std(axis=0)
        flat_channel = std * scale <= eps
        # A flat channel is only centred, in its own units (times scale again).
        z = (s - mean) / np.where(flat_channel, 1.0, std) * np.where(flat_channel, scale, 1.0)
        out.append(z[:, 0] if flat else z)
    return out


@fill_doc
class RandomWarpingSeries(D2KEBase):
    """Random Warping Series (RWS): D2KE features for time series under DTW.

    Parameters
    ----------
    n_components : int, default=256
        Number of output features R: one per random series, or per short
        random shape for the local share (``local``).
    min_length : int, default=2
        Random series lengths are uniform on {min_length, ..., max_length}
        (the D2KE paper's lower end; the reason and the measurement are at
        MIN_LENGTH in pyd2ke/_domains/series.py).
    max_length : int or "auto", default="auto"
        "auto" (the default since issue 28; before, the D2KE paper's fixed
        10) is a quarter of the median length of the fit series, but at
        least that 10 (or the median length, if shorter) and min_length,
        at most 400, stored as ``max_length_``. Measured on the nine
        z-normalised UCR/UEA datasets aeon ships (R=1024, derivative=True,
        scaled ridge): a quarter gave a mean test accuracy of 0.896, near
        the 0.899 of derivative and max_length tuned by CV per dataset
        (with this rule and local="auto": 0.915, MiniRocket 0.911); the
        floor of 10 lifts ItalyPowerDemand (24 steps) from 0.948 to
        0.958 (LinearSVC() without a scaler: 0.872 to 0.921) and costs
        JapaneseVowels (median 15 steps) 0.013; evidence in ``pyd2ke/_auto.py``. The DTW to one random series costs
        about L x max_length / 2 cells: long series cost more per series.
    scale : float, default=1.0
        Standard deviation of the random series' entries (the RWS MATLAB code's
        ``sigma`` is the inverse of this: it draws randn / sigma).
    kernel : {"soft", "direct"}, default="soft"
        ``exp(-gamma d) / sqrt(R)`` (D2KE) or ``d / sqrt(R)`` (the RWS paper).
    gamma : float or "auto", default="auto"
        Scale of the soft kernel of the whole-series features. "auto" uses
        1 / median DTW distance between (up to 256) fit series and the
        random series. The local features have their own, always automatic
        (``local_features_.gamma``).
    window : int or None, default=None
        Sakoe-Chiba half-width, widened to ``|L - D|`` for each pair so that a
        warping path always exists; None for no window.
    derivative : bool, default=True
        (False before issue 28.) Append each channel's first derivative as
        an extra channel, as derivative DTW does (np.gradient: central
        differences, one-sided at the ends; divided by its root mean square per series so that it
        weighs about as much as a z-normalised value; not centred, so rises
        and falls keep their sign). The random series get the extra channels
        too (2 x channels in all), and the DTW ground cost compares values
        and slopes together. Against a long input, a short random series
        sees mostly its levels; the slopes add its shape. Measured on the
        z-normalised UCR/UEA datasets of ``python -m pyd2ke timeseries``
        (R=1024, max_length chosen by CV on the training part among
        10..400, ridge; test accuracy without -> with): ArrowHead 0.606 ->
        0.823, OSULeaf 0.674 -> 0.872, ACSF1 0.710 -> 0.820,
        JapaneseVowels 0.803 -> 0.857, but PickupGestureWiimoteZ 0.860 ->
        0.820 (docs/results_timeseries.md). With derivatives, long inputs
        want long random series (CV picked max_length 200-400 on series of
        250-1460 steps). About twice the ground-cost work of the DTW.
    local : float in [0, 1) or "auto", default="auto"
        Share of the n_components features that are local: instead of the
        DTW to a whole random series, how well (best match) and how often
        (occurrence) a short random shape (2-9 steps, dilated to span up to
        the series length) occurs anywhere in the series, by subsequence
        DTW (``pyd2ke/_local_series.py``); one local shape in five gives an
        occurrence feature. "auto" (new in issue 28) is 0.625 when the
        median fit length is at least 300 steps and 0 below, stored as
        ``local_``. Measured on the nine z-normalised aeon datasets (R=1024,
        scaled ridge, mean of random_state 0, 1, 2,
        benchmarks/local_series_seeds.py): OSULeaf (427 steps) 0.858 ->
        0.939, ACSF1 (1460) 0.817 -> 0.903; in a prototype ArrowHead (251)
        lost 0.06 with them, hence the length rule (evidence in
        ``pyd2ke/_auto.py`` and docs/results_timeseries.md). A local
        feature costs L x 9 cells at most, against L x max_length / 2 for a
        whole-series one. 0 gives the papers' features only.
    <standardize>
        The local features have their own common factor
        (``local_features_.scale``), so Z Z' is the sum of the two centred
        kernels, each over its factor squared.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads for the transform (None and -1: all cores). The output does
        not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type and arithmetic precision of the DTW computations
        (float32 is about three times faster: one square root per DP cell
        dominates, and float32 packs twice as many lanes).
    <verbose>

    Attributes
    ----------
    feature_mean_, feature_scale_ : ndarray (one value per whole-series feature) and float, or None
        The standardisation (None when ``standardize=False``); the local
        block's are ``local_features_.mean`` and ``local_features_.scale``.
    random_objects_ : list of ndarray of shape (D_j, channels)
        The random series of the whole-series features (the first
        ``len(random_objects_)`` output columns).
    local_ : float
        The share of local features used (resolved when local="auto").
    local_features_ : LocalSeriesFeatures or None
        The local shapes (``shapes``, ``dilations``, ``thresholds``,
        ``gamma``, ...) behind the last output columns; None without them.
    gamma_ : float
    max_length_ : int
        The max_length used (resolved when max_length="auto").
    n_components_ : int
    input_flavour_ : int
        Number of channels of the fit data (transform inputs must match).

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke import RandomWarpingSeries
    >>> X = [np.sin(np.linspace(0, 6, n)) for n in (50, 60, 70)]
    >>> RandomWarpingSeries(n_components=32, random_state=0).fit_transform(X).shape
    (3, 32)
    """

    metric = "dtw"
    _parameter_constraints = {
        **D2KEBase._parameter_constraints,
        "min_length": [COUNT],
        "max_length": [COUNT, StrOptions({"auto"})],
        "scale": [Interval(Real, 0, None, closed="neither")],
        "window": [Interval(Integral, 0, None, closed="left"), None],
        "derivative": ["boolean"],
        "local": [Interval(Real, 0, 1, closed="left"), StrOptions({"auto"})],
    }

    def __init__(self, n_components=256, *, min_length=MIN_LENGTH, max_length="auto", scale=SCALE, kernel="soft",
                 gamma="auto", window=None, derivative=True, local="auto", standardize=True, random_state=None,
                 n_jobs=None, dtype=np.float64, verbose=0):
        store_parameters(self, locals())

    def _metric_params(self):
        return {"window": self.window}

    def _check_params(self):
        super()._check_params()
        check_positive_int(self.min_length, "min_length")
        check_positive_int_or_auto(self.max_length, "max_length")
        if not is_auto(self.max_length) and self.min_length > self.max_length:
            raise ValueError(f"min_length ({self.min_length}) must be <= max_length ({self.max_length})")
        check_positive_real(self.scale, "scale")
        check_window(self.window)
        if not isinstance(self.derivative, (bool, np.bool_)):
            raise TypeError(f"derivative must be True or False, got {self.derivative!r}")
        if not is_auto(self.local):
            if isinstance(self.local, (bool, np.bool_)) or not isinstance(self.local, Real):
                raise TypeError(f"local must be a number in [0, 1) or 'auto', got {self.local!r}")
            if not 0 <= self.local < 1:
                raise ValueError(f"local must be in [0, 1) (the share of local features) or 'auto', got {self.local}")

    def _draw_random_objects(self, X, rng):
        # With derivative=True the random series have the derivative channels too.
        channels = self.input_flavour_ * (2 if self.derivative else 1)
        if is_auto(self.max_length):
            self.max_length_ = series_max_length(X.lengths(), self.min_length)
        else:
            self.max_length_ = int(self.max_length)
        self.local_ = series_local_fraction(X.lengths()) if is_auto(self.local) else float(self.local)
        # At least one whole-series feature: the local ones complement it.
        n_local = min(int(round(self.local_ * self.n_components)), self.n_components - 1)
        whole = self._domain().draw_random_objects(X, channels, self.n_components - n_local, rng,
                                                   min_length=self.min_length, max_length=self.max_length_,
                                                   scale=self.scale)
        self.local_features_ = None
        if n_local:
            self.local_features_ = LocalSeriesFeatures.fit(
                X, n_local, rng, channels, lambda part: self._with_derivatives(part, channels), self.scale,
                self.kernel, effective_n_threads(self.n_jobs), check_dtype(self.dtype))
        return whole

    def _with_derivatives(self, X, channels):
        """X with its derivative channels appended when the random series
        (channels values per step) have them."""
        return append_derivatives(X) if channels != self.input_flavour_ else X

    def _fit(self, X, y=None, draw=None):
        super()._fit(X, y, draw)
        if self.local_features_ is not None:
            self.n_components_ += self.local_features_.n_features
        return self

    def _transform_chunk(self, X, out):
        local = self.__dict__.get("local_features_")
        if local is None:
            return super()._transform_chunk(X, out)
        # The derivative channels once, for both blocks (the whole-series
        # engine takes series that have them already as they are).
        X = self._with_derivatives(X.astype(out.dtype), self.random_objects_[0].shape[1])
        n_whole = len(self.random_objects_)
        whole = super()._transform_chunk(X, np.empty((len(X), n_whole), dtype=out.dtype))
        part = np.empty((len(X), local.n_features), dtype=out.dtype)
        local.features_into(X, part, effective_n_threads(self.n_jobs), self.kernel, self.feature_mean_ is not None)
        out[:, :n_whole] = whole
        out[:, n_whole:] = part
        return out

    def _engine_for_transform(self):
        engine = super()._engine_for_transform()
        # The fitted random series, not the current parameter, say whether the
        # inputs need their derivative channels (set_params after fit).
        if self.random_objects_[0].shape[1] != self.input_flavour_:
            return DerivativeEngine(engine, self.random_objects_[0].shape[1])
        return engine
