"""D2KE for sets of vectors (e.g. an image as the set of its SIFT descriptors)
under the Hausdorff or modified Hausdorff distance (Wu et al., D2KE,
Section 6 and Appendix C.4)."""

import numpy as np

from ._base import COUNT, StrOptions, store_parameters
from ._docstrings import fill_doc
from ._domains.point_sets import MAX_SIZE, MIN_SIZE
from ._validation import check_choice, check_size_range
from .d2ke import D2KEBase


@fill_doc
class RandomSetEmbedding(D2KEBase):
    """D2KE features for sets of vectors: distances to random sets.

    Random set j has U{min_size..max_size} points drawn uniformly on the
    unit sphere of R^dim; features are exp(-gamma d(X_i, W_j)) / sqrt(R)
    (soft) or d(X_i, W_j) / sqrt(R) (direct). The random points have unit
    norm, so inputs whose vectors are on a very different scale (raw SIFT
    descriptors have norms near 500) should be L2-normalised first.

    Parameters
    ----------
    n_components : int, default=128
        Number of random sets R (= number of output features).
    metric : {"modified_hausdorff", "hausdorff"}, default="modified_hausdorff"
        Modified Hausdorff (Dubuisson & Jain):
        ``max(mean_a min_b |a - b|, mean_b min_a |a - b|)``; Hausdorff: the same
        with max in place of mean.
    min_size, max_size : int, default=3, 15
        Random set sizes are uniform on {min_size, ..., max_size}.
    kernel : {"soft", "direct"}, default="soft"
    gamma : float or "auto", default="auto"
        "auto" uses 1 / median distance between (up to 256) fit sets and the
        random sets.
    <standardize>
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads (None and -1: all cores). The output does not depend on it.
    dtype : numpy.float64 or numpy.float32, default=numpy.float64
        Output type and arithmetic precision.
    <verbose>

    Attributes
    ----------
    <feature_mean_, feature_scale_>
    random_objects_ : list of ndarray of shape (size_j, dim)
    gamma_ : float
    n_components_ : int
    input_flavour_ : int
        The dimension of the fit data's vectors.

    Examples
    --------
    >>> import numpy as np
    >>> from pyd2ke import RandomSetEmbedding
    >>> rng = np.random.default_rng(0)
    >>> sets = [rng.normal(size=(n, 8)) for n in (5, 9, 3)]
    >>> RandomSetEmbedding(n_components=16, random_state=0).fit_transform(sets).shape
    (3, 16)
    """

    _parameter_constraints = {
        **D2KEBase._parameter_constraints,
        "metric": [StrOptions({"hausdorff", "modified_hausdorff"})],
        "min_size": [COUNT],
        "max_size": [COUNT],
    }

    def __init__(self, n_components=128, *, metric="modified_hausdorff", min_size=MIN_SIZE, max_size=MAX_SIZE,
                 kernel="soft", gamma="auto", standardize=True, random_state=None, n_jobs=None, dtype=np.float64,
                 verbose=0):
        store_parameters(self, locals())

    def _check_params(self):
        check_choice(self.metric, "metric", {"hausdorff", "modified_hausdorff"})
        super()._check_params()
        check_size_range(self.min_size, self.max_size, "min_size", "max_size")

    def _draw_random_objects(self, X, rng):
        return self._draw_from_domain(X, rng, min_size=self.min_size, max_size=self.max_size)
